// config.json's lock (`<home>/config/config.json.lock`, src/core/config.ts lockConfig) held or damaged: before,
// every run that wrote the settings (each refresh notes itself there) ended "unexpected failure (this is a bug)",
// exit 1 with a stack, and a lock left by a writer killed just before failed `status` after 9.7 s, since the
// retries stopped short of the 10 s stale bound. Now: exit 5 CONFIG_LOCKED naming the lock, or the lock taken over;
// a refresh's notes after its tokens are stored only warn (the run goes on).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import lockfile from 'proper-lockfile';
import { configFile, setProfileFields } from '../../src/core/config.js';
import { isMeterdataError } from '../../src/core/errors.js';
import { runCli } from '../helpers/run-cli.js';
import { setAccessExpiry, signedIn, type SignedIn } from '../helpers/signed-in.js';

let at: SignedIn;
beforeAll(async () => {
  at = await signedIn({ credentialStore: 'file', homePrefix: 'md-config-lock-' });
}, 60_000);
afterAll(() => at?.close());

const lockOf = () => `${configFile(at.env)}.lock`;
const clear = () => execFileSync('rm', ['-rf', lockOf()]);

const lockedMessage = () => `The lock ${lockOf()} of the settings file cannot be used (it is a file, not the folder meterdata locks with).`;

describe('config.json.lock that is no lock folder', () => {
  it('a plain file (old): `export --json` whose refresh cannot note itself goes on, warning twice with the lock to remove; the refresh is kept', async () => {
    clear();
    setAccessExpiry(at.file);
    writeFileSync(lockOf(), 'x');
    utimesSync(lockOf(), new Date('2020-01-01'), new Date('2020-01-01'));
    const out = mkdtempSync(path.join(os.tmpdir(), 'md-config-lock-out-'));
    const r = await runCli(['export', '--json', '--year', '2025', '--out', path.join(out, 'o')], { env: at.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { exit_code: number }).exit_code).toBe(0);
    // the time of the refresh and /whoami's facts: each not noted, each naming the lock, never "/whoami failed"
    expect(r.stderr.split(lockedMessage()).length - 1).toBe(2);
    expect(r.stderr).not.toMatch(/this is a bug|\n\s+at |checking the connection \(\/whoami\) failed/);

    clear();
    const next = await runCli(['status', '--json'], { env: at.env });
    expect(next.code, next.stdout + next.stderr).toBe(0); // the refreshed tokens were kept: no sign-in lost
  }, 60_000);

  it('a FIFO: `status --json` names it as its problem (CONFIG_LOCKED), at once, without hanging on the pipe', async () => {
    clear();
    setAccessExpiry(at.file);
    execFileSync('mkfifo', [lockOf()]);
    const started = Date.now();
    const r = await runCli(['status', '--json'], { env: at.env });
    expect(r.code, r.stdout + r.stderr).toBe(3); // status gives 3 for every problem
    expect(Date.now() - started).toBeLessThan(5000);
    const problem = (JSON.parse(r.stdout) as { problem: { code: string; message: string } }).problem;
    expect(problem.code).toBe('CONFIG_LOCKED');
    expect(problem.message).toBe(lockedMessage());
    clear();
  }, 30_000);
});

describe('a lock folder', () => {
  it('left by a writer killed just before (fresh): taken over once stale, `status --json` exits 0', async () => {
    clear();
    mkdirSync(lockOf());
    const r = await runCli(['status', '--json'], { env: at.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 40_000);

  it('held by a live writer past the retries: CONFIG_LOCKED naming config.json and the lock, not a bug', async () => {
    clear();
    const file = configFile(at.env);
    const release = await lockfile.lock(file, { realpath: false, stale: 10_000 });
    try {
      const e = await setProfileFields(at.env, 'default', { last_refresh_at: '2026-11-22T00:00:00.000Z' }).catch((x: unknown) => x);
      expect(isMeterdataError(e) && e.code).toBe('CONFIG_LOCKED');
      expect((e as Error).message).toBe(`Another meterdata process has been changing the settings in ${file} for too long.`);
      expect(isMeterdataError(e) && e.exitCode).toBe(5);
    } finally {
      await release();
    }
  }, 40_000);
});
