// Turns any failure of a load into what the screen says and whether `r` may help.
// Classified by the error's class and stable code, never by the words of a message.
import { AccessWithdrawnError, MeterdataError, NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { isRateLimit } from '../core/codes.js';
import { periodText } from './format.js';
import { defaultRange, rangeLabel, type DateRange } from './range.js';
import { t } from './texts.js';

export interface ErrorInfo {
  kind: 'signed-out' | 'access-withdrawn' | 'rate-limited' | 'unavailable' | 'range-refused' | 'other';
  title: string;
  message: string;
  hint?: string;
  retryable: boolean;
}

/**
 * `range`: what the screen asked for. A range the service refuses is explained with it in
 * the browser's own words and keys: the service's detail is its own English, and the
 * export's hint names --year/--from/--to, which the browser does not have.
 */
export function describeError(e: unknown, range?: DateRange, now = new Date()): ErrorInfo {
  const message = e instanceof Error ? e.message : String(e);
  if (range && e instanceof MeterdataError && e.code === 'API_INVALID_RANGE') {
    const example = rangeLabel(defaultRange(now));
    return {
      kind: 'range-refused',
      title: t.rangeRefused,
      message: t.rangeRefusedText({ range: periodText(range) }),
      hint: t.rangeRefusedHint({ example }),
      retryable: false,
    };
  }
  if (e instanceof NotSignedInError) {
    return { kind: 'signed-out', title: t.signedOut, message, hint: e.hint ?? t.signedOutHint, retryable: false };
  }
  if (e instanceof AccessWithdrawnError) {
    return { kind: 'access-withdrawn', title: t.withdrawn, message, hint: e.hint ?? t.withdrawnHint, retryable: false };
  }
  // The codes of the service and the sign-in server refusing for now: marked in the one table.
  if (e instanceof MeterdataError && isRateLimit(e.code)) {
    return { kind: 'rate-limited', title: t.rateLimited, message, hint: e.hint ?? t.rateLimitedHint, retryable: true };
  }
  if (e instanceof ServiceUnavailableError) {
    return { kind: 'unavailable', title: t.unavailable, message, hint: e.hint ?? t.unavailableHint, retryable: true };
  }
  if (e instanceof MeterdataError) {
    return { kind: 'other', title: t.failed, message, ...(e.hint ? { hint: e.hint } : {}), retryable: true };
  }
  return { kind: 'other', title: t.bug, message, retryable: true };
}
