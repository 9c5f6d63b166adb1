// One GET against /v1 with everything that can go wrong on the way: pacing, credentials,
// timeouts, dropped connections, corrupt bodies, 429 pauses, 401 refresh, backoff.
// Never puts a token into an error, an event or a log line.
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, type Dispatcher } from 'undici';
import type { Credentials } from '../core/credentials.js';
import { isMeterdataError, ServiceUnavailableError } from '../core/errors.js';
import type { ApiEvent } from './contracts.js';
import type { Scheduler } from './pacer.js';
import {
  authParam,
  insufficientScope,
  invalidRequest,
  notFound,
  parseProblem,
  rejectedSignIn,
  retryAfterMs,
  unexpectedStatus,
} from './problems.js';
import { problemCode, type Problem } from './types.js';
import { discard, readCapped, RETRY_AFTER_MAX_MS, tooLarge, waitTooLong } from './limits.js';

export interface TransportOptions {
  baseUrl: string;
  credentials: Credentials;
  scheduler: Scheduler;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  /** One answer's body is read no further than this (see MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
  signal: AbortSignal | undefined;
  onEvent: (e: ApiEvent) => void;
  userAgent: string;
  /** Called when the access token differs from the one of the previous request (a refresh happened). */
  onTokenChanged?: () => void;
}

export interface Stats {
  requests: number;
  retries: number;
  rateLimited: number;
}

/** What went wrong on one attempt that is worth another try. */
interface Transient {
  reason: string;
  status: number | null;
  rateLimited: boolean;
  problem: Problem | null;
}

const RETRY_STATUSES = new Set([500, 502, 503, 504]);

export class Transport {
  readonly stats: Stats = { requests: 0, retries: 0, rateLimited: 0 };
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  private lastToken: string | null = null;

