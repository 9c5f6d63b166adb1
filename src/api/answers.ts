// Answers that are well-formed but cannot be the answer to the request: another object
// than the one in the path, or an echoed range the range rules (spec "Range and reading
// rules" 1-2) cannot produce from the requested one. Billing such an answer would put
// another unit's or another period's consumption on a bill, so the run stops (exit 5)
// and nothing is committed.
import { ServiceUnavailableError } from '../core/errors.js';
import type { RangeQuery } from './contracts.js';

const HINT = 'Nothing was billed from this answer and no files were committed. Try again later; if it persists, report it to the metering service (its answer does not match the request).';

/**
 * How far this computer's clock may lag the service's before a month the service calls
 * completed looks unfinished here: time zones (up to 14 h) plus ordinary clock drift.
 */
export const CLOCK_ALLOWANCE_MS = 2 * 24 * 3600 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function parts(date: string): { y: number; m: number; d: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

export function monthStart(date: string): string {
  const { y, m } = parts(date);
  return `${y}-${pad(m)}-01`;
}

export function monthEnd(date: string): string {
  const { y, m } = parts(date);
  return `${y}-${pad(m)}-${pad(lastDay(y, m))}`;
}

/** The last day of the last month that has ended at `now` (UTC). */
export function lastCompletedMonthEnd(now: Date): string {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return end.toISOString().slice(0, 10);
}

/**
 * The range the service may answer for: widened to whole months, `to` capped at the last
 * completed month. `to` is the latest end it may echo; any earlier month end from `from`
 * on is a legitimate cap too (the service's clock, a sandbox horizon).
 */
export function contractRange(requested: RangeQuery, now: Date): RangeQuery {
  const from = monthStart(requested.from);
  const wanted = monthEnd(requested.to);
  const latest = lastCompletedMonthEnd(new Date(now.getTime() + CLOCK_ALLOWANCE_MS));
  return { from, to: wanted < latest ? wanted : latest };
}

/** The answer is about the object the path names (UUIDs compare case-insensitively). */
export function checkSubject(endpoint: string, kind: string, field: string, requested: string, received: string): void {
  if (received.toLowerCase() === requested.toLowerCase()) return;
  throw new ServiceUnavailableError(
    `The metering service answered ${endpoint} for ${kind} ${received} instead of ${requested}, the one requested; stopped so that no ${kind} is billed with another one's consumption.`,
    { code: 'API_WRONG_OBJECT', hint: HINT, details: { endpoint, field, requested, received } },
  );
}

/** The echoed from/to is what the range rules make of the requested range. */
export function checkEchoedRange(endpoint: string, requested: RangeQuery, echoed: RangeQuery, now: Date): void {
  const allowed = contractRange(requested, now);
  const asked = `${requested.from} to ${requested.to}`;
  let why: string | null = null;
  if (echoed.from !== allowed.from) why = `it should start on ${allowed.from} (the first day of the requested month)`;
  else if (echoed.to !== monthEnd(echoed.to)) why = 'its end is not the last day of a month';
  else if (echoed.to < monthEnd(allowed.from)) why = 'it ends before the requested range begins';
  else if (echoed.to > monthEnd(requested.to)) why = `it ends after the requested month (${monthEnd(requested.to)})`;
  else if (echoed.to > allowed.to) why = `it reaches past the last completed month (${allowed.to} by this computer's clock), where no billing data can exist yet`;
  if (why === null) return;
  throw new ServiceUnavailableError(
    `The metering service answered ${endpoint} for ${echoed.from} to ${echoed.to} when ${asked} was requested, which the API's range rules cannot produce: ${why}; stopped so that no other period is billed.`,
    { code: 'API_WRONG_RANGE', hint: `${HINT} If this computer's clock is wrong, correct it first.`, details: { endpoint, requested, received: echoed, allowed } },
  );
}
