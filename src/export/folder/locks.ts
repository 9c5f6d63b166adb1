// The export's lock files: the journal's (one export per arguments) and the --out folder's
// (one export per folder). One holder at a time; the lock of a holder that is gone is taken
// over by exactly one of the processes that find it, however many find it at once.
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { link, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readBounded } from '../../core/bounded-read.js';
import { located } from '../../core/disk.js';
import { isMeterdataError, UsageError } from '../../core/errors.js';
import { PID_SPACE, processAlive } from '../../core/pid.js';
import { runOwner } from '../../core/run-owner.js';
import { readLockHolder } from '../journal/index.js';
import { lstatQuiet, removeLeft } from './planted.js';
import { outText as t } from './texts-folder.js';

/** A lock file that cannot be read as ours is taken over once it is this old. */
export const LOCK_DAMAGED_STALE_MS = 30_000;

/**
 * When this process started (ms since the epoch; the same in every thread). A lock naming
 * our own pid but another start was left by an earlier process that had the same pid: in
 * a container every cron run may be pid 7, and a killed one must not block the next forever.
 */
const PROCESS_STARTED = Math.round(Date.now() - process.uptime() * 1000);

/** What a lock this process holds says: its pid, host and start, and its mark (run-owner.ts). */
export function ownRecord(): string {
  return JSON.stringify({ pid: process.pid, host: os.hostname(), started: PROCESS_STARTED, owner: runOwner(), ns: PID_SPACE });
}

/**
 * Whether the lock `file` still names this process. Its record is parsed rather than compared as
 * text: another thread of the process (the one that commits) computes PROCESS_STARTED anew and
 * may round it a millisecond apart.
 */
export function holdsLock(file: string): boolean {
  const seen = look(file);
  const holder = seen && readLockHolder(seen.text);
  if (!holder || holder.pid !== process.pid) return false;
  // by its mark where it has one: the host's name may have changed since (run-owner.ts)
  if (holder.owner !== undefined) return holder.owner === runOwner();
  return holder.host === os.hostname() && alive(holder.pid, holder.started);
}

/**
 * Removes the lock `file` only while it is still this process's. A run suspended (a closed laptop,
 * a paused VM) past the 10-minute rule of another host finds its folder's lock taken over; removing
 * it regardless let a third run start beside the new holder. Read, compare, remove is not one
 * step, but a lock this process holds is taken over only once it was silent for minutes, never in
 * the microseconds between the read and the removal of a process that runs.
 */
export async function releaseLock(file: string): Promise<void> {
  if (holdsLock(file)) await rm(file, { force: true });
}

function alive(pid: number, started: unknown): boolean {
  if (pid === process.pid) return typeof started !== 'number' || Math.abs(started - PROCESS_STARTED) < 2_000;
  return processAlive(pid);
}

/**
 * Puts the written-aside lock `mine` into place as `file`, failing with EEXIST when a lock is
 * there. A hard link makes it appear with its content in one step; where the file system has no
 * hard links (FAT32 and exFAT drives, some network shares on Windows: EPERM, ENOTSUP, ENOSYS)
 * an exclusive create is the fallback. There a kill between create and write can leave an empty
 * lock, which the damaged-lock rule takes over once it is old.
 */
