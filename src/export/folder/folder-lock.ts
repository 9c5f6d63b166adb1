// The lock inside an --out folder. The state folder's lock (outLockFile) keeps apart the runs of
// one account; two accounts (a cron user and a clerk, two clerks on a file server) sharing an
// --out each have their own state folder, so without this both wrote into the folder and each
// removed the other's temporary files. Held besides the state folder's lock for the whole run.
import { mkdir, rmdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { testNumber } from '../../auth/test-hooks.js';
import { holdsLock, lockGone, look, takeLock, type LockHolder } from './locks.js';

/** The lock's name in the folder: hidden, ours (never a leftover to remove, never a file of another export). */
export const FOLDER_LOCK = '.meterdata-lock';

/** A holder on another host can only be judged by its silence: it touches its lock this often while it runs, */
const HEARTBEAT_MS = 60_000;
/**
 * and one not touched for this long (ten missed touches: a crashed or switched-off machine) is taken over. A run
 * only paused that long (a closed laptop, a suspended VM) finds on waking that the lock is no longer its own:
 * it commits nothing (Journal.checkHeld before the commit) and leaves the new holder's lock alone (releaseLock).
 */
export const FOREIGN_LOCK_STALE_MS = 10 * 60_000;

export interface FolderLock {
  file: string;
  /** The outermost folder the lock created (the --out did not exist), removed again at the end when left empty. */
  created: string | null;
  unlock: () => Promise<void>;
}

/** Takes the lock inside `dir`, creating the folder if needed; `busy` makes the refusal, naming the holder; `onTakenOver`: see keepTouching. */
export async function lockInFolder(dir: string, busy: (holder: LockHolder) => Error, onTakenOver?: (how: LockLoss) => void): Promise<FolderLock> {
  const created = (await mkdir(dir, { recursive: true })) ?? null;
  const file = path.join(dir, FOLDER_LOCK);
  let release: () => Promise<void>;
  try {
    release = await takeLock(file, busy, { foreignStaleMs: FOREIGN_LOCK_STALE_MS });
  } catch (e) {
    await removeCreated(dir, created);
    throw e;
  }
  keepTouching(file, onTakenOver);
  return {
    file,
    created,
    unlock: async () => {
      stopTouching(file);
      await release();
      await removeCreated(dir, created);
    },
  };
}

/** How a run lost its folder's lock: another run's record in its place, or no lock at all. */
export type LockLoss = 'replaced' | 'deleted';

/** The folder locks this thread touches. A worker's timers end with it: the thread a run hands its locks to takes the touching over. */
const touching = new Map<string, NodeJS.Timeout>();

/**
 * Touches the lock `file` every HEARTBEAT_MS while it is this process's, from this thread until
 * stopTouching (a lock already touched here is left as it is). A touch that fails (EIO, ESTALE: a
 * network share's hiccup) is tried again at the next beat: stopping for good left the lock silent
 * until another host took the live run over. `onTakenOver` is called once the lock names another
 * run or is gone (deleted by someone who followed the busy hint on another host, who may start a
 * run there now): a run that goes on would write its temporary files under the new holder's names.
 * The run's own release stops the touching before it removes the lock (same thread, synchronously),
 * so it is never reported. Unref'd: it never keeps the process alive.
 */
export function keepTouching(file: string, onTakenOver?: (how: LockLoss) => void): void {
  if (touching.has(file)) return;
  const timer = setInterval(() => {
    if (holdsLock(file)) {
      const now = new Date();
      utimes(file, now, now).catch(() => undefined);
    } else if (look(file) !== null) {
      stopTouching(file);
      onTakenOver?.('replaced');
    } else if (lockGone(file)) {
      stopTouching(file);
      onTakenOver?.('deleted');
    } // else unreadable just now: the next beat looks again
  }, heartbeatMs());
  timer.unref();
  touching.set(file, timer);
}

/** Ends this thread's touching of `file` (the run released it, or hands it to another thread). */
export function stopTouching(file: string): void {
  clearInterval(touching.get(file));
  touching.delete(file);
}

/** HEARTBEAT_MS, or for the tests that scale time METERDATA_TEST_LOCK_HEARTBEAT_MS (with METERDATA_TEST_HOOKS=1). */
function heartbeatMs(): number {
  return testNumber(process.env, 'LOCK_HEARTBEAT_MS') ?? HEARTBEAT_MS;
}

/** Removes the folders from `dir` up to `created` that are empty (a run refused or failed before writing); never a folder with content. */
export async function removeCreated(dir: string, created: string | null): Promise<void> {
  if (created === null) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (
      !(await rmdir(d).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (d === path.resolve(created) || path.dirname(d) === d) return;
  }
}
