// A DPoP proof carries this computer's time (`iat`), which the service accepts within 60 s of
// its own (contract, "DPoP"). A proof refused while this clock is that far off the service's
// `Date` header is the clock's fault, not the sign-in's: after setting the clock right, the
// same connection works, so the person is told to fix the clock and never to sign in again.
import { ServiceUnavailableError } from './errors.js';
import { clockTexts as t } from './texts-clock.js';

/** The contract's DPoP `iat` tolerance. */
export const DPOP_IAT_TOLERANCE_S = 60;
/** The `Date` header has whole seconds and the answer took some time to arrive: a little less than the tolerance counts. */
const SKEW_MS = (DPOP_IAT_TOLERANCE_S - 5) * 1000;

/** True when `date` (an answer's Date header) tells the service's time; without it a refused proof may still be the clock's fault. */
export function clockKnown(date: string | null): boolean {
  return Number.isFinite(date ? Date.parse(date) : NaN);
}

/**
 * The hint for a proof refused while this clock is within the tolerance (`date` usable) or cannot be compared
 * (`date` missing or unreadable, e.g. dropped by a gateway): only in the first case is signing in again the fix.
 */
export function dpopRefusedHint(date: string | null, login: string): string {
  return clockKnown(date) ? t.clockRightHint({ login }) : t.clockUnknownHint({ login, tolerance: DPOP_IAT_TOLERANCE_S });
}

/** The error for a refused proof when `date` (the answer's Date header) is too far from `now`; undefined otherwise. */
export function clockSkewError(date: string | null, now = Date.now()): ServiceUnavailableError | undefined {
  const server = date ? Date.parse(date) : NaN;
  if (!Number.isFinite(server) || Math.abs(now - server) < SKEW_MS) return undefined;
  const s = Math.round(Math.abs(now - server) / 1000);
  // Rounded to the unit a person reads.
  const off = s < 120 ? t.seconds({ n: s }) : s < 7200 ? t.minutes({ n: Math.round(s / 60) }) : t.hours({ n: Math.round(s / 3600) });
  const message = (now > server ? t.ahead : t.behind)({ off, tolerance: DPOP_IAT_TOLERANCE_S });
  return new ServiceUnavailableError(message, { code: 'AUTH_CLOCK_SKEW', hint: t.skewedHint });
}
