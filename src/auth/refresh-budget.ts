// How many refreshes one run may send. Each refresh rotates the refresh token (and each is a
// chance of an answer lost after sending, which costs a sign-in), so a server whose tokens
// are rejected right after issue, or expire within seconds, stops the run with a typed error
// instead of getting a token request before nearly every API request.
import { ServiceUnavailableError } from '../core/errors.js';
import type { StoredRecord } from './credential-store/types.js';
import { ts } from './texts-session.js';

/**
 * Refreshes after a rejected token allowed within REJECTED_WINDOW_MS. A token lives an hour,
 * so a healthy run needs one now and then; a server that rejects every token it just issued
 * would otherwise get a refresh (a token request and a /whoami) for every request of the run.
 */
export const MAX_REJECTED_REFRESHES = 5;
const REJECTED_WINDOW_MS = 10 * 60_000;

/**
 * Refreshes sent within a minute, for any reason. With the margin at half the lifetime a token
 * is refreshed every lifetime/2: lifetimes from 20 s on stay below this bound for ever, an hour's
 * token needs one an hour; shorter ones would rotate the refresh token every few seconds.
 */
export const MAX_REFRESHES_PER_MINUTE = 6;
const MINUTE_MS = 60_000;

const within = (times: number[], windowMs: number, now: number) => times.filter((t) => t > now - windowMs);

/**
 * Elapsed time, not the wall clock: a clock stepped back (NTP correcting a fast clock) kept past
 * refreshes inside the window for the step's length and refused a browse on 30 s tokens; one stepped
 * forward emptied it and let a burst through.
 */
const elapsed = () => performance.now();

export class RefreshBudget {
  private rejectedAt: number[] = [];
  private sentAt: number[] = [];

  constructor(private readonly statusCommand: string) {}

  /** A refresh because the API rejected the token just sent; throws past the bound. */
  rejected(now = elapsed()): void {
    this.rejectedAt = [...within(this.rejectedAt, REJECTED_WINDOW_MS, now), now];
    if (this.rejectedAt.length <= MAX_REJECTED_REFRESHES) return;
    throw new ServiceUnavailableError(ts.keptRejecting({ n: this.rejectedAt.length, minutes: REJECTED_WINDOW_MS / 60_000 }), {
      code: 'AUTH_TOKENS_REJECTED',
      hint: ts.keptRejectingHint({ status: this.statusCommand }),
    });
  }

  /**
   * A refresh of `rec` about to be sent, under the profile's refresh lock: counted in this run and in the record, which
   * every process refreshing the profile shares (round 27: K runs on one profile sent 6·K a minute). Returns the
   * record with this refresh counted; nothing is sent and nothing stored when this throws.
   */
  counting(rec: StoredRecord, wallNow = Date.now()): StoredRecord {
    const lifetimeMs = Date.parse(rec.access_expires_at ?? '') - Date.parse(rec.updated_at);
    this.sending(lifetimeMs);
    // The wall clock, as other processes share it; a time ahead of it (a clock stepped back) is dropped, not kept in.
    const times = Array.isArray(rec.refreshes_sent) ? rec.refreshes_sent.map((x) => (typeof x === 'string' ? Date.parse(x) : NaN)) : [];
    const recent = times.filter((t) => t > wallNow - MINUTE_MS && t <= wallNow + CLOCK_SLACK_MS);
    if (recent.length >= MAX_REFRESHES_PER_MINUTE) throw tooOften(ts.profileRefreshedTooOften, recent.length, lifetimeMs);
    const kept = [...recent.sort((a, b) => a - b), wallNow].slice(-MAX_REFRESHES_PER_MINUTE);
    return { ...rec, refreshes_sent: kept.map((t) => new Date(t).toISOString()) };
  }

  /** A refresh request about to be sent (nothing is sent and nothing stored when this throws). */
  sending(lifetimeMs: number, now = elapsed()): void {
    this.sentAt = within(this.sentAt, MINUTE_MS, now);
    if (this.sentAt.length >= MAX_REFRESHES_PER_MINUTE) throw tooOften(ts.refreshingTooOften, this.sentAt.length, lifetimeMs);
    this.sentAt.push(now);
  }
}

/** Times a little ahead of this clock (another process's, a few ms on) still count. */
const CLOCK_SLACK_MS = 5_000;

function tooOften(text: (p: { n: number; lifetime: string }) => string, n: number, lifetimeMs: number): ServiceUnavailableError {
  const seconds = Number.isFinite(lifetimeMs) ? Math.max(0, Math.round(lifetimeMs / 1000)) : undefined;
  return new ServiceUnavailableError(text({ n, lifetime: seconds === undefined ? '?' : String(seconds) }), {
    code: 'AUTH_REFRESH_TOO_OFTEN',
    hint: ts.refreshingTooOftenHint,
  });
}
