// The decision step of a request, pure: from what came back (status, headers, body, or the
// network's failure) and what this request already tried, the one thing to do next. The
// transport around it only acquires a slot, sends, and acts on the verdict, so every
// answer the service (or a proxy, or a hostile server) can give is a row of a unit test.
import { clockSkewError } from '../core/clock-skew.js';
import { authParam, insufficientScope, invalidRequest, notFound, parseProblem, redirected, rejectedSignIn, unexpectedStatus } from './problems.js';
import { problemCode, type Problem } from './types.js';
import { t } from './texts.js';

export type Headers = Record<string, string | string[] | undefined>;

/** What one attempt brought back: an answer read in full, or a failure on the way (timeout, dropped connection). */
export type Outcome = { status: number; headers: Headers; text: string } | { failed: unknown };

/** What went wrong on one attempt that is worth another try. */
export interface Transient {
  reason: string;
  status: number | null;
  rateLimited: boolean;
  problem: Problem | null;
}

/** What this request has already tried, and what it is about. */
export interface Attempt {
  /** `GET /v1/...` without the query. */
  endpoint: string;
  /** The path without query, for naming the id of a 404. */
  path: string;
  /** The query carries the user's dates or metrics, so a 400 is theirs to fix. */
  userInput: boolean;
  /** The query carries a page_cursor the service issued: a 400 may be that cursor's, not meterdata's fault. */
  cursor?: boolean;
  refreshed: boolean;
  freshProofTried: boolean;
  requestTimeoutMs: number;
}

export type Verdict =
  | { act: 'done'; json: unknown }
  /** Back off and try again (5xx, timeout, dropped connection, a corrupt body). */
  | { act: 'retry'; transient: Transient }
  /** Rate-limited: every caller of the connection waits (Retry-After), then this one tries again. */
  | { act: 'pause'; transient: Transient; retryAfter: string | undefined }
  /** The access token was rejected: refresh once and try again. */
  | { act: 'refresh' }
  /** The DPoP proof was rejected: once more with a fresh proof, no refresh. */
  | { act: 'fresh-proof' }
  | { act: 'fail'; error: Error }
  /** Not the network's failure (a bug, the credentials): passed on unchanged. */
  | { act: 'rethrow'; error: unknown };

type Action = 'pause' | 'backoff' | 'refresh' | 'scope' | 'not-found' | 'invalid' | 'unexpected';

const RETRY_STATUSES = new Set([500, 502, 503, 504]);

const ACTION_OF_CODE: Record<string, Action> = {
  'too-many-requests': 'pause',
  'internal-error': 'backoff',
  'service-unavailable': 'backoff',
  'invalid-token': 'refresh',
  'insufficient-scope': 'scope',
  'resource-not-found': 'not-found',
  'invalid-request': 'invalid',
};

const ACTION_OF_STATUS: Record<number, Action> = { 429: 'pause', 401: 'refresh', 403: 'scope', 404: 'not-found', 400: 'invalid' };

/**
 * What to do with an error answer. The contract says clients branch on the Problem's type
 * fragment (`code`), so it decides; the status only when the body is no Problem (a proxy's
 * page) or a Problem without a fragment. An unknown fragment is an unexpected answer, except on a 5xx, which is
 * retried anyway (repeating a read is harmless), and on a 429, which is waited out (a gateway's own rate limit,
 * `#throttled`: round 29, it failed the run with exit 1).
 */
export function actionFor(status: number, code: string | null): Action {
  if (code !== null && code !== '') {
    const byCode = ACTION_OF_CODE[code];
    // invalid-token is the contract's 401: on a 429 or a 5xx it would cost a refresh (a rotation) and then "sign in
    // again" for a sign-in that works; the status decides there, as without a fragment (round 27; round 29: a 400
    // with it was "a bug in meterdata")
    if (byCode === 'refresh' && status !== 401) return byStatus(status);
    if (byCode) return byCode;
    return RETRY_STATUSES.has(status) ? 'backoff' : status === 429 ? 'pause' : 'unexpected';
  }
  return byStatus(status);
}

