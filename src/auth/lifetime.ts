// How long an access token is used, and when it is refreshed. The contract issues tokens for
// an hour; a server that says otherwise is believed only within bounds: a lifetime too long
// for a date (1e13 s) would break the record after the server has rotated the refresh token,
// and a margin longer than the lifetime would refresh before every request.
import type { StoredRecord } from './credential-store/types.js';

/** Assumed when the answer names no `expires_in` (the contract's value). */
export const DEFAULT_LIFETIME_S = 3600;
/** Longer lifetimes are shortened to this: meterdata refreshes at least daily, and a 401 refreshes earlier anyway. */
export const MAX_LIFETIME_S = 86_400;
/** Shorter positive lifetimes are lengthened to this (a fraction of a second cannot be used). */
export const MIN_LIFETIME_S = 1;
/** Refresh when less than this is left, or less than half the token's lifetime if that is shorter. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * The lifetime to store for an answer's `expires_in`, in seconds, or a reason it cannot be used:
 * 0, a negative number or anything but a number breaks the contract (a token that expires as it
 * is issued would be refreshed before every request).
 */
export function lifetimeOf(expiresIn: unknown): number | { bad: string } {
  if (expiresIn === undefined) return DEFAULT_LIFETIME_S;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) return { bad: String(expiresIn) };
  return Math.min(MAX_LIFETIME_S, Math.max(MIN_LIFETIME_S, expiresIn));
}

/** The margin for this record: the smaller of 60 s and half its lifetime (issued at `updated_at`). */
export function refreshMarginMs(rec: Pick<StoredRecord, 'access_expires_at' | 'updated_at'>): number {
  const lifetime = Date.parse(rec.access_expires_at ?? '') - Date.parse(rec.updated_at ?? '');
  return Number.isFinite(lifetime) && lifetime > 0 ? Math.min(REFRESH_MARGIN_MS, lifetime / 2) : REFRESH_MARGIN_MS;
}

/** The access token can be sent: it has more than its refresh margin left. */
export function usable(rec: StoredRecord, now: number): boolean {
  return !!rec.access_token && !!rec.access_expires_at && Date.parse(rec.access_expires_at) - now > refreshMarginMs(rec);
}
