// An export into R/2025-11/sub and the monthly information into R hold no folder lock in common: each passed its look
// for the other's files while the other had not committed, and with one paused between its last look and its commit,
// both committed (round 60 V2), the export inside a month's letters. The account's commit lock (commit-lock.ts) puts
// the last look and the renames of every run in one line: the second to commit finds the first's files and is refused.
// The first, the built binary, pauses holding that lock (a test hook); the second runs in this process meanwhile.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-commit-lock-'));
});
afterAll(async () => sandbox?.close());

const exportRun = (out: string) => ['export', '--year', '2025', '--format', 'csv', '--profile', 'nord', '--out', path.join(out, '2025-11', 'sub')];
const uviRun = (out: string) => ['uvi', '--month', '2025-11', '--profile', 'nord', '--out', out];

/** The built binary, paused 7 s between its last look and its commit; resolves once it is there, then with its end. */
function pausedBinary(argv: string[]): { there: Promise<void>; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [path.resolve('bin/meterdata.js'), ...argv], {
    cwd: home,
    env: { ...process.env, ...env, METERDATA_TEST_HOOKS: '1', METERDATA_TEST_PAUSE_BEFORE_COMMIT_MS: '7000' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const there = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (stderr.includes('test-hook: BEFORE_COMMIT')) resolve();
    });
    child.on('exit', () => reject(new Error(`ended before its commit: ${stderr}`)));
  });
  const done = new Promise<{ code: number | null; stderr: string }>((r) => child.on('exit', (code) => (clearTimeout(guard), r({ code, stderr }))));
  return { there, done };
}

describe('an export and a uvi run into nested folders, one paused before its commit', () => {
  it.each([
    ['the uvi paused, the export refused', uviRun, exportRun, 'consumption information ('],
    ['the export paused, the uvi refused', exportRun, uviRun, 'holds an export'],
  ])(
    '%s (exit 2 naming the other’s folder); the paused run commits, the refused one leaves no manifest',
    async (name, first, second, told) => {
      const root = path.join(home, name.replace(/\W+/g, '-'));
      const paused = pausedBinary(first(root));
      await paused.there;
      const refused = await runCli(second(root), { env, cwd: home });
      const done = await paused.done;
      expect([done.code, refused.code], `${done.stderr}\n${refused.stderr}`).toEqual([0, 2]);
      expect(refused.stderr).toContain(told);
      // the wait is told once, not a silent hang
      expect(refused.stderr.match(/Waiting for another meterdata run of this account to put its files into place/g)).toHaveLength(1);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      const exported = existsSync(path.join(root, '2025-11', 'sub', 'meterdata-manifest.json'));
      const letters = existsSync(path.join(root, '2025-11', 'meterdata-manifest.json'));
      expect([exported, letters]).toEqual(first === exportRun ? [true, false] : [false, true]);
    },
    180_000,
  );
});