/** A Problem without a type fragment (RFC 9457's about:blank, a gateway's): its status says what happened (round 26). */
function byStatus(status: number): Action {
  if (RETRY_STATUSES.has(status)) return 'backoff';
  // a 400 without the contract's invalid-request (a gateway's or a WAF's) is no proof meterdata sent a bad request (round 27)
  if (status === 400) return 'unexpected';
  return ACTION_OF_STATUS[status] ?? 'unexpected';
}

export function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A network-level failure worth retrying, or null for anything else (a bug: rethrow). */
export function networkFailure(e: unknown, timeoutMs: number): Transient | null {
  const err = e as { name?: string; code?: string; message?: string } | null;
  const base = { status: null, rateLimited: false, problem: null };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'UND_ERR_HEADERS_TIMEOUT' || err?.code === 'UND_ERR_BODY_TIMEOUT') {
    return { ...base, reason: t.noAnswerWithin({ time: timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms` }) };
  }
  if (typeof err?.code === 'string' && /^(UND_ERR|E[A-Z]+)/.test(err.code)) {
    return { ...base, reason: t.connectionFailed({ code: err.code }) };
  }
  // an answer that is no HTTP (a control byte in a header, a broken status line): the server's or a proxy's fault,
  // read again as any cut answer; it was "unexpected failure (a bug)" with undici's stack (round 36a F1)
  if (err?.name === 'HTTPParserError') return { ...base, reason: t.notHttp };
  return null;
}

export function classify(outcome: Outcome, a: Attempt): Verdict {
  if ('failed' in outcome) {
    const transient = networkFailure(outcome.failed, a.requestTimeoutMs);
    return transient ? { act: 'retry', transient } : { act: 'rethrow', error: outcome.failed };
  }
  const { status, headers, text } = outcome;
  if (status >= 200 && status < 300) {
    try {
      return { act: 'done', json: JSON.parse(text) as unknown };
    } catch {
      return { act: 'retry', transient: { reason: t.badJson, status, rateLimited: false, problem: null } };
    }
  }
  const problem = parseProblem(text);
  if (status >= 300 && status < 400) return { act: 'fail', error: redirected(a.endpoint, status, header(headers, 'location'), problem) };
  const code = problem ? problemCode(problem) : '';
  const wwwAuth = header(headers, 'www-authenticate');
  switch (actionFor(status, problem === null ? null : code)) {
    case 'pause':
      return {
        act: 'pause',
        transient: { reason: `HTTP ${status} too-many-requests`, status, rateLimited: true, problem },
        retryAfter: header(headers, 'retry-after'),
      };
    case 'backoff':
      return { act: 'retry', transient: { reason: `HTTP ${status}${code ? ` ${code}` : ''}`, status, rateLimited: false, problem } };
    case 'refresh':
      if (authParam(wwwAuth, 'error') === 'invalid_dpop_proof') {
        // This clock too far off the service's: a fresh proof fails the same way, and signing in again would not help.
        const date = header(headers, 'date') ?? null;
        const skew = clockSkewError(date);
        if (skew) return { act: 'fail', error: skew };
        return a.freshProofTried ? { act: 'fail', error: rejectedSignIn(a.endpoint, problem, true, date) } : { act: 'fresh-proof' };
      }
      return a.refreshed ? { act: 'fail', error: rejectedSignIn(a.endpoint, problem, false) } : { act: 'refresh' };
    case 'scope':
      return { act: 'fail', error: insufficientScope(a.endpoint, problem, wwwAuth) };
    case 'not-found':
      return { act: 'fail', error: notFound(a.endpoint, 'resource', a.path.split('/').pop() ?? '', problem) };
    case 'invalid':
      return { act: 'fail', error: invalidRequest(a.endpoint, problem, a.userInput, a.cursor) };
    default:
      return { act: 'fail', error: unexpectedStatus(a.endpoint, status, problem) };
  }
}
