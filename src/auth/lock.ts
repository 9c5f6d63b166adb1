// Serialises refreshes of one connection across processes (cron jobs, parallel exports).
// proper-lockfile takes an mkdir lock next to the file and refreshes its mtime while held;
// a lock not refreshed for `stale` ms (its holder died) is taken over.
import { constants as fsConstants, promises as fsp } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { dirs } from '../core/paths.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { diskError, diskRefusal } from '../core/disk.js';
import { ServiceUnavailableError, UsageError } from '../core/errors.js';
import { pathBlocker } from '../core/bounded-read.js';
import { fileTexts as ft } from '../core/texts.js';
import { testNumber } from './test-hooks.js';
import { tokenTexts as t } from './texts-tokens.js';

export const LOCK_STALE_MS = 20_000;

/** What the holder can ask about its lock while it works. */
export interface RefreshLock {
  /**
   * False when another process took the lock over as stale (this holder was stalled past the
   * stale limit: suspended, swapped out, a blocked event loop). Cheap while the lock is young.
   */
  stillHeld(): Promise<boolean>;
}

function timings(env: NodeJS.ProcessEnv): { stale: number; update: number } {
  // Tests shorten the stale limit (proper-lockfile's minimum is 2 s) to provoke a takeover.
  const stale = testNumber(env, 'LOCK_STALE_MS') ?? LOCK_STALE_MS;
  return { stale, update: Math.max(1000, Math.min(2000, Math.floor(stale / 2))) };
}

export function lockPathFor(env: NodeJS.ProcessEnv, profile: string): string {
  return path.join(dirs(env).state, 'locks', `${profile}.refresh`);
}

/**
 * Runs `fn` while holding the profile's refresh lock; waits up to ~60 s for another holder.
 * `signal` (Ctrl-C, SIGTERM) ends that wait at once: a run told to stop must not start a refresh
 * a minute later, where a kill that follows would lose its answer.
 */
export function withRefreshLock<T>(env: NodeJS.ProcessEnv, profile: string, fn: (lock: RefreshLock) => Promise<T>, signal?: AbortSignal): Promise<T> {
  return withLockAt(env, lockPathFor(env, profile), fn, signal);
}

/** As withRefreshLock, for the lock at `file` (proper-lockfile's `<file>.lock`). */
export async function withLockAt<T>(env: NodeJS.ProcessEnv, file: string, fn: (lock: RefreshLock) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const { stale, update } = timings(env);
  let compromised = false;
  const onCompromised = () => {
    // Another process took the lock over as stale (or removed it). The holder checks
    // this before sending a refresh and before persisting its answer (session.ts).
    compromised = true;
  };
  const release = await taken(file, { stale, update, onCompromised }, signal);
  const ours = await identity(file);
  let confirmedAt = Date.now();
  const lock: RefreshLock = {
    async stillHeld() {
      if (compromised) return false;
      // The lock folder made anew (taken over as stale, or removed and made again: round 48 F1) is another one. Where
      // the file system keeps birth times this is told at once, also for a young lock; else by an update cycle below.
      if (ours !== null) return sameLock(ours, await identity(file));
      // Nobody can see the lock as stale before `stale` ms after our last stamp.
      if (Date.now() - confirmedAt < stale / 2) return true;
      // Held a long time (or stalled): give proper-lockfile one update cycle to compare the
      // lock's mtime with its own stamp; a takeover shows up as `compromised`.
      await new Promise((r) => setTimeout(r, update + 100));
      confirmedAt = Date.now();
      return !compromised;
    },
  };
  try {
    return await fn(lock);
  } finally {
    await release().catch(() => undefined);
  }
}

interface LockIdentity {
  ino: number;
  birth: number;
}

/**
 * The lock folder's inode and birth time, null where the file system keeps no birth time (Linux then gives 0). A reused
 * inode is told apart by its birth, to the file system's clock tick (a few ms).
 */
async function identity(file: string): Promise<LockIdentity | null> {
  const st = await fsp.stat(`${file}.lock`).catch(() => null);
  return st && st.birthtimeMs > 0 ? { ino: st.ino, birth: st.birthtimeMs } : null;
}

const sameLock = (a: LockIdentity, b: LockIdentity | null): boolean => b !== null && a.ino === b.ino && a.birth === b.birth;

/** How long a lock held by another process is waited for (proper-lockfile's retries took about as long). */
const LOCK_WAIT_MS = 56_000;

/** Errors of withLockAt thrown before the lock was taken: nothing was done under it (spent-tokens' reclaim). */
const notTaken = new WeakSet<object>();
export const lockNotTaken = (e: unknown): e is object => typeof e === 'object' && e !== null && notTaken.has(e);

type Options = Pick<lockfile.LockOptions, 'stale' | 'update' | 'onCompromised'>;

