// The npm package as a user gets it: `npm run build:pkg` packs this checkout (prepack
// builds a clean dist/) and installs the tarball with `npm install -g` into a fresh
// prefix (build/pkg/prefix); these tests run what landed there, not the working tree.
// And the launcher on a Node.js older than the package needs (the machine's Node 20).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { requireBuilt, requireTool } from '../helpers/tools.js';
import { browseAndQuit } from '../helpers/tmux-browse.js';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
const tgz = path.join(root, 'build/pkg', `${pkg.name}-${pkg.version}.tgz`);
const prefix = path.join(root, 'build/pkg/prefix');
const installed = path.join(prefix, 'bin/meterdata');
const node24Dir = path.dirname(process.execPath);
const OLD_NODE = '/usr/bin/node';

function needPackage(ctx: TestContext): void {
  requireBuilt(ctx, tgz, 'npm run build:pkg');
  requireBuilt(ctx, installed, 'npm run build:pkg');
}

/** The machine's own Node.js, if it is older than the package needs (these ship Node 20). */
function needOldNode(ctx: TestContext): string {
  requireTool(ctx, OLD_NODE, 'the old-Node check runs against the system Node.js 20');
  const v = execFileSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  const [major] = v.split('.').map(Number);
  if (major! >= 22) throw new Error(`${OLD_NODE} is Node.js ${v}: the test needs one older than ${pkg.engines.node}`);
  return v;
}

const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = os.tmpdir()) =>
  spawnSync(cmd, args, { env: { HOME: os.tmpdir(), ...env }, cwd, encoding: 'utf8', timeout: 120_000 });

describe('the npm package', () => {
  it('holds the launcher, the built code, the templates, the fonts of the letters and every doc its messages name; no sources, tests or bench results', (ctx) => {
    needPackage(ctx);
    const files = execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    for (const f of [
      'package.json',
      'bin/meterdata.js',
      'dist/cli.js',
      'dist/core/isolate-worker.js',
      'templates/generic.json',
      'templates/de.json',
      'assets/fonts/DejaVuSans.ttf',
      'assets/fonts/DejaVuSans-Bold.ttf',
      'assets/fonts/LICENSE-DejaVu.txt',
      'docs/install.md',
      'README.md',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(
      files.filter((f) => /^(src|test|bench|scripts|\.ci|build|node_modules)\//.test(f) || /\.(ts|tsx|map)$/.test(f) || f.startsWith('dist/sea/')),
    ).toEqual([]);
    const unpacked = mkdtempSync(path.join(os.tmpdir(), 'md-pkg-files-'));
    execFileSync('tar', ['xzf', tgz, '-C', unpacked]);
    const named = new Set<string>();
    for (const f of files.filter((x) => x.endsWith('.js'))) {
      for (const m of readFileSync(path.join(unpacked, 'package', f), 'utf8').matchAll(/docs\/[a-z-]+\.md/g)) named.add(m[0]);
    }
    expect(named.size).toBeGreaterThan(0);
    for (const doc of named) expect(files, `${doc} is named in a message but not in the package`).toContain(doc);
  });

  it('installed with npm install -g into a fresh prefix: `meterdata --version` prints the version', (ctx) => {
    needPackage(ctx);
    const r = run(installed, ['--version'], { PATH: `${prefix}/bin:${node24Dir}:/usr/bin:/bin` });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('installed: `meterdata demo` signs in to the embedded sandbox and writes the billing sheets', (ctx) => {
    needPackage(ctx);
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'md-pkg-demo-'));
    const r = run('meterdata', ['demo', '--out', 'sheets'], { PATH: `${prefix}/bin:${node24Dir}:/usr/bin:/bin` }, cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Open ${path.join(cwd, 'sheets', 'billing.xlsx')}`);
    expect(readdirSync(path.join(cwd, 'sheets'))).toEqual(expect.arrayContaining(['billing.xlsx', 'billing.csv', 'review.csv']));
  }, 120_000);

  it('installed: `meterdata browse` shows the Properties in a terminal and quits with status 0', async (ctx) => {
    needPackage(ctx);
    requireTool(ctx, 'tmux', 'browse runs in a tmux pane');
    const { list, end } = await browseAndQuit([installed], { PATH: `${node24Dir}:/usr/bin:/bin` });
    expect(list).toMatch(/Property\s+Address\s+Units\s+Flags/);
    expect(end).toContain('EXIT=0');
  }, 60_000);
});

describe('on a Node.js older than the package needs', () => {
  const check = (r: ReturnType<typeof run>, old: string) => {
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `meterdata needs Node.js ${pkg.engines.node.replace(/^>=/, '')} or newer, but this is Node.js ${old}: install Node.js 24 LTS from https://nodejs.org, or use the single executable that needs no Node.js (see docs/install.md).`,
    );
  };

  it('the installed `meterdata` says in one line which Node.js it needs and how to get it; exit 1, no stack trace', (ctx) => {
    needPackage(ctx);
    const old = needOldNode(ctx);
    // `demo` loads the HTTP client, which fails on Node 20 with a stack trace without the check.
    check(run(installed, ['demo'], { PATH: `${prefix}/bin:${path.dirname(OLD_NODE)}:/bin` }), old);
  });

  it('so does bin/meterdata.js of a clone', (ctx) => {
    const old = needOldNode(ctx);
    expect(existsSync(path.join(root, 'dist/cli.js')), 'build first: npm run build').toBe(true);
    check(run(OLD_NODE, [path.join(root, 'bin/meterdata.js'), 'demo'], { PATH: '/usr/bin:/bin' }), old);
    check(run(OLD_NODE, [path.join(root, 'bin/meterdata.js'), '--version'], { PATH: '/usr/bin:/bin' }), old);
  });
});
