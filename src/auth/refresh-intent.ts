// The refresh intent: written durably into the credential record before a refresh request
// leaves, removed when its outcome is saved. A process that finds one left behind knows a
// refresh may be in flight (its holder stalled past the stale limit and lost the lock) or
// may have reached the server (its holder died after sending), and never sends that
// refresh token blindly: the server revokes the whole connection when a rotated token is
// presented or two refreshes with one token run at once.
import os from 'node:os';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { PID_SPACE_TAG, processAlive } from '../core/pid.js';
import type { StoredRecord } from './credential-store/index.js';
import { tokenTexts as t } from './texts-tokens.js';

/** An intent younger than this whose process still lives is taken as a refresh still in flight. */
export const IN_FLIGHT_MAX_MS = 10 * 60_000;

/** How far ahead of this clock an intent may be dated and still count (clock steps of NTP). */
const CLOCK_SLACK_MS = 60_000;

export type RefreshIntent = NonNullable<StoredRecord['refresh_intent']>;

export function intentOf(now = new Date()): RefreshIntent {
  return { at: now.toISOString(), pid: process.pid, host: os.hostname(), ns: PID_SPACE_TAG };
}

/** Another process on this machine, still running, that started the refresh a short while ago. */
export function stillInFlight(intent: RefreshIntent, now = Date.now()): boolean {
  // An intent dated ahead of this clock (edited, or written before the clock went back) is not young:
  // taken as in flight it would refuse every run until that date.
  const age = now - Date.parse(intent.at);
  if (intent.host !== os.hostname() || !(age > -CLOCK_SLACK_MS && age < IN_FLIGHT_MAX_MS)) return false;
  // a claim or intent of another pid space (a container sharing the state folder and the hostname): its pid says nothing here, and
  // a young one may be on its way (round 60 V6: told "sign in again" while the other refresh went on)
  if (intent.ns !== undefined && intent.ns !== PID_SPACE_TAG) return true;
  return intent.pid !== process.pid && processAlive(intent.pid);
}

export function refreshInFlight(intent: RefreshIntent, relogin: string): ServiceUnavailableError {
  // a pid of another pid space names no process here (round 66 B3: told as "pid 1")
  const elsewhere = intent.ns !== undefined && intent.ns !== PID_SPACE_TAG;
  return new ServiceUnavailableError(t.inFlight({ pid: intent.pid, at: intent.at, elsewhere }), {
    code: 'AUTH_REFRESH_IN_FLIGHT',
    hint: t.inFlightHint({ relogin }),
  });
}

/** The refresh token may have been rotated by a request whose answer nobody saved: exit 3. */
export function refreshUncertain(since: string, how: 'lost' | 'abandoned' | 'taken-over', relogin: string): NotSignedInError {
  const message = { lost: t.uncertainLost, abandoned: t.uncertainAbandoned, 'taken-over': t.uncertainTakenOver }[how]({ since });
  return new NotSignedInError(message, { code: 'AUTH_REFRESH_UNCERTAIN', hint: relogin });
}
