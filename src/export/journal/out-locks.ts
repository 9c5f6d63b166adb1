// The locks of a run's --out folders: one in this account's state folder, one inside the folder
// itself (folder-lock.ts), and for a uvi run its root's as well. Held by the journal (journal.ts).
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PID_SPACE } from '../../core/pid.js';
import { isMeterdataError, type MeterdataError, UsageError } from '../../core/errors.js';
import { checkWritable, FOLDER_LOCK, lockInFolder, outLockFile, outLockKey, takeLock, type LockLoss } from '../folder/index.js';
import { runText as t } from '../texts-run.js';

/** A lock inside an --out folder, as another thread releases it. */
export interface InsideLock {
  dir: string;
  file: string;
  created: string | null;
}

export interface OutLocks {
  out: string;
  root: string | null;
  inside: InsideLock[];
}

/** The EXPORT_OUT_TAKEN_OVER a run's `signal` was aborted with (its folder's or a portfolio's root's heartbeat), else null. */
export function takenOverReason(signal: AbortSignal | undefined): MeterdataError | null {
  const reason: unknown = signal?.aborted ? signal.reason : null;
  return isMeterdataError(reason) && reason.code === 'EXPORT_OUT_TAKEN_OVER' ? reason : null;
}

/** EXPORT_OUT_TAKEN_OVER for the folder `dir`: its lock names another run, or (`deleted`) is gone while the run was live. */
export function takenOver(dir: string, how: LockLoss = 'replaced'): UsageError {
  if (how === 'deleted')
    return new UsageError(t.outLockDeleted({ out: dir, lock: path.join(dir, FOLDER_LOCK) }), t.outLockDeletedHint, 'EXPORT_OUT_TAKEN_OVER');
  return new UsageError(t.outTakenOver({ out: dir }), t.outTakenOverHint, 'EXPORT_OUT_TAKEN_OVER');
}

/**
 * The --out folder's lock, and for a uvi run (whose folder is <root>/<month>) its root's as well:
 * an export into the root and the monthly information into a month folder of it would each pass
 * their check of the other at start and then both commit, mixing the folder. Holding the root
 * for the run makes them exclusive, and so two months into one root run one after the other.
 */
export async function lockFolders(
  stateDir: string,
  out: string,
  root: string,
  onTakenOver?: (e: UsageError) => void,
): Promise<{ unlock: () => Promise<void>; files: OutLocks }> {
  const own = await lockOutFolder(stateDir, out, onTakenOver);
  if (root === out) return { unlock: own.unlock, files: { out: own.file, root: null, inside: [own.inside] } };
  const rootLock = await lockOutFolder(stateDir, root, onTakenOver).catch(async (e: unknown) => {
    await own.unlock();
    throw e;
  });
  return { unlock: () => rootLock.unlock().finally(own.unlock), files: { out: own.file, root: rootLock.file, inside: [rootLock.inside, own.inside] } };
}

/**
 * The locks a run into `folder` holds while it runs (EXPORT_OUT_BUSY while another holds one): a
 * single run's of its --out, and a portfolio's of its --out root for the whole run. One in this
 * account's state folder, one inside the folder itself for runs of other accounts (folder-lock.ts).
 */
export async function lockOutFolder(
  stateDir: string,
  folder: string,
  onTakenOver?: (e: UsageError) => void,
): Promise<{ file: string; inside: InsideLock; unlock: () => Promise<void> }> {
  const file = await outLockFile(stateDir, folder);
  const unlockState = await takeLock(
    file,
    () => new UsageError(t.outBusy({ out: otherSpelling(folder) ?? folder }), t.outBusyHint({ lock: file }), 'EXPORT_OUT_BUSY'),
  );
  try {
    await checkWritable(folder); // the lock inside creates the folder: one that cannot be written is named as such
    const inside = await lockInFolder(
      folder,
      (holder) => {
        const lock = path.join(folder, FOLDER_LOCK);
        // a container's of this host's name, or one from before a restart: its pid is none of this one's (round 67 F7)
        const elsewhere = holder !== null && holder.host === os.hostname() && holder.ns !== undefined && holder.ns !== PID_SPACE;
        const hint = holder ? t.outBusyHolderHint({ lock, pid: holder.pid, host: holder.host, elsewhere }) : t.outBusyHint({ lock });
        return new UsageError(t.outBusy({ out: folder }), hint, 'EXPORT_OUT_BUSY');
      },
      onTakenOver && ((how) => onTakenOver(takenOver(folder, how))),
    );
    return { file, inside: { dir: folder, file: inside.file, created: inside.created }, unlock: () => inside.unlock().finally(unlockState) };
  } catch (e) {
    await unlockState();
    throw e;
  }
}

/**
 * The folder another run writes to when the state lock, keyed case-blind, is held: the folders of `folder`'s name in
 * any spelling (`--out CaseA` while this run asks for `casea`: round 34b named `casea`, which did not exist; round 37b:
 * nor was it the one written to where both existed). One such folder: that one; several: all, as the lock cannot say
 * which; none (its run has not made it yet): `folder` itself. A file of that name is no run's folder (round 36b F4).
 */
function otherSpelling(folder: string): string | null {
  const parent = path.dirname(folder);
  const name = path.basename(folder);
  try {
    const same = readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory() && outLockKey(e.name) === outLockKey(name));
    return same.length === 0 ? null : same.map((e) => path.join(parent, e.name)).join(t.orWord);
  } catch {
    return null;
  }
}
