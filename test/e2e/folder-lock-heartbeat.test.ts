// The --out folder's lock is touched until the run releases it, and a run that finds it taken
// over stops at once. Time scaled: the lock's 60 s heartbeat every 200 ms
// (METERDATA_TEST_LOCK_HEARTBEAT_MS); 10 minutes of silence would be 2 s. Runs the built CLI,
// whose walk and workbook are worker threads that end before the main thread commits.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LOCK } from '../../src/export/folder/folder-lock.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, BIN, ROOT } from '../helpers/bin.js';
import { signedInNord } from '../helpers/portfolio.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedInNord('md-lock-heartbeat-'));
}, 120_000);
afterAll(async () => sandbox?.close());

const HEARTBEAT_MS = 200;
const scaled = (slowWorkbookMs: number): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: env.METERDATA_HOME,
  ...env,
  METERDATA_TEST_HOOKS: '1',
  METERDATA_TEST_LOCK_HEARTBEAT_MS: String(HEARTBEAT_MS),
  METERDATA_SLOW_WORKBOOK_MS: String(slowWorkbookMs),
  NODE_OPTIONS: `--import ${path.join(ROOT, 'test/e2e/fixtures/slow-workbook.mjs')}`,
});

/** Runs the built CLI; `tick` is called every 50 ms while it runs. */
function run(args: string[], runEnv: NodeJS.ProcessEnv, tick: () => void): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: runEnv, cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setInterval(tick, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stderr });
    });
  });
}

const OTHER = JSON.stringify({ pid: 4242, host: 'otherhost', started: 1 });

