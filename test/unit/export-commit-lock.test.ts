// The account's commit lock (commit-lock.ts): a run waits while another commits, takes a dead run's lock over, refuses
// one held past the wait naming it, hears a stop while it waits, and takes over a lock it has seen unchanged for
// 10 minutes whoever it names, judged by its own monotonic clock, never by the lock's mtime.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMIT_LOCK, takeCommitLock } from '../../src/export/folder/commit-lock.js';

const folder = () => mkdtemp(path.join(os.tmpdir(), 'md-commit-lock-'));
const busyIn = async (dir: string) => expect(await takeCommitLock(dir, undefined, 300).catch((e: unknown) => e)).toMatchObject({ code: 'EXPORT_OUT_BUSY' });
/** This process's monotonic clock, `ms` on: as if it had watched the lock that long. */
function later(ms: number): void {
  const real = performance.now.bind(performance);
  vi.spyOn(performance, 'now').mockImplementation(() => real() + ms);
}
afterEach(() => vi.restoreAllMocks());
const TEN_MINUTES = 10 * 60_000;

describe('the account’s commit lock', () => {
  it('a second taker waits until the first lets go, then holds it; the lock is gone after both', async () => {
    const dir = await folder();
    const first = await takeCommitLock(dir);
    let second: { release: () => Promise<void> } | undefined;
    const waiting = takeCommitLock(dir).then((l) => (second = l));
    await new Promise((r) => setTimeout(r, 300));
    expect(second).toBeUndefined();
    await first.release();
    await waiting;
    await second!.release();
    expect(existsSync(path.join(dir, COMMIT_LOCK))).toBe(false);
  });

  it('a lock held past the wait: EXPORT_OUT_BUSY naming the lock to remove, the holder’s lock left', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const err = (await takeCommitLock(dir, undefined, 400).catch((e: unknown) => e)) as { code?: string; message: string; hint?: string };
    expect(err.code).toBe('EXPORT_OUT_BUSY');
    expect(err.message).toMatch(/putting its files into place for over 0 minutes; this run committed nothing/);
    expect(err.hint).toContain(path.join(dir, COMMIT_LOCK));
    expect(existsSync(path.join(dir, COMMIT_LOCK))).toBe(true);
    held.check();
    await held.release();
  });

  it('a lock left by a process that ended is taken over at once', async () => {
    const dir = await folder();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(dir, COMMIT_LOCK), JSON.stringify({ pid: gone, host: os.hostname(), started: Date.now() - 5_000 }));
    const started = performance.now();
    const lock = await takeCommitLock(dir, undefined, 60_000);
    expect(performance.now() - started).toBeLessThan(5_000);
    await lock.release();
  });

  it('a stop while it waits ends the wait with the stop’s reason', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const stop = new AbortController();
    const reason = new Error('stopped');
    setTimeout(() => stop.abort(reason), 200);
    const started = performance.now();
    await expect(takeCommitLock(dir, stop.signal, 60_000)).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(5_000);
    await held.release();
  });

  it('a lock seen unchanged for over 10 minutes is taken over whoever it names: a live process may have a dead run’s pid (round 63 Y1)', async () => {
    const dir = await folder();
    const other = spawn('sleep', ['30']);
    try {
      const lock = path.join(dir, COMMIT_LOCK);
      await writeFile(lock, JSON.stringify({ pid: other.pid, host: os.hostname(), started: Date.now() - 86_400_000, owner: `${other.pid}.0123456789abcdef` }));
      await busyIn(dir); // first seen now: a live run's commit, waited for
      later(TEN_MINUTES + 1_000);
      await (await takeCommitLock(dir, undefined, 300)).release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('its mtime minutes behind says nothing: a live one until this process has seen it unchanged (round 64 Z2)', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const lock = path.join(dir, COMMIT_LOCK);
    const skewed = new Date(Date.now() - 30 * 60_000); // another host's clock, or a file server's, half an hour behind
    await utimes(lock, skewed, skewed);
    await writeFile(lock, JSON.stringify({ ...JSON.parse(await readFile(lock, 'utf8')), owner: `${process.ppid}.0123456789abcdef`, pid: process.ppid }));
    await utimes(lock, skewed, skewed);
    await busyIn(dir);
    await busyIn(dir);
    held.release().catch(() => undefined);
  });

  it('its holder touches it while it commits, so a long commit is not seen unchanged', async () => {
    const dir = await folder();
    process.env.METERDATA_TEST_HOOKS = '1';
    process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS = '50';
    try {
      const held = await takeCommitLock(dir);
      const lock = path.join(dir, COMMIT_LOCK);
      const old = new Date(Date.now() - 11 * 60_000);
      await utimes(lock, old, old);
      await new Promise((r) => setTimeout(r, 300));
      expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(10_000);
      await held.release();
    } finally {
      delete process.env.METERDATA_TEST_HOOKS;
      delete process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS;
    }
  });

  it('a holder whose lock was taken over meanwhile is told so before its first rename (round 64 Z1)', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const lock = path.join(dir, COMMIT_LOCK);
    await writeFile(lock, JSON.stringify({ pid: process.ppid, host: os.hostname(), started: Date.now(), owner: `${process.ppid}.0123456789abcdef` }));
    expect(() => held.check()).toThrow(
      expect.objectContaining({ code: 'EXPORT_OUT_BUSY', message: expect.stringContaining('nothing of this run was committed') }),
    );
    await held.release();
    expect(existsSync(lock)).toBe(true); // the new holder's lock is left
  });

  it('this process’s own lock left where its removal failed is taken over once seen unchanged, not waited on for good (round 63 Y3)', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const lock = path.join(dir, COMMIT_LOCK);
    const record = await readFile(lock, 'utf8'); // this process's mark on it
    await held.release();
    await writeFile(lock, record); // as if its removal had failed
    await busyIn(dir);
    later(TEN_MINUTES + 1_000);
    await (await takeCommitLock(dir, undefined, 300)).release();
  });

  it('a touched lock of another pid space with this hostname is waited on, whatever its pid is here (round 63 Y6)', async () => {
    const dir = await folder();
    const lock = path.join(dir, COMMIT_LOCK);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    // a container sharing the state folder and the hostname: its pid 1, or a pid no process here has
    for (const pid of [1, gone]) {
      await writeFile(lock, JSON.stringify({ pid, host: os.hostname(), started: Date.now(), owner: `${pid}.0123456789abcdef`, ns: 'another pid space' }));
      await busyIn(dir);
    }
    later(TEN_MINUTES + 1_000); // seen unchanged since: a killed run's, taken over
    await (await takeCommitLock(dir, undefined, 300)).release();
  });

  it('a wait of over 3 seconds is told once, naming the lock', async () => {
    const dir = await folder();
    const held = await takeCommitLock(dir);
    const lines: string[] = [];
    await expect(takeCommitLock(dir, undefined, 4_000, (l) => lines.push(l))).rejects.toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    expect(lines).toEqual([
      `Waiting for another meterdata run of this account to put its files into place (${path.join(dir, COMMIT_LOCK)}); this run's files follow once it is done.`,
    ]);
    await held.release();
  });

  it('a lock dated over an hour back is taken over at once, whoever it names: each process counts anew (round 65 A4)', async () => {
    const dir = await folder();
    const lock = path.join(dir, COMMIT_LOCK);
    await writeFile(lock, JSON.stringify({ pid: 1, host: os.hostname(), started: Date.now(), owner: '1.0123456789abcdef', ns: 'a restarted container' }));
    const old = new Date(Date.now() - 61 * 60_000);
    await utimes(lock, old, old);
    const started = performance.now();
    await (await takeCommitLock(dir, undefined, 60_000)).release();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
