import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/meterdata.js', import.meta.url).pathname;
const hook = new URL('./fixtures/record-imports.mjs', import.meta.url).pathname;
/** Modules only an export's run needs: the review, billing, the pipeline and the output's tables. */
const EXPORT_RUN =
  /node_modules\/decimal\.js\/|dist\/(plausibility|uvi|billing)\/|dist\/export\/(pipeline|steps|folder|journal|portfolio)\/|dist\/export\/output\/(output-set|tables|cell-text|texts-sheets)\.js/;

interface Loaded {
  status: number | null;
  stdout: string;
  /** The module URLs the process resolved. */
  imports: string[];
  /** The same with each file of dist/bundle/ standing for the modules it holds (dist/…, node_modules/…). */
  modules: string[];
  /** Node's own modules loaded, imported or required (process.moduleLoadList). */
  builtins: string[];
}

function importsOf(args: string[], stdin: 'pipe' | 'ignore' = 'pipe'): Loaded {
  const r = spawnSync(process.execPath, ['--import', hook, bin, ...args], { encoding: 'utf8', timeout: 20_000, stdio: [stdin, 'pipe', 'pipe'] });
  const line = (tag: string) => {
    const l = r.stderr.split('\n').find((x) => x.startsWith(`${tag} `));
    return l ? (JSON.parse(l.slice(tag.length + 1)) as string[]) : [];
  };
  const imports = line('IMPORTS');
  // scripts/bundle-cli.mjs records which modules each file of the bundle holds
  const inputs = JSON.parse(readFileSync(new URL('../../dist/bundle/inputs.json', import.meta.url), 'utf8')) as Record<string, string[]>;
  const modules = imports.flatMap((u) => {
    const file = /\/dist\/bundle\/([^/]+\.js)$/.exec(u)?.[1];
    return file ? (inputs[file] ?? [u]) : [u];
  });
  return { status: r.status, stdout: r.stdout, imports, modules, builtins: line('BUILTINS') };
}

describe('start-up of the built binary', () => {
  it('is built (npm test builds before running tests)', () => {
    expect(existsSync(new URL('../../dist/cli.js', import.meta.url))).toBe(true);
  });

  // German help included: its catalogues (src/texts-cli*.ts) load nothing heavy either.
  it.each([
    ['--help'],
    ['--version'],
    ['export', '--help'],
    ['browse', '--help'],
    ['--help', '--lang', 'de'],
    ['export', '--help', '--lang', 'de'],
    ['sandbox', '--help', '--lang', 'de'],
    ['completion', 'bash'],
  ])("`meterdata %s` loads neither Ink, React, exceljs, pdfkit, valibot nor the export's run", (...args) => {
    const r = importsOf(args);
    expect(r.status).toBe(0);
    expect(r.modules.some((u) => u.includes('node_modules/commander/'))).toBe(true); // the hook saw the CLI's own imports
    const heavy = r.modules.filter((u) => /node_modules\/(ink|react|react-reconciler|exceljs|pdfkit|valibot|oidc-provider|openid-client)\//.test(u));
    expect(heavy).toEqual([]);
    // The export command's declaration reads its flags' parsers, not the run they feed: no
    // plausibility review, no output tables, no decimal.js (a third of the start-up's modules).
    expect(r.modules.filter((u) => EXPORT_RUN.test(u))).toEqual([]);
  });

  // Node's loader costs more per module than V8 per line (bench/README.md, "Start-up").
  it.each([['--help'], ['--version'], ['export', '--help']])('`meterdata %s` starts from the bundle: three files of its own', (...args) => {
    const r = importsOf(args);
    expect(r.status).toBe(0);
    const own = r.imports.filter((u) => u.includes('/dist/'));
    expect(own.filter((u) => !/\/dist\/bundle\/[^/]+\.js$/.test(u))).toEqual([]);
    expect(own).toHaveLength(3); // paths.js, cli.js and the one chunk of everything a start needs
    expect(r.modules).toContain('dist/cli.js');
  });

  // A built-in imported reads all its exports, and so loads the lazy ones; process.stdin made
  // for /dev/null (cron) loads Node's file streams: neither when nothing uses them.
  it.each([['--help'], ['--version']])('`meterdata %s` loads no child_process, fs/promises, worker threads or argument parser of Node', (...args) => {
    const r = importsOf(args, 'ignore');
    expect(r.status).toBe(0);
    expect(r.builtins).toContain('NativeModule os'); // the hook saw Node's own modules
    const unused = /^NativeModule (child_process|internal\/fs\/promises|internal\/fs\/streams|worker_threads|internal\/util\/parse_args\/parse_args)$/;
    expect(r.builtins.filter((m) => unused.test(m))).toEqual([]);
  });

  // Compiling meterdata's modules is a good part of every start (bench/README.md, "Start-up").
  it("keeps V8's compiled code in the cache folder, and runs alike where that folder cannot be made", () => {
    const run = (home: string) => {
      const env: NodeJS.ProcessEnv = { ...process.env, METERDATA_HOME: home };
      delete env.NODE_COMPILE_CACHE;
      return spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env, timeout: 20_000 });
    };
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-startup-'));
    const cached = run(home);
    expect(cached.status).toBe(0);
    expect(readdirSync(path.join(home, 'cache', 'compile-cache')).length).toBeGreaterThan(0);
    // a file where the cache folder should be: no folder can be made, nothing else changes
    const blocked = mkdtempSync(path.join(os.tmpdir(), 'md-startup-'));
    writeFileSync(path.join(blocked, 'cache'), '');
    const plain = run(blocked);
    expect([plain.status, plain.stdout, plain.stderr]).toEqual([0, cached.stdout, '']);
    expect(cached.stderr).toBe('');
  });

  it('prints the version from package.json', () => {
    const out = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim();
    expect(out).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
