// Serialises refreshes of one connection across processes (cron jobs, parallel exports).
// proper-lockfile takes an mkdir lock next to the file and refreshes its mtime while held;
// a lock not refreshed for `stale` ms (its holder died) is taken over.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { dirs } from '../core/paths.js';
import { ServiceUnavailableError } from '../core/errors.js';

export const LOCK_STALE_MS = 20_000;

export function lockPathFor(env: NodeJS.ProcessEnv, profile: string): string {
  return path.join(dirs(env).state, 'locks', `${profile}.refresh`);
}

/** Runs `fn` while holding the profile's refresh lock; waits up to ~60 s for another holder. */
export async function withRefreshLock<T>(env: NodeJS.ProcessEnv, profile: string, fn: () => Promise<T>): Promise<T> {
  const file = lockPathFor(env, profile);
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: LOCK_STALE_MS,
      update: 2_000,
      retries: { retries: 120, factor: 1.2, minTimeout: 20, maxTimeout: 500, randomize: true },
      onCompromised: () => {
        // Another process took the lock over as stale: our write, if any, is still atomic.
      },
    });
  } catch (e) {
    throw new ServiceUnavailableError('Another meterdata process has been refreshing this sign-in for too long.', {
      code: 'AUTH_LOCK_TIMEOUT',
      hint: `Try again in a minute; if it persists, remove ${file}.lock.`,
      cause: e,
    });
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
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
