import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/meterdata.js', import.meta.url).pathname;
const hook = new URL('./fixtures/record-imports.mjs', import.meta.url).pathname;
/** Modules only an export's run needs: the review, billing, the pipeline and the output's tables. */
const EXPORT_RUN =
  /node_modules\/decimal\.js\/|dist\/(plausibility|uvi|billing)\/|dist\/export\/(pipeline|steps|folder|journal|portfolio)\/|dist\/export\/output\/(output-set|tables|cell-text|texts-sheets)\.js/;

function importsOf(args: string[]): { status: number | null; stdout: string; imports: string[] } {
  const r = spawnSync(process.execPath, ['--import', hook, bin, ...args], { encoding: 'utf8', timeout: 20_000 });
  const line = r.stderr.split('\n').find((l) => l.startsWith('IMPORTS '));
  return { status: r.status, stdout: r.stdout, imports: line ? (JSON.parse(line.slice(8)) as string[]) : [] };
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
    expect(r.imports.some((u) => u.includes('node_modules/commander/'))).toBe(true); // the hook saw the CLI's own imports
    const heavy = r.imports.filter((u) => /node_modules\/(ink|react|react-reconciler|exceljs|pdfkit|valibot|oidc-provider|openid-client)\//.test(u));
    expect(heavy).toEqual([]);
    // The export command's declaration reads its flags' parsers, not the run they feed: no
    // plausibility review, no output tables, no decimal.js (a third of the start-up's modules).
    expect(r.imports.filter((u) => EXPORT_RUN.test(u))).toEqual([]);
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
