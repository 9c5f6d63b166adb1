// One commit at a time per account: a run's last look for the other command's files (checkNotOtherCommand) and its
// renames into place happen under this lock in the account's state folder. An export into R/2025-10/sub and a uvi run
// into R hold no folder lock in common: each passed its look while the other had not committed yet, and with one paused
// between its look and its commit, both committed (round 60 V2). Under this lock the second to commit finds the
// first's manifest and is refused. Runs of two accounts keep their own state folders and are not kept apart here.
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { testNumber } from '../../auth/test-hooks.js';
import { UsageError } from '../../core/errors.js';
import { FOREIGN_LOCK_STALE_MS } from './folder-lock.js';
import { holdsLock, takeLock } from './locks.js';
import { outText as t } from './texts-folder.js';

export const COMMIT_LOCK = 'commit.lock';
/** A commit renames a run's files into place: seconds, even for a month of thousands of letters. Waited for this long, */
const COMMIT_WAIT_MS = 12 * 60_000;
/**
 * past SILENT_MS. The holder touches its lock this often while it commits, and a lock this process has seen unchanged
 * for SILENT_MS is taken over whoever it names: one per account, a lock left by a run killed in its commit whose pid a
 * live process now has (after a reboot) held every run of the account at EXPORT_OUT_BUSY (round 63 Y1). As long as a
 * folder lock of another host (folder-lock.ts): the commit's last look runs in the holder's thread without a touch,
 * walking up to 50,000 folders on what may be a slow share (round 64 Z1); and the holder looks again that the lock is
 * its own once its manifest is set aside, before its first rename (CommitLock.check, atomic.ts; round 65 A1).
 */
const TOUCH_MS = 20_000;
const WAIT_TOLD_MS = 3_000;
const SILENT_MS = FOREIGN_LOCK_STALE_MS;
const LEFT_MS = 60 * 60_000;

/** When this process first saw each commit lock as it is (its id; a touch changes it), by the monotonic clock. */
const firstSeen = new Map<string, number>();

/**
 * Whether this process has seen the lock unchanged for SILENT_MS: not its mtime against this clock, as another host's
 * clock or a file server's, minutes apart, took a live lock for a silent one (round 64 Z2). Or, as each process starts
 * its count anew, its mtime over an hour behind this clock: a job stopped after less than 10 minutes never got past a
 * lock a container killed in its commit had left (round 65 A4). A live holder wrongly taken for silent by clocks an hour
 * apart is refused, never mixed: it looks at the lock after its manifest is set aside, which the taker's look sees.
 */
function silent(seen: { id: string; mtimeMs: number }): boolean {
  const now = performance.now();
  const since = firstSeen.get(seen.id);
  if (since === undefined) {
    if (firstSeen.size >= 1_000) firstSeen.clear();
    firstSeen.set(seen.id, now);
  }
  return (since !== undefined && now - since > SILENT_MS) || Date.now() - seen.mtimeMs > LEFT_MS;
}

export interface CommitLock {
  /** Throws EXPORT_OUT_BUSY where the lock is no longer this run's (taken over as silent): nothing renamed yet; its temporary files, its own, go. */
  check: () => void;
  release: () => Promise<void>;
}

/**
 * Takes the account's commit lock in `exportsDir` (the state folder's exports folder), waiting while another run of
 * this account commits; a dead or silent holder's lock is taken over (locks.ts). A stop ends the wait with its reason,
 * nothing committed; a lock held past the wait is EXPORT_OUT_BUSY naming it.
 */
export async function takeCommitLock(exportsDir: string, signal?: AbortSignal, waitMs = COMMIT_WAIT_MS, waiting?: (line: string) => void): Promise<CommitLock> {
  const file = path.join(exportsDir, COMMIT_LOCK);
  const busy = new UsageError(t.commitBusy({ minutes: Math.round(waitMs / 60_000) }), t.commitBusyHint({ lock: file }), 'EXPORT_OUT_BUSY');
  const start = performance.now();
  const until = start + waitMs;
  // a wait of minutes without a word looked like a hang; told once, after the seconds a portfolio's commits take in turn
  let told = false;
  for (let pause = 10; ; pause = Math.min(250, pause * 2)) {
    if (signal?.aborted) throw signal.reason;
    try {
      const release = await takeLock(file, busy, { silent });
      const touch = setInterval(() => void (holdsLock(file) && utimes(file, new Date(), new Date()).catch(() => undefined)), touchMs());
      touch.unref();
      return {
        check: () => {
          if (!holdsLock(file)) throw new UsageError(t.commitTakenOver({ lock: file }), t.commitTakenOverHint, 'EXPORT_OUT_BUSY');
        },
        release: () => (clearInterval(touch), release()),
      };
    } catch (e) {
      if (e !== busy || performance.now() >= until) throw e;
      if (!told && waiting && performance.now() - start > WAIT_TOLD_MS) ((told = true), waiting(t.commitWait({ lock: file })));
    }
    await sleep(pause, undefined, signal ? { signal } : undefined).catch(() => undefined);
  }
}

/** TOUCH_MS, or for the tests METERDATA_TEST_LOCK_HEARTBEAT_MS (with METERDATA_TEST_HOOKS=1). */
const touchMs = () => testNumber(process.env, 'LOCK_HEARTBEAT_MS') ?? TOUCH_MS;