export async function placeLock(mine: string, file: string, linkFn: (from: string, to: string) => Promise<void> = link): Promise<void> {
  try {
    await linkFn(mine, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    await writeFile(file, await readFile(mine), { flag: 'wx' });
  }
}

/** One lock file as seen once: what it holds and which file it is. */
interface Seen {
  text: string;
  /** Device, inode, change time and content: a lock placed after this one was removed differs. */
  id: string;
  mtimeMs: number;
  /** Not a file: a folder put there is not meterdata's to remove (round 26: EISDIR, "a bug", on every run). */
  folder: boolean;
}

/** The lock file now, read through one descriptor (null: gone); a FIFO or a device there reads as damaged, never waited on. */
export function look(file: string): Seen | null {
  try {
    const read = readBounded(file, 4096);
    const text = read.ok ? read.bytes.toString('utf8') : '';
    const { dev, ino, ctimeMs, mtimeMs } = read.stat;
    const folder = read.stat.isDirectory();
    return { text, mtimeMs, folder, id: createHash('sha256').update(`${dev}:${ino}:${ctimeMs}:${text}`).digest('hex').slice(0, 16) };
  } catch {
    // there but unreadable (a dangling link, another user's file): a damaged lock, judged by its own age, not a run that
    // writes for ever (round 27); gone between our attempt and this look: null
    const st = lstatQuiet(file);
    if (!st) return null;
    return {
      text: '',
      mtimeMs: st.mtimeMs,
      folder: st.isDirectory(),
      id: createHash('sha256').update(`${st.dev}:${st.ino}:${st.ctimeMs}:`).digest('hex').slice(0, 16),
    };
  }
}

/** Whether `file` is no longer there (not merely unreadable for a moment). */
export function lockGone(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Who holds a lock, as its file names them (null: damaged). */
export type LockHolder = { pid: number; host: string; ns?: string | undefined } | null;

export interface LockOptions {
  /** A lock of another host is taken over once it has not been touched for this long (undefined: never). */
  foreignStaleMs?: number;
  /** Whether the lock seen is silent, taken over whoever it names (commit-lock.ts: its pid may be another's now). */
  silent?: (seen: { id: string; mtimeMs: number }) => boolean;
}

/** Whether the holder is gone: a dead process on this host, a silent one of another (opts), or a damaged file left long ago. */
function stale(seen: Seen, opts: LockOptions): boolean {
  if (seen.folder) return false; // told as a damaged lock to remove, never removed here
  const holder = readLockHolder(seen.text);
  if (!holder) return Date.now() - seen.mtimeMs > LOCK_DAMAGED_STALE_MS;
  // silent for long, whoever it names: a live holder touches it; this process's own too, left where its removal failed
  if (opts.silent?.(seen)) return true;
  // this process's own mark: held, whatever the host is called now
  if (holder.owner !== undefined && holder.owner === runOwner()) return false;
  // a touched lock of another pid space (a container sharing the state folder and the hostname): its pid says nothing
  // here (round 63 Y6: each took the other's live commit lock for a dead one's); judged by its silence alone
  if (opts.silent !== undefined && holder.ns !== undefined && holder.ns !== PID_SPACE) return false;
  // another host's, even with this pid (every container's node is pid 1): only its silence tells it is gone
  if (holder.host !== os.hostname()) return opts.foreignStaleMs !== undefined && Date.now() - seen.mtimeMs > opts.foreignStaleMs;
  // this host, this pid, another mark: an earlier process whose pid this one now has (a restarted container)
  if (holder.pid === process.pid && holder.owner !== undefined) return true;
  return !alive(holder.pid, holder.started);
}

/**
 * Takes the lock `file`, or throws `busy`. The file names its holder; a lock left by a process
 * that no longer runs on this host (a killed export) is taken over, so a resume right after a
 * kill works. The file appears with its content in one step (written aside, then hard-linked
 * into place), so a kill never leaves an empty lock behind; a damaged one (another tool, a full
 * disk) is taken over once it is older than LOCK_DAMAGED_STALE_MS.
 */
export async function takeLock(file: string, busy: Error | ((holder: LockHolder) => Error), opts: LockOptions = {}): Promise<() => Promise<void>> {
  const refuse = (seen: Seen | null) => {
    const told = typeof busy === 'function' ? busy(seen && readLockHolder(seen.text)) : busy;
    return seen?.folder ? lockIsFolder(file, told) : told;
  };
  await mkdir(path.dirname(file), { recursive: true });
  // unique, so two takers in one process (and a pid another container reuses) never share it; named
  // with the process's mark, so a later process of the same pid (a container's pid 1) knows one a
  // killed run left behind (atomic.ts isLeftover)
  const mine = `${file}.${runOwner()}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(mine, ownRecord()).catch((e: unknown) => Promise.reject(located(e, mine)));
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await placeLock(mine, file);
        await sweepClaims(file, opts);
        return () => releaseLock(file);
      } catch (e) {
        // our record gone before its link: another host's run, tidying its folder, took it for a leftover (atomic.ts isLeftover)
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && lockGone(mine)) {
          await writeFile(mine, ownRecord()).catch((err: unknown) => Promise.reject(located(err, mine)));
          continue;
        }
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const seen = look(file);
      const removed = seen !== null && stale(seen, opts) && (await removeStale(file, seen, mine, 0, opts).catch(folderAtClaim(refuse(seen))));
      if (seen !== null && !removed) throw refuse(seen);
    }
    throw refuse(look(file));
  } finally {
    await rm(mine, { force: true });
  }
}

/**
 * The claims (removeStale) of runs that died while removing a dead holder's lock: the lock they named is gone, so no
 * later removal looks at them again, and one stayed in the output folder for good (a uvi run killed then). Those whose
 * claimant is gone, judged as a lock is, and any a minute old (round 58 T4: a dead claimant's pid used again by a live
 * process kept it): while this run holds the lock, a claim naming another lock stands against nothing, its removal
 * looks at the lock's id first. Never one naming this run's own lock.
 */
async function sweepClaims(file: string, opts: LockOptions): Promise<void> {
  const prefix = `${path.basename(file)}.`;
  const ours = `${prefix}${look(file)?.id ?? ''}.`;
  const names = await readdir(path.dirname(file)).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(prefix) && n.endsWith('.claim') && !n.startsWith(ours))) {
    const claim = path.join(path.dirname(file), name);
    const seen = look(claim);
    if (seen !== null && (stale(seen, opts) || Date.now() - seen.mtimeMs > 60_000)) await rm(claim, { force: true }).catch(() => undefined);
  }
}

/** A folder found where the removal of a dead holder's lock is claimed (round 27). */
class FolderAtLock extends Error {
  constructor(readonly at: string) {
    super(`folder at ${at}`);
  }
}

const folderAtClaim = (busy: Error) => (e: unknown) => Promise.reject(e instanceof FolderAtLock ? lockIsFolder(e.at, busy) : e);

/**
 * A folder where a lock file goes is nobody's lock: "another run is writing" would send the user to wait for a run
 * that does not exist. Named as the folder it is, with the busy refusal's code (round 26: it was EISDIR, "a bug").
 */
function lockIsFolder(file: string, busy: Error): UsageError {
  return new UsageError(t.lockIsFolder({ lock: file }), t.lockIsFolderHint({ lock: file }), isMeterdataError(busy) ? busy.code : 'EXPORT_OUT_BUSY');
}

/**
 * Removes the lock `seen` if it is still that lock, as the only process doing so. Removing it
 * at once would let two processes that found the same dead holder both win: the second would
 * remove the lock the first had just placed. So the removal is claimed first, with a file named
 * after that very lock and created exclusively: one claimant removes it (the others are told
 * busy, or find the claim gone and the lock replaced), and none removes a lock placed meanwhile.
 * A claim whose own holder died is stale in turn and is claimed the same way (bounded depth).
 */
async function removeStale(file: string, seen: Seen, mine: string, depth: number, opts: LockOptions): Promise<boolean> {
  if (depth > 3) return false;
  const claim = `${file}.${seen.id}.claim`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await placeLock(mine, claim);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const other = look(claim);
      // a folder planted at the claim would leave the dead holder's lock for ever, told as a run that is writing
      if (other?.folder) throw new FolderAtLock(claim);
      if (other !== null && !(stale(other, opts) && (await removeStale(claim, other, mine, depth + 1, opts)))) return false;
      continue;
    }
    try {
      if (look(file)?.id === seen.id) await removeLeft(file);
      return true;
    } finally {
      await rm(claim, { force: true });
    }
  }
  return false;
}

/**
 * One export writes into a folder at a time, whatever its arguments: the journal's own
 * lock is per arguments, so two exports with different arguments into one --out would
 * otherwise delete each other's temporary files and leave files that disagree with the
 * manifest. Keyed on the folder's real path, so a symlink or "./x" vs "x" is one folder, with
 * its case always folded (outLockKey): whether a file system ignores case cannot be told of an
 * empty folder (a fresh FAT stick, an SMB share), and guessing "keeps case" there gave "Out" and
 * "out" two locks for one folder. On a case-keeping file system two folders whose names differ
 * only in case share a lock: the second export is told busy, never two share a folder.
 */
export async function outLockFile(stateDir: string, out: string): Promise<string> {
  const real = await realOut(out);
  return path.join(stateDir, 'exports', `out-${createHash('sha256').update(outLockKey(real)).digest('hex').slice(0, 32)}.lock`);
}

/**
 * The path the --out lock is keyed on: case folded through upper then lower case so that
 * letters with two lower forms (σ, ς) meet, and NFC so that macOS's decomposed names meet the
 * composed ones.
 */
export function outLockKey(real: string): string {
  return real.normalize('NFC').toUpperCase().toLowerCase();
}

/** The real path of `out`, or of its nearest existing ancestor joined with the rest. */
async function realOut(out: string): Promise<string> {
  const rest: string[] = [];
  let dir = path.resolve(out);
  for (;;) {
    try {
      return path.join(await realpath(dir), ...rest);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return path.resolve(out);
      rest.unshift(path.basename(dir));
      dir = up;
    }
  }
}
