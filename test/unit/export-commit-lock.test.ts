// The account's commit lock (commit-lock.ts): a run waits while another commits, takes a dead run's lock over, refuses
// one held past the wait naming it, and hears a stop while it waits.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMIT_LOCK, takeCommitLock } from '../../src/export/folder/commit-lock.js';

const folder = () => mkdtemp(path.join(os.tmpdir(), 'md-commit-lock-'));

describe('the account’s commit lock', () => {
  it('a second taker waits until the first lets go, then holds it; the lock is gone after both', async () => {
    const dir = await folder();
    const first = await takeCommitLock(dir);
    let second: (() => Promise<void>) | undefined;
    const waiting = takeCommitLock(dir).then((u) => (second = u));
    await new Promise((r) => setTimeout(r, 300));
    expect(second).toBeUndefined();
    await first();
    await waiting;
    expect(second).toBeDefined();
    await second!();
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
    await held();
  });

  it('a lock left by a process that ended is taken over at once', async () => {
    const dir = await folder();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(dir, COMMIT_LOCK), JSON.stringify({ pid: gone, host: os.hostname(), started: Date.now() - 5_000 }));
    const started = performance.now();
    const unlock = await takeCommitLock(dir, undefined, 60_000);
    expect(performance.now() - started).toBeLessThan(5_000);
    await unlock();
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
    await held();
  });

  it('a lock not touched for over 10 minutes is taken over whoever it names: a live process may have a dead run’s pid (round 63 Y1)', async () => {
    const dir = await folder();
    const other = spawn('sleep', ['30']);
    try {
      const lock = path.join(dir, COMMIT_LOCK);
      await writeFile(lock, JSON.stringify({ pid: other.pid, host: os.hostname(), started: Date.now() - 86_400_000, owner: `${other.pid}.0123456789abcdef` }));
      const fresh = await takeCommitLock(dir, undefined, 300).catch((e: unknown) => e);
      expect(fresh).toMatchObject({ code: 'EXPORT_OUT_BUSY' }); // touched just now: a live run's commit, waited for
      const old = new Date(Date.now() - 11 * 60_000);
      await utimes(lock, old, old);
      const unlock = await takeCommitLock(dir, undefined, 300);
      await unlock();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('its holder touches it while it commits, so a long commit is not taken for a silent one', async () => {
    const dir = await folder();
    process.env.METERDATA_TEST_HOOKS = '1';
    process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS = '50';
    try {
      const unlock = await takeCommitLock(dir);
      const lock = path.join(dir, COMMIT_LOCK);
      const old = new Date(Date.now() - 11 * 60_000);
      await utimes(lock, old, old);
      await new Promise((r) => setTimeout(r, 300));
      expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(10_000);
      await unlock();
    } finally {
      delete process.env.METERDATA_TEST_HOOKS;
      delete process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS;
    }
  });

  it('this process’s own lock left where its removal failed is taken over once silent, not waited on for good (round 63 Y3)', async () => {
    const dir = await folder();
    const unlock = await takeCommitLock(dir);
    const lock = path.join(dir, COMMIT_LOCK);
    const record = await readFile(lock, 'utf8'); // this process's mark on it
    await unlock();
    await writeFile(lock, record); // as if its removal had failed
    expect(await takeCommitLock(dir, undefined, 300).catch((e: unknown) => e)).toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(lock, old, old);
    await (
      await takeCommitLock(dir, undefined, 300)
    )();
  });

  it('a touched lock of another pid space with this hostname is waited on, whatever its pid is here (round 63 Y6)', async () => {
    const dir = await folder();
    const lock = path.join(dir, COMMIT_LOCK);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    // a container sharing the state folder and the hostname: its pid 1, or a pid no process here has
    for (const pid of [1, gone]) {
      await writeFile(lock, JSON.stringify({ pid, host: os.hostname(), started: Date.now(), owner: `${pid}.0123456789abcdef`, ns: 'another pid space' }));
      expect(await takeCommitLock(dir, undefined, 300).catch((e: unknown) => e)).toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    }
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(lock, old, old); // silent: a killed run's, taken over
    await (
      await takeCommitLock(dir, undefined, 300)
    )();
  });
});