  constructor(private readonly o: TransportOptions) {
    const base = new URL(o.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    // One pool per client and so per origin; keep-alive hides TLS and TCP setup.
    this.pool = new Pool(this.origin, {
      connections: o.scheduler.concurrency,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
    });
  }

  /**
   * GETs `path` (relative to the base URL, with query) and returns the parsed JSON.
   * `userInput`: the query carries the user's dates/metrics, so a 400 is theirs to fix.
   */
  async getJson(path: string, userInput = false): Promise<unknown> {
    const requestPath = this.basePath + path;
    const url = this.origin + requestPath;
    const endpoint = this.endpoint(path);
    let failures = 0;
    let refreshed = false;
    let freshProofTried = false;
    for (let attempt = 1; ; attempt++) {
      const release = await this.o.scheduler.acquire(this.o.signal);
      let status = 0;
      let text = '';
      let headers: Record<string, string | string[] | undefined> = {};
      let sentToken = '';
      const started = performance.now();
      let sending = false;
      let pauseMs = 0;
      let res: Dispatcher.ResponseData | undefined;
      try {
        const auth = await this.o.credentials.headersFor('GET', url);
        sentToken = tokenOf(auth);
        if (this.lastToken !== null && sentToken !== this.lastToken) this.o.onTokenChanged?.();
        this.lastToken = sentToken;
        this.stats.requests++;
        sending = true;
        const timeout = AbortSignal.timeout(this.o.requestTimeoutMs);
        const signal = this.o.signal ? AbortSignal.any([this.o.signal, timeout]) : timeout;
        res = await this.pool.request({
          path: requestPath,
          method: 'GET',
          headers: { ...auth, accept: 'application/json, application/problem+json', 'user-agent': this.o.userAgent },
          signal,
        });
        status = res.statusCode;
        headers = res.headers;
        // Pause before this caller's slot is released, so no queued caller slips through.
        if (status === 429) pauseMs = this.pauseAll(header(headers, 'retry-after'), failures, endpoint);
        const body = await readCapped(res.body, header(headers, 'content-length'), this.o.maxAnswerBytes);
        if (body === null) throw tooLarge(endpoint, this.o.maxAnswerBytes);
        text = body;
      } catch (e) {
        if (this.o.signal?.aborted) throw this.o.signal.reason;
        // Our own verdicts on the answer (too large, a wait beyond the cap) are final, not the network's.
        if (isMeterdataError(e)) {
          if (res) discard(res.body);
          throw e;
        }
        // Failures of the credentials (refresh failed, store locked) are not the network's.
        const t = sending ? networkFailure(e, this.o.requestTimeoutMs) : null;
        if (!t) throw e;
        failures = await this.backoff(endpoint, failures, t, attempt);
        continue;
      } finally {
        release();
      }
      const ms = Math.round(performance.now() - started);
      this.o.onEvent({ type: 'request', method: 'GET', path: requestPath.split('?')[0]!, status, ms, attempt });

      if (status >= 200 && status < 300) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          failures = await this.backoff(endpoint, failures, { reason: 'truncated or invalid JSON body', status, rateLimited: false, problem: null }, attempt);
          continue;
        }
      }
      const problem = parseProblem(text);
      const code = problem ? problemCode(problem) : '';
      const wwwAuth = header(headers, 'www-authenticate');
      const action = actionFor(status, problem === null ? null : code);
      if (action === 'pause') {
        // A 429 paused the budget before its body was read; another status carrying the code pauses now.
        if (status !== 429) pauseMs = this.pauseAll(header(headers, 'retry-after'), failures, endpoint);
        this.o.onEvent({ type: 'rate-limited', waitMs: pauseMs });
        // The pause is the wait: the scheduler holds every caller until it ends.
        failures = await this.backoff(endpoint, failures, { reason: `HTTP ${status} too-many-requests`, status, rateLimited: true, problem }, attempt, 0);
        continue;
      }
      if (action === 'backoff') {
        failures = await this.backoff(endpoint, failures, { reason: `HTTP ${status}${code ? ` ${code}` : ''}`, status, rateLimited: false, problem }, attempt);
        continue;
      }
      if (action === 'refresh') {
        if (authParam(wwwAuth, 'error') === 'invalid_dpop_proof') {
          if (freshProofTried) throw rejectedSignIn(endpoint, problem, true);
          freshProofTried = true; // headersFor makes a new proof on the next loop
          continue;
        }
        if (refreshed) throw rejectedSignIn(endpoint, problem, false);
        refreshed = true;
        await this.o.credentials.refreshAfterRejection(sentToken);
        this.o.onEvent({ type: 'refreshed' });
        continue;
      }
      if (action === 'scope') throw insufficientScope(endpoint, problem, wwwAuth);
      if (action === 'not-found') throw notFound(endpoint, 'resource', requestPath.split('?')[0]!.split('/').pop() ?? '', problem);
      if (action === 'invalid') throw invalidRequest(endpoint, problem, userInput);
      throw unexpectedStatus(endpoint, status, problem);
    }
  }

  /**
   * A 429: Retry-After (or a backoff step when absent) pauses every caller of this client.
   * A wait beyond RETRY_AFTER_MAX_MS is not waited out: a cron job must end, not hang.
   */
  private pauseAll(retryAfter: string | undefined, failures: number, endpoint: string): number {
    const now = Date.now();
    const asked = retryAfterMs(retryAfter, now);
    if (asked !== undefined && asked > RETRY_AFTER_MAX_MS) throw waitTooLong(endpoint, asked, now);
    const wait = asked ?? this.delay(failures + 1);
    this.stats.rateLimited++;
    this.o.scheduler.pauseFor(wait);
    return wait;
  }

  /** `GET /v1/...` without the query: how messages and details name a request. */
  endpoint(path: string): string {
    return `GET ${this.basePath}${path.split('?')[0]}`;
  }

  /** Counts a failure; throws once attempts are used up, else waits (backoff with jitter). */
  private async backoff(endpoint: string, failures: number, t: Transient, attempt: number, waitOverride?: number): Promise<number> {
    const n = failures + 1;
    if (n >= this.o.maxAttempts) throw exhausted(endpoint, n, t);
    const wait = waitOverride ?? this.delay(n);
    this.stats.retries++;
    this.o.onEvent({ type: 'retry', path: endpoint.slice(4), status: t.status, reason: t.reason, waitMs: wait, attempt });
    if (wait > 0) await sleep(wait, undefined, { signal: this.o.signal }).catch((e: unknown) => Promise.reject(this.o.signal?.reason ?? e));
    return n;
  }

  /** Exponential with "equal jitter": half fixed, half random, capped. */
  private delay(n: number): number {
    const ceiling = Math.min(this.o.retryMaxMs, this.o.retryBaseMs * 2 ** (n - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  async close(): Promise<void> {
    this.o.scheduler.close();
    await this.pool.close();
  }
}

type Action = 'pause' | 'backoff' | 'refresh' | 'scope' | 'not-found' | 'invalid' | 'unexpected';

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
 * page). An unknown fragment is an unexpected answer, except on a 5xx, which is retried
 * anyway: repeating a read is harmless.
 */
export function actionFor(status: number, code: string | null): Action {
  if (code !== null) {
    const byCode = ACTION_OF_CODE[code];
    if (byCode) return byCode;
    return RETRY_STATUSES.has(status) ? 'backoff' : 'unexpected';
  }
  if (RETRY_STATUSES.has(status)) return 'backoff';
  return ACTION_OF_STATUS[status] ?? 'unexpected';
}

function exhausted(endpoint: string, attempts: number, t: Transient): ServiceUnavailableError {
  const trace = t.problem?.trace_id;
  const details = { endpoint, attempts, lastStatus: t.status, lastReason: t.reason, traceId: trace };
  if (t.rateLimited) {
    return new ServiceUnavailableError(`The metering service kept rate-limiting ${endpoint} (HTTP 429) after ${attempts} attempts.`, {
      code: 'RATE_LIMITED',
      hint: 'Another program may be using the same connection; wait a few minutes and run the command again.',
      details,
    });
  }
  return new ServiceUnavailableError(
    `The metering service did not answer ${endpoint} after ${attempts} attempts (last: ${t.reason}${trace ? `, trace id ${trace}` : ''}).`,
    { details },
  );
}

/** A network-level failure worth retrying, or null for anything else (a bug: rethrow). */
function networkFailure(e: unknown, timeoutMs: number): Transient | null {
  const err = e as { name?: string; code?: string; message?: string } | null;
  const base = { status: null, rateLimited: false, problem: null };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'UND_ERR_HEADERS_TIMEOUT' || err?.code === 'UND_ERR_BODY_TIMEOUT') {
    return { ...base, reason: `no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}` };
  }
  if (typeof err?.code === 'string' && /^(UND_ERR|E[A-Z]+)/.test(err.code)) {
    return { ...base, reason: `connection failed (${err.code})` };
  }
  return null;
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The token inside `Authorization: Bearer|DPoP <token>`, for refreshAfterRejection bookkeeping. */
function tokenOf(headers: Record<string, string>): string {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === 'authorization') return v.replace(/^\S+\s+/, '');
  }
  return '';
}