describe('the --out folder lock', () => {
  it('is touched through the workbook and the commit, not only while the walk runs', async () => {
    const args = ['export', '--year', '2025', '--profile', 'nord'];
    const out = path.join(home, 'beat');
    const lock = path.join(out, FOLDER_LOCK);
    let oldest = 0;
    const done = await run([...args, '--out', out], scaled(25 * HEARTBEAT_MS), () => {
      if (existsSync(lock)) oldest = Math.max(oldest, Date.now() - statSync(lock).mtimeMs);
    });
    expect(done.code, done.stderr).toBe(0);
    // before: untouched from the walk's end to the commit, the whole 5 s workbook (25 missed touches)
    expect(oldest).toBeLessThan(12 * HEARTBEAT_MS);
    expect(existsSync(lock)).toBe(false);
  }, 300_000);

  it('taken over during the walk: the run stops at once (exit 2), writes nothing more and leaves the new holder its files', async () => {
    const out = path.join(home, 'taken-walk');
    const lock = path.join(out, FOLDER_LOCK);
    const start = sandbox.log.total;
    let planted: { at: number; requests: number; files: Map<string, string> } | null = null;
    const done = await run(['export', '--year', '2025', '--profile', 'nord', '--rate-limit', '60', '--out', out], scaled(0), () => {
      if (planted || sandbox.log.total < start + 4 || !existsSync(lock)) return;
      // what the other run does on taking the folder over: its lock, and its own temporary files under the same names
      writeFileSync(lock, OTHER);
      const files = new Map<string, string>();
      for (const name of readdirSync(out).filter((n) => n !== FOLDER_LOCK)) {
        writeFileSync(path.join(out, `${name}.other`), `the other run's ${name}`);
        renameSync(path.join(out, `${name}.other`), path.join(out, name));
        files.set(name, `the other run's ${name}`);
      }
      planted = { at: Date.now(), requests: sandbox.log.total, files };
    });
    expect(planted, 'the lock was never planted').not.toBeNull();
    const { at, requests, files } = planted!;
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr.split('\n').find((l) => l.startsWith('meterdata:'))).toMatch(
      /^meterdata: The lock of .* was replaced while this run was writing into it: another meterdata run took the folder over/,
    );
    // before: the walk went on to its end (a request a second) and stopped only at its commit check
    expect(Date.now() - at).toBeLessThan(30 * HEARTBEAT_MS);
    expect(sandbox.log.total - requests).toBeLessThanOrEqual(3);
    expect(readFileSync(lock, 'utf8')).toBe(OTHER);
    expect(readdirSync(out).sort()).toEqual([FOLDER_LOCK, ...files.keys()].sort());
    for (const [name, text] of files) expect(readFileSync(path.join(out, name), 'utf8')).toBe(text);
  }, 300_000);

  /** An export into `name` with an 8 s workbook; `act` is done to its lock once the workbook started. */
  const duringWorkbook = async (name: string, act: (lock: string) => void) => {
    const out = path.join(home, name);
    const lock = path.join(out, FOLDER_LOCK);
    const mark = path.join(home, `${name}-workbook-started`);
    let at = 0;
    const done = await run(
      ['export', '--year', '2025', '--profile', 'nord', '--out', out],
      { ...scaled(40 * HEARTBEAT_MS), METERDATA_SLOW_WORKBOOK_MARK: mark },
      () => {
        if (at || !existsSync(mark)) return;
        act(lock);
        at = Date.now();
      },
    );
    expect(at, 'the workbook never started').toBeGreaterThan(0);
    expect(done.code, done.stderr).toBe(2);
    return { out, lock, stderr: done.stderr, took: Date.now() - at };
  };

  it('taken over during the workbook: the run stops at once (exit 2), its workbook is stopped and nothing is committed', async () => {
    const { out, lock, stderr, took } = await duringWorkbook('taken-workbook', (lock) => writeFileSync(lock, OTHER));
    expect(stderr).toMatch(/meterdata: The lock of .* was replaced while this run was writing into it/);
    // before: the run waited for its 8 s workbook and refused only at its commit check
    expect(took).toBeLessThan(20 * HEARTBEAT_MS);
    expect(existsSync(path.join(out, 'meterdata-manifest.json'))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(OTHER);
  }, 300_000);

  it('deleted during the workbook (the busy hint followed on another host): the run stops at once (exit 2) naming the deleted lock', async () => {
    const { out, lock, stderr, took } = await duringWorkbook('deleted-workbook', (lock) => rmSync(lock));
    expect(stderr).toContain(`meterdata: The lock ${lock} was deleted while this run was writing into ${out}`);
    // before: the heartbeat stopped without a word; the run waited for its 8 s workbook and its commit check refused with the "paused" text
    expect(took).toBeLessThan(20 * HEARTBEAT_MS);
    expect(existsSync(path.join(out, 'meterdata-manifest.json'))).toBe(false);
    expect(existsSync(lock)).toBe(false);
  }, 300_000);

  it('portfolio: its root taken over during the walk, every profile stops at once (exit 2) and no summary is written', async () => {
    const root = path.join(home, 'taken-portfolio');
    const lock = path.join(root, FOLDER_LOCK);
    const start = sandbox.log.total;
    let planted: { at: number; requests: number } | null = null;
    const argv = ['export', '--profiles', 'nord', '--year', '2025', '--format', 'csv', '--rate-limit', '60', '--out', root];
    const done = await run(argv, scaled(0), () => {
      if (planted || sandbox.log.total < start + 4 || !existsSync(lock)) return;
      writeFileSync(lock, OTHER);
      planted = { at: Date.now(), requests: sandbox.log.total };
    });
    expect(planted, 'the lock was never planted').not.toBeNull();
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr).toContain(`The lock of ${root} was replaced while this run was writing into it: another meterdata run took the folder over`);
    // before: the profile's walk went on to its end and was refused only at its commit check
    expect(Date.now() - planted!.at).toBeLessThan(30 * HEARTBEAT_MS);
    expect(sandbox.log.total - planted!.requests).toBeLessThanOrEqual(3);
    expect(existsSync(path.join(root, 'portfolio-summary.csv'))).toBe(false);
    expect(existsSync(path.join(root, 'nord', 'meterdata-manifest.json'))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(OTHER);
  }, 300_000);
});
