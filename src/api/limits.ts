// The bounds of every wait and walk against /v1 (issue "Trust", section 2): how long a
// Retry-After may pause a run, how large one answer may be, how many pages one list may
// have. Beyond a bound the run ends with exit 5 and a message naming the endpoint.
import type { Dispatcher } from 'undici';
import { ServiceUnavailableError } from '../core/errors.js';
import { t } from './texts.js';

/** The longest Retry-After meterdata waits out; a longer one ends the run (exit 5) saying when to come back. */
export const RETRY_AFTER_MAX_MS = 5 * 60_000;
/**
 * All waits of one connection within any hour (RETRY_AFTER_WINDOW_MS) together: 429 pauses (each
 * single one capped above), failed attempts and the backoffs before their retries (each request
 * tried 6 times). Three of the longest waits, a real run's full minute of requests many times over,
 * yet a nightly job whose service keeps failing ends within the hour.
 */
export const RETRY_AFTER_TOTAL_MS = 15 * 60_000;
/**
 * The sliding window RETRY_AFTER_TOTAL_MS counts in: a long run (a three-hour export or portfolio)
 * with a timeout now and then is not ended by their sum, yet loses at most a quarter of any hour.
 */
export const RETRY_AFTER_WINDOW_MS = 60 * 60_000;
/**
 * The largest answer read: a full page of 200 units or a year of one unit's readings is well
 * under 1 MiB, so 32 MiB is no real answer's limit, yet it keeps a hostile one out of memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * The most pages one listing may have: 1,000,000 items at 200 a page, twenty times the
 * largest data set the sandbox makes, yet a bound for a server that invents items forever.
 */
export const MAX_PAGES = 5_000;

/** `ms` for a person: seconds, minutes, hours or days. */
export function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return t.seconds({ n: Math.round(s) });
  if (s < 7200) return t.minutes({ n: Math.round(s / 60) });
  if (s < 172_800) return t.hours({ n: Math.round(s / 3600) });
  return t.days({ n: Math.round(s / 86_400) });
}

/** When a wait asked for at `now` ends, as an ISO time without milliseconds; null when it is beyond any date. */
export function retryAt(now: number, waitMs: number): string | null {
  const at = new Date(now + waitMs);
  return Number.isFinite(at.getTime()) ? at.toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
}

export const retryHint = (at: string | null) => (at ? t.retryAfter({ at }) : t.noUsableTime);

export function waitTooLong(endpoint: string, waitMs: number, now: number): ServiceUnavailableError {
  const at = retryAt(now, waitMs);
  return new ServiceUnavailableError(t.waitTooLong({ wait: duration(waitMs), endpoint, max: RETRY_AFTER_MAX_MS / 60_000 }), {
    code: 'RATE_LIMITED_TOO_LONG',
    hint: retryHint(at),
    details: { endpoint, retryAfterMs: waitMs, retryAt: at },
  });
}

/** The 429 pauses of the last hour would pass RETRY_AFTER_TOTAL_MS (or the connection's own budget) with this one. */
export function waitBudgetSpent(endpoint: string, waitMs: number, spentMs: number, budgetMs: number, now: number): ServiceUnavailableError {
  const at = retryAt(now, waitMs);
  return new ServiceUnavailableError(t.waitBudgetSpent({ spent: duration(spentMs), wait: duration(waitMs), endpoint, max: duration(budgetMs) }), {
    code: 'RATE_LIMIT_BUDGET_SPENT',
    hint: retryHint(at),
    details: { endpoint, retryAfterMs: waitMs, waitedMs: Math.round(spentMs), budgetMs, retryAt: at },
  });
}

/** Another retry's backoff would take the last hour's waits (429 pauses, failed attempts and backoffs) past their total. */
export function retryBudgetSpent(
  endpoint: string,
  last: { status: number | null; reason: string },
  spentMs: number,
  budgetMs: number,
): ServiceUnavailableError {
  return new ServiceUnavailableError(t.retryBudgetSpent({ spent: duration(spentMs), endpoint, last: last.reason, max: duration(budgetMs) }), {
    hint: t.unavailableHint,
    details: { endpoint, lastStatus: last.status, lastReason: last.reason, waitedMs: Math.round(spentMs), budgetMs },
  });
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : t.bytes({ n: bytes }));

export function tooLarge(endpoint: string, max: number): ServiceUnavailableError {
  return new ServiceUnavailableError(t.tooLarge({ endpoint, size: sizeText(max) }), {
    code: 'API_ANSWER_TOO_LARGE',
    hint: t.tooLargeHint,
    details: { endpoint, limitBytes: max },
  });
}

/** Drops a body we will not read; undici reports the abort as an 'error' nobody else listens to. */
export function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The body as text, or null as soon as it is known to exceed `max` bytes (announced or counted). */
export async function readCapped(body: Dispatcher.ResponseData['body'], declared: string | undefined, max: number): Promise<string | null> {
  if (declared !== undefined && Number(declared) > max) {
    discard(body);
    return null;
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > max) {
      discard(body);
      return null;
    }
    chunks.push(chunk);
  }
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}
