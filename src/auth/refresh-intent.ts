// The refresh intent: written durably into the credential record before a refresh request
// leaves, removed when its outcome is saved. A process that finds one left behind knows a
// refresh may be in flight (its holder stalled past the stale limit and lost the lock) or
// may have reached the server (its holder died after sending), and never sends that
// refresh token blindly: the server revokes the whole connection when a rotated token is
// presented or two refreshes with one token run at once.
import os from 'node:os';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { processAlive } from '../core/pid.js';
import type { StoredRecord } from './credential-store/index.js';

/** An intent younger than this whose process still lives is taken as a refresh still in flight. */
export const IN_FLIGHT_MAX_MS = 10 * 60_000;

export type RefreshIntent = NonNullable<StoredRecord['refresh_intent']>;

export function intentOf(now = new Date()): RefreshIntent {
  return { at: now.toISOString(), pid: process.pid, host: os.hostname() };
}

/** Another process on this machine, still running, that started the refresh a short while ago. */
export function stillInFlight(intent: RefreshIntent, now = Date.now()): boolean {
  return intent.host === os.hostname() && intent.pid !== process.pid && now - Date.parse(intent.at) < IN_FLIGHT_MAX_MS && processAlive(intent.pid);
}

export function refreshInFlight(intent: RefreshIntent, relogin: string): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `Another meterdata process (pid ${intent.pid}) sent a refresh of this sign-in at ${intent.at} and has not saved its answer; sending the same refresh token again would end the connection, so this run does not.`,
    {
      code: 'AUTH_REFRESH_IN_FLIGHT',
      hint: `Run the command again once that process has finished (it may be suspended or stopped). If it was killed, the next run says whether you must sign in again: ${relogin}`,
    },
  );
}

/** The refresh token may have been rotated by a request whose answer nobody saved: exit 3. */
export function refreshUncertain(since: string, how: 'lost' | 'abandoned' | 'taken-over', relogin: string): NotSignedInError {
  const what = {
    lost: `An earlier refresh of this connection (${since}) got no answer`,
    abandoned: `An earlier refresh of this connection (${since}) was sent by a process that ended before saving its answer`,
    'taken-over': `This process stalled while starting a refresh (${since}) and another meterdata process took over meanwhile; the tokens that process may have saved could not be kept`,
  }[how];
  return new NotSignedInError(`${what}; the server may have replaced the refresh token, and sending the old one again would end the connection.`, {
    code: 'AUTH_REFRESH_UNCERTAIN',
    hint: relogin,
  });
}
