// Writing a refresh's outcome over its intent. Only ever over our own intent: if someone else
// wrote the record meanwhile (a new login, another process after taking the lock over), theirs
// stays, since overwriting it could throw away a working connection.
import type { CredentialStore, StoredRecord } from './credential-store/index.js';
import { withRefreshLock, type RefreshLock } from './lock.js';

export interface RecordPlace {
  store: CredentialStore;
  env: NodeJS.ProcessEnv;
  profile: string;
}

/**
 * Replaces the intent of `intended` with `outcome(stored record)`, under the refresh lock (still
 * `lock`, or taken again when it was lost or is not given), if the store still holds that intent.
 * Returns whether the store held it. A write that fails is not thrown: the intent stays, and the
 * next run that finds it never sends the token either; reading or locking failures are.
 */
export async function replaceIntent(
  place: RecordPlace,
  lock: RefreshLock | undefined,
  intended: StoredRecord,
  outcome: (now: StoredRecord) => StoredRecord,
): Promise<boolean> {
  const replace = async () => {
    const now = await place.store.read(place.profile);
    if (!now || now.refresh_token !== intended.refresh_token || now.refresh_intent?.at !== intended.refresh_intent?.at) return false;
    await place.store.write(place.profile, outcome(now)).catch(() => undefined);
    return true;
  };
  if (lock && (await lock.stillHeld())) return replace();
  return withRefreshLock(place.env, place.profile, replace);
}

/** The record without our intent, marked: the refresh token may have been rotated, so it is never sent again. */
export function markedUncertain(now: StoredRecord, since = new Date().toISOString()): StoredRecord {
  const { refresh_intent: _ours, ...rest } = now;
  return { ...rest, refresh_uncertain_since: since };
}
