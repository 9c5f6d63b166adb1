// The lock inside an --out folder. The state folder's lock (outLockFile) keeps apart the runs of
// one account; two accounts (a cron user and a clerk, two clerks on a file server) sharing an
// --out each have their own state folder, so without this both wrote into the folder and each
// removed the other's temporary files. Held besides the state folder's lock for the whole run.
import { mkdir, rmdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { holdsLock, takeLock, type LockHolder } from './locks.js';

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

/** Takes the lock inside `dir`, creating the folder if needed; `busy` makes the refusal, naming the holder. */
export async function lockInFolder(dir: string, busy: (holder: LockHolder) => Error): Promise<FolderLock> {
  const created = (await mkdir(dir, { recursive: true })) ?? null;
  const file = path.join(dir, FOLDER_LOCK);
  let release: () => Promise<void>;
  try {
    release = await takeLock(file, busy, { foreignStaleMs: FOREIGN_LOCK_STALE_MS });
  } catch (e) {
    await removeCreated(dir, created);
    throw e;
  }
  const beat = heartbeat(file);
  return {
    file,
    created,
    unlock: async () => {
      clearInterval(beat);
      await release();
      await removeCreated(dir, created);
    },
  };
}

/**
 * Touches the lock while it is still this process's; stops once it is gone or another's (a run
 * released it in another thread). Unref'd: it never keeps the process alive.
 */
function heartbeat(file: string): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (!holdsLock(file)) clearInterval(timer);
    else {
      const now = new Date();
      utimes(file, now, now).catch(() => clearInterval(timer));
    }
  }, HEARTBEAT_MS);
  timer.unref();
  return timer;
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
