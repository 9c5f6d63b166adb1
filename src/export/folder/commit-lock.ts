// One commit at a time per account: a run's last look for the other command's files (checkNotOtherCommand) and its
// renames into place happen under this lock in the account's state folder. An export into R/2025-10/sub and a uvi run
// into R hold no folder lock in common: each passed its look while the other had not committed yet, and with one paused
// between its look and its commit, both committed (round 60 V2). Under this lock the second to commit finds the
// first's manifest and is refused. Runs of two accounts keep their own state folders and are not kept apart here.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../../core/errors.js';
import { FOREIGN_LOCK_STALE_MS } from './folder-lock.js';
import { takeLock } from './locks.js';
import { outText as t } from './texts-folder.js';

export const COMMIT_LOCK = 'commit.lock';
/** A commit renames a run's files into place: seconds, even for a month of thousands of letters. Waited for this long. */
const COMMIT_WAIT_MS = 5 * 60_000;

/**
 * Takes the account's commit lock in `exportsDir` (the state folder's exports folder), waiting while another run of
 * this account commits; a dead holder's lock is taken over (locks.ts). A stop ends the wait with its reason, nothing
 * committed; a lock held past the wait is EXPORT_OUT_BUSY naming it.
 */
export async function takeCommitLock(exportsDir: string, signal?: AbortSignal, waitMs = COMMIT_WAIT_MS): Promise<() => Promise<void>> {
  const file = path.join(exportsDir, COMMIT_LOCK);
  const busy = new UsageError(t.commitBusy({ minutes: Math.round(waitMs / 60_000) }), t.commitBusyHint({ lock: file }), 'EXPORT_OUT_BUSY');
  const until = performance.now() + waitMs;
  for (let pause = 10; ; pause = Math.min(250, pause * 2)) {
    if (signal?.aborted) throw signal.reason;
    try {
      return await takeLock(file, busy, { foreignStaleMs: FOREIGN_LOCK_STALE_MS });
    } catch (e) {
      if (e !== busy || performance.now() >= until) throw e;
    }
    await sleep(pause, undefined, signal ? { signal } : undefined).catch(() => undefined);
  }
}
