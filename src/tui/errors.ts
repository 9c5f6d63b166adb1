// Turns any failure of a load into what the screen says and whether `r` may help.
import { AccessWithdrawnError, MeterdataError, NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { isRateLimit } from '../core/codes.js';

export interface ErrorInfo {
  kind: 'signed-out' | 'access-withdrawn' | 'rate-limited' | 'unavailable' | 'other';
  title: string;
  message: string;
  hint?: string;
  retryable: boolean;
}

export function describeError(e: unknown): ErrorInfo {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof NotSignedInError) {
    return { kind: 'signed-out', title: 'Not signed in', message, hint: e.hint ?? 'Quit (q) and run: meterdata login', retryable: false };
  }
  if (e instanceof AccessWithdrawnError) {
    return {
      kind: 'access-withdrawn',
      title: 'Access withdrawn',
      message,
      hint: e.hint ?? 'The landlord no longer shares this data with meterdata; ask them to connect again (meterdata login).',
      retryable: false,
    };
  }
  if (e instanceof MeterdataError && isRateLimit(e.code)) {
    return { kind: 'rate-limited', title: 'Rate limited', message, hint: e.hint ?? 'Wait a minute, then press r.', retryable: true };
  }
  if (e instanceof ServiceUnavailableError) {
    return { kind: 'unavailable', title: 'Service unavailable', message, hint: e.hint ?? 'Try again later.', retryable: true };
  }
  if (e instanceof MeterdataError) {
    return { kind: 'other', title: 'Could not load', message, ...(e.hint ? { hint: e.hint } : {}), retryable: true };
  }
  return { kind: 'other', title: 'Unexpected failure (a bug: please report it)', message, retryable: true };
}