/** The lock taken, or why not (marked notTaken; a stop as the signal's own reason). */
async function taken(file: string, options: Options, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  try {
    await checkPlace(file);
    return await acquire(file, options, signal);
  } catch (e) {
    if (e !== signal?.reason && typeof e === 'object' && e !== null) notTaken.add(e);
    throw e;
  }
}

/**
 * What withRefreshLock would refuse at once, checked ahead (login, before the browser step: round 45 F2), and whether
 * this user may make the lock there; a lock another process holds is no refusal.
 */
export async function checkLockPlace(env: NodeJS.ProcessEnv, profile: string): Promise<void> {
  const file = lockPathFor(env, profile);
  await checkPlace(file);
  await fsp.access(path.dirname(file), fsConstants.W_OK | fsConstants.X_OK).catch((e: unknown) => Promise.reject(unusable(file, e)));
}

/** The lock's folder made, and what is at the lock's place one a holder could have left. */
async function checkPlace(file: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 }).catch((e: unknown) => Promise.reject(unusable(file, e)));
  // proper-lockfile's lock is a folder: a file or link there (a hand edit, another tool) read as held, a minute's wait
  // blamed on another process, every run (round 27)
  const found = await fsp.lstat(`${file}.lock`).catch(() => undefined);
  if (found && !found.isDirectory())
    throw new ServiceUnavailableError(t.lockNotFolder({ file: `${file}.lock` }), {
      code: 'AUTH_LOCK_TIMEOUT',
      hint: t.lockNotFolderHint({ file: `${file}.lock` }),
    });
  // the lock is an empty folder: one holding anything is not a holder's, and a takeover cannot remove it (round 29: a
  // minute's wait, then blamed on another process)
  if (found && (await fsp.readdir(`${file}.lock`).catch(() => [])).length > 0)
    throw new ServiceUnavailableError(t.lockNotEmpty({ file: `${file}.lock` }), {
      code: 'AUTH_LOCK_TIMEOUT',
      hint: t.lockNotEmptyHint({ file: `${file}.lock` }),
    });
}

/**
 * The lock, waited for while another holder has it (ELOCKED) and only then. Any other failure is told at once as what
 * it is: a `locks` folder this user may not write waited a minute, then blamed another process (round 44 N5). The
 * abort's reason as soon as `signal` aborts; a lock taken after the abort is released at once.
 */
async function acquire(file: string, options: Options, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(500, pause * 1.2)) {
    if (signal?.aborted) throw signal.reason;
    const release = await lockfile.lock(file, { ...options, realpath: false, retries: 0 }).catch((e: unknown) => {
      const code = (e as { code?: unknown }).code;
      if (code !== 'ELOCKED') throw unusable(file, e);
      if (Date.now() >= until)
        throw new ServiceUnavailableError(t.lockTimeout, { code: 'AUTH_LOCK_TIMEOUT', hint: t.lockTimeoutHint({ file: `${file}.lock` }), cause: e });
      return null;
    });
    if (release && signal?.aborted) await release().catch(() => undefined);
    else if (release) return release;
    else await sleep(pause * (0.5 + Math.random()), undefined, { signal }).catch(() => undefined);
  }
}

const folderGone = new WeakSet<object>();
/** The lock not taken because its folder was removed meanwhile (by hand, a clean-up), not because anyone holds it. */
export const lockFolderGone = (e: unknown): boolean => typeof e === 'object' && e !== null && folderGone.has(e);

/** A lock that cannot be taken for a reason of its own: a file in its path or the disk's refusal as such, else named with its code. */
function unusable(file: string, e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  // mkdir says EEXIST where the folder to make is a file; a link to nowhere or in a circle: ENOENT, ELOOP (round 45 F6)
  const b = pathBlocker(`${file}.lock`, code);
  if (b !== null) return new UsageError(t.lockUnusable({ file: `${file}.lock`, reason: b.problem }), ft.fileInPathHint({ at: b.at }), 'CONFIG_INVALID');
  // its folder removed meanwhile (by hand, a clean-up): not made again while a holder may still run, whose lock went
  // with it (round 46 M1: two holders, a new refresh token lost)
  if (code === 'ENOENT') {
    const gone = new ServiceUnavailableError(t.lockFolderGone({ folder: path.dirname(file) }), {
      code: 'AUTH_LOCK_TIMEOUT',
      hint: t.lockFolderGoneHint,
      cause: e,
    });
    return (folderGone.add(gone), gone);
  }
  if (diskRefusal(e)) return diskError(e);
  return new ServiceUnavailableError(t.lockUnusable({ file: `${file}.lock`, reason: typeof code === 'string' ? code : String(e) }), {
    code: 'AUTH_LOCK_TIMEOUT',
    hint: t.lockTimeoutHint({ file: `${file}.lock` }),
    cause: e,
  });
}

/** Within one process: concurrent callers with the same key share one promise. */
export class SingleFlight<T> {
  private readonly inflight = new Map<string, Promise<T>>();

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const running = this.inflight.get(key);
    if (running) return running;
    const p = fn().finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }
}
