// Serialises refreshes of one connection across processes (cron jobs, parallel exports).
// proper-lockfile takes an mkdir lock next to the file and refreshes its mtime while held;
// a lock not refreshed for `stale` ms (its holder died) is taken over.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { dirs } from '../core/paths.js';
import { ServiceUnavailableError } from '../core/errors.js';
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
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
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
  const { stale, update } = timings(env);
  let compromised = false;
  let release: () => Promise<void>;
  try {
    release = await untilAborted(
      lockfile.lock(file, {
        realpath: false,
        stale,
        update,
        retries: { retries: 120, factor: 1.2, minTimeout: 20, maxTimeout: 500, randomize: true },
        onCompromised: () => {
          // Another process took the lock over as stale (or removed it). The holder checks
          // this before sending a refresh and before persisting its answer (session.ts).
          compromised = true;
        },
      }),
      signal,
    );
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new ServiceUnavailableError(t.lockTimeout, {
      code: 'AUTH_LOCK_TIMEOUT',
      hint: t.lockTimeoutHint({ file: `${file}.lock` }),
      cause: e,
    });
  }
  let confirmedAt = Date.now();
  const lock: RefreshLock = {
    async stillHeld() {
      if (compromised) return false;
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

/** The lock once taken, or the abort's reason; a lock taken after the abort is released at once. */
function untilAborted(locking: Promise<() => Promise<void>>, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  if (!signal) return locking;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      locking.then((release) => release()).catch(() => undefined);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    locking.then(
      (release) => (signal.removeEventListener('abort', onAbort), resolve(release)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
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
