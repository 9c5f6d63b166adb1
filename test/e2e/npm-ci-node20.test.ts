// README's first command, `npm ci && npm run demo`, on a machine whose system Node.js is older
// than 22.19 (these ship Node 20): `npm ci` runs on that Node.js and prints no warning. Without
// the project's .npmrc (loglevel=error) it printed nine EBADENGINE warnings (meterdata, commander,
// ink, undici, vitest … want a newer Node.js, which scripts/node24 gives every npm script) and one
// about esbuild's install script. The install runs in a scratch folder holding what `npm ci`
// reads (package.json, package-lock.json, .npmrc), with the system's npm and its cache.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';
import { requireTool } from '../helpers/tools.js';

const SYSTEM = '/usr/bin';
const systemEnv = { PATH: `${SYSTEM}:/bin`, HOME: os.homedir() };

function npmCi(extra: string[]): { status: number | null; stderr: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'md-npm-ci-'));
  for (const f of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(path.join(ROOT, f), path.join(dir, f));
  try {
    const r = spawnSync(path.join(SYSTEM, 'npm'), ['ci', ...extra], { cwd: dir, env: systemEnv, encoding: 'utf8', timeout: 400_000 });
    return { status: r.status, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true }); // a whole node_modules
  }
}

describe('npm ci on the system Node.js', () => {
  it('prints no warning where the system Node.js is older than meterdata needs', (ctx) => {
    requireTool(ctx, `${SYSTEM}/npm`, "the system's npm, with which README's first command installs");
    const version = spawnSync(`${SYSTEM}/node`, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const [major, minor] = version.slice(1).split('.').map(Number) as [number, number];
    if (major > 22 || (major === 22 && minor >= 19)) ctx.skip(`the system Node.js ${version} is new enough: npm has nothing to warn about`);
    const quiet = npmCi([]);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    // the same install asked for warnings: they are there to be silenced (else this test proves nothing)
    const loud = npmCi(['--loglevel=warn']);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/EBADENGINE/);
  }, 900_000);
});
