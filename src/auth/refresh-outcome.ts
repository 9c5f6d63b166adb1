// Writing a refresh's outcome over its intent. Only ever over our own intent: if someone else
// wrote the record meanwhile (a new login, another process after taking the lock over), theirs
// stays, since overwriting it could throw away a working connection.
import type { CredentialStore, StoredRecord } from './credential-store/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { withRefreshLock, type RefreshLock } from './lock.js';
import { refreshUncertain } from './refresh-intent.js';
import { claimedError, claimedInFlight, giveBack, reclaim, RefreshTokenSpentError, spentBy, tokenHash, type ClaimState } from './spent-tokens.js';
import { readGate } from './claim-gate.js';
import { MeterdataError } from '../core/errors.js';
import type { Between429 } from './token-exchange.js';
import type { Session } from './session.js';

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
    if (now === null || !holdsIntent(now, intended)) return false;
    await place.store.write(place.profile, outcome(now)).catch(() => undefined);
    return true;
  };
  if (lock && (await lock.stillHeld())) return replace();
  return withRefreshLock(place.env, place.profile, replace);
}

/** Whether the store's record `now` still carries the intent of `intended` (its token and time): nobody wrote over it since. */
export const holdsIntent = (now: StoredRecord | null, intended: StoredRecord): boolean =>
  now !== null && now.refresh_token === intended.refresh_token && now.refresh_intent?.at === intended.refresh_intent?.at;

/** Whether the store still holds `rec` as it was read: its tokens, intent and marks (the keys in the store's order). */
export const sameRecord = (now: StoredRecord | null, rec: StoredRecord): boolean => now !== null && JSON.stringify(now) === JSON.stringify(rec);

/** The record without our intent, marked: the refresh token may have been rotated, so it is never sent again. */
export function markedUncertain(now: StoredRecord, since = new Date().toISOString()): StoredRecord {
  const { refresh_intent: _ours, ...rest } = now;
  return { ...rest, refresh_uncertain_since: since };
}

/**
 * Taken over while our intent was being written (a stall inside the write): the new holder cannot have refreshed with
 * our claimed token, but a new login may have saved its record, which our write then replaced and which cannot be told
 * from nothing: mark the record (sign in again), never run on the older connection (round 48 F2). Where the store no
 * longer holds our intent, someone wrote after it: that is used (LOCK_LOST_BEFORE_SENDING).
 */
export async function takenOverDuringIntent(place: RecordPlace, intended: StoredRecord, relogin: string): Promise<never> {
  const at = intended.refresh_intent!.at;
  const ours = await replaceIntent(place, undefined, intended, (now) => markedUncertain(now, at));
  throw ours ? refreshUncertain(at, 'taken-over', relogin) : LOCK_LOST_BEFORE_SENDING;
}

/**
 * Whether a refresh that failed with `e` before its token was sent is tried once more: taken over or written before
 * sending; or the token claimed by another process of this profile, on its way ('claimed': waited for with
 * storeChanged) or done, its tokens saved (round 48 F3: told to sign in again).
 */
export async function tryAgainAfter(e: unknown, last: boolean, place: RecordPlace, current: StoredRecord): Promise<'lock-lost' | 'claimed' | null> {
  if (e === LOCK_LOST_BEFORE_SENDING) return 'lock-lost';
  if (last) return null;
  if (e instanceof MeterdataError && e.code === 'AUTH_REFRESH_IN_FLIGHT') return 'claimed';
  const mine = e instanceof RefreshTokenSpentError && e.entry.profile === place.profile;
  return mine && !sameRecord(await place.store.read(place.profile), current) ? 'lock-lost' : null;
}

/** How long a refresh on its way in another process is waited for, its outcome looked for this often. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 100;

/**
 * Waits, bounded, until the store no longer holds `rec` (the other process saved its outcome), that process no longer
 * holds its claim on its way (ended, or gave it back), the wait is over, or the
 * run is stopped (round 48 F4: the retry came at once, and most runs beside one refresh ended with exit 5).
 */
export async function storeChanged(place: RecordPlace, rec: StoredRecord, signal?: AbortSignal): Promise<void> {
  for (let i = 0; i < CLAIM_WAIT_MS / CLAIM_POLL_MS && !signal?.aborted; i++) {
    const now = await place.store.read(place.profile).catch(() => null);
    if (!sameRecord(now, rec)) return;
    // its claimant ended without saving (killed) or gave the claim back: what the wait's end would find, found now (round 49 N6)
    if (!claimOnItsWay(place, rec)) return;
    await sleep(CLAIM_POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}

/** Whether `rec`'s refresh token is claimed by a process of this profile still running; an unreadable list: yes. */
function claimOnItsWay(place: RecordPlace, rec: StoredRecord): boolean {
  if (!rec.refresh_token) return false;
  try {
    // the gate first: a takeover's live claim is there while the list still names the claim it took over (round 54 P4)
    const claim = readGate(place.env, tokenHash(rec.refresh_token)) ?? spentBy(place.env, rec.refresh_token);
    return claim !== undefined && claimedInFlight(claim, place.profile);
  } catch {
    return true;
  }
}

/** Thrown before the token is sent (a 429's wait, the intent's write) when another process took the lock over or wrote the record meanwhile: we do not send. */
export const LOCK_LOST_BEFORE_SENDING = new Error('refresh lock taken over before the refresh was sent');

/**
 * A 429 turned the refresh token away unused: for the wait, the record goes back to what it was (`before`: no intent, this refresh not counted) and the
 * store-wide claim is released, so a kill during the wait (up to 30 s, three times) leaves a token the next run may
 * send, not one it must refuse as possibly rotated (round 26); both are written again before the next attempt, while
 * the lock is still ours (a holder that took it over meanwhile found no intent and refreshes itself: we never resend).
 * The record names the claim before it is given back: if the list's lock is held by a stuck process, the claim stays,
 * and the next run takes it over rather than refusing a token that was never used (round 27 F9).
 */
export function between429(
  place: RecordPlace,
  intended: StoredRecord,
  lock: RefreshLock,
  relogin: string,
  persist: (r: StoredRecord) => Promise<void>,
  before: StoredRecord,
): Between429 & { claim: ClaimState } {
  const at = intended.refresh_intent!.at;
  // an earlier run's claim turned away unused may be taken over (spent-tokens.ts claimRefreshToken)
  const claim: ClaimState = { takeOver: before.refresh_claim_unused };
  return {
    claim,
    refused: async () => {
      if (claim.id !== undefined) await persist({ ...before, refresh_claim_unused: claim.id });
      await giveBack(place.env, intended.refresh_token, at, claim.id);
      await persist(before); // given back: the record as it was
    },
    resend: async () => {
      if (!(await lock.stillHeld())) throw LOCK_LOST_BEFORE_SENDING;
      // claimed first, as sendOnce does: only the claim's winner writes the intent over the record
      const earlier = await reclaim(place.env, intended.refresh_token, place.profile, at, claim);
      if (earlier) throw claimedError(earlier, place.profile, relogin);
      await persist(intended);
    },
  };
}

/** Drops `rec`'s access token from the store (the refresh token stays: it is the latest), so the next command refreshes. */
export async function withdrawAccess(env: NodeJS.ProcessEnv, session: Pick<Session, 'profile' | 'store'>, rec: StoredRecord): Promise<void> {
  await withRefreshLock(env, session.profile.name, async () => {
    const now = await session.store.read(session.profile.name);
    if (!now || now.access_token !== rec.access_token) return;
    const { access_token: _dropped, ...kept } = now;
    await session.store.write(session.profile.name, { ...kept, access_expires_at: now.updated_at });
  });
}
