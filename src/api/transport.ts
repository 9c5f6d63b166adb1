// One GET against /v1 with everything that can go wrong on the way: pacing, credentials,
// timeouts, dropped connections, corrupt bodies, 429 pauses, 401 refresh, backoff.
// Never puts a token into an error, an event or a log line.
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, type Dispatcher } from 'undici';
import type { Credentials } from '../core/credentials.js';
import { isMeterdataError, ServiceUnavailableError } from '../core/errors.js';
import type { ApiEvent } from './contracts.js';
import type { Scheduler } from './pacer.js';
import { classify, header, type Attempt, type Outcome, type Transient } from './classify.js';
import { retryAfterMs } from './problems.js';
import { discard, readCapped, RETRY_AFTER_MAX_MS, retryBudgetSpent, tooLarge, waitBudgetSpent, waitTooLong } from './limits.js';
import { t as texts } from './texts.js';

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
  /** Called with the new access token when it differs from the one of the previous request (a refresh happened). */
  onTokenChanged?: (token: string) => void;
  /** The connection's pacer is shared: closing this transport leaves it running for the others. */
  ownsScheduler: boolean;
  /** Take slots ahead of the queue and without a concurrency slot (the /whoami of a refresh; see Scheduler). */
  urgent?: boolean;
}

export interface Stats {
  requests: number;
  retries: number;
  rateLimited: number;
}

/** One attempt's outcome and what the act step needs from it. */
interface Sent {
  outcome: Outcome;
  /** The access token sent, for refreshAfterRejection. */
  token: string;
  /** A 429's pause, already set on the scheduler. */
  pauseMs: number;
  ms: number;
  /** How long into the attempt the 429's pause was set (its headers); the body's read after it is counted apart. */
  pausedAtMs?: number;
}

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
   * Each attempt: acquire a slot, send, classify the outcome (pure, classify.ts), act.
   * `userInput`: the query carries the user's dates/metrics, so a 400 is theirs to fix.
   */
  async getJson(path: string, userInput = false): Promise<unknown> {
    const requestPath = this.basePath + path;
    const endpoint = this.endpoint(path);
    const tried: Attempt = {
      endpoint,
      path: requestPath.split('?')[0]!,
      userInput,
      cursor: /[?&]page_cursor=/.test(path),
      refreshed: false,
      freshProofTried: false,
      requestTimeoutMs: this.o.requestTimeoutMs,
    };
    let failures = 0;
    for (let attempt = 1; ; attempt++) {
      const release = await this.o.scheduler.acquire(this.o.signal, this.o.urgent);
      let sent: Sent;
      try {
        sent = await this.send(requestPath, endpoint, failures);
      } finally {
        release();
      }
      const { outcome } = sent;
      if (!('failed' in outcome)) this.o.onEvent({ type: 'request', method: 'GET', path: tried.path, status: outcome.status, ms: sent.ms, attempt });
      const verdict = classify(outcome, tried);
      switch (verdict.act) {
        case 'done':
          return verdict.json;
        case 'retry':
          failures = await this.backoff(endpoint, failures, verdict.transient, attempt, { failedMs: sent.ms });
          continue;
        case 'pause': {
          // A 429 paused the budget before its body was read; another status carrying the code pauses now.
          const pauseMs = verdict.transient.status === 429 ? sent.pauseMs : this.pauseAll(verdict.retryAfter, failures, endpoint, sent.ms);
          this.o.onEvent({ type: 'rate-limited', waitMs: pauseMs });
          // The pause is the wait: the scheduler holds every caller until it ends.
          // what the 429's body took after its pause was set (a body sent slowly) counts too
          const bodyMs = sent.pausedAtMs === undefined ? 0 : sent.ms - sent.pausedAtMs;
          failures = await this.backoff(endpoint, failures, verdict.transient, attempt, { paused: true, failedMs: bodyMs });
          continue;
        }
        case 'fresh-proof':
          tried.freshProofTried = true; // headersFor makes a new proof on the next loop
          continue;
        case 'refresh':
          tried.refreshed = true;
          await this.o.credentials.refreshAfterRejection(sent.token);
          this.o.onEvent({ type: 'refreshed' });
          continue;
        case 'fail':
        case 'rethrow':
          throw verdict.error;
      }
    }
  }

  /** One attempt inside its slot: the credentials' headers, the request, the body read within its bound. */
  private async send(requestPath: string, endpoint: string, failures: number): Promise<Sent> {
    const url = this.origin + requestPath;
    const started = performance.now();
    let res: Dispatcher.ResponseData | undefined;
    // Failures of the credentials (refresh failed, store locked) are not the network's: they propagate.
    const auth = await this.o.credentials.headersFor('GET', url).catch((e: unknown) => Promise.reject(this.o.signal?.aborted ? this.o.signal.reason : e));
    const token = tokenOf(auth);
    if (this.lastToken !== null && token !== this.lastToken) this.o.onTokenChanged?.(token);
    this.lastToken = token;
    let pauseMs = 0;
    let pausedAtMs: number | undefined;
    try {
      this.stats.requests++;
      const timeout = AbortSignal.timeout(this.o.requestTimeoutMs);
      const signal = this.o.signal ? AbortSignal.any([this.o.signal, timeout]) : timeout;
      res = await this.pool.request({
        path: requestPath,
        method: 'GET',
        headers: { ...auth, accept: 'application/json, application/problem+json', 'user-agent': this.o.userAgent },
        signal,
      });
      const { statusCode: status, headers } = res;
      // Pause before this caller's slot is released, so no queued caller slips through.
      if (status === 429) {
        pausedAtMs = Math.round(performance.now() - started);
        pauseMs = this.pauseAll(header(headers, 'retry-after'), failures, endpoint, pausedAtMs);
      }
      const text = await readCapped(res.body, header(headers, 'content-length'), this.o.maxAnswerBytes);
      if (text === null) throw tooLarge(endpoint, this.o.maxAnswerBytes);
      return {
        outcome: { status, headers, text },
        token,
        pauseMs,
        ms: Math.round(performance.now() - started),
        ...(pausedAtMs !== undefined ? { pausedAtMs } : {}),
      };
    } catch (e) {
      if (this.o.signal?.aborted) throw this.o.signal.reason;
      // Our own verdicts on the answer (too large, a wait beyond the cap) are final, not the network's.
      if (isMeterdataError(e)) {
        if (res) discard(res.body);
        throw e;
      }
      return { outcome: { failed: e }, token, pauseMs, ms: Math.round(performance.now() - started) };
    }
  }

  /**
   * A 429: Retry-After (or a backoff step when absent) pauses every caller of this client.
   * A wait beyond RETRY_AFTER_MAX_MS, or one that takes the connection's pauses in this run
   * beyond their total (RETRY_AFTER_TOTAL_MS), is not waited out: a cron job must end, not hang.
   * `failedMs`: how long the attempt took to be told 429, counted with the pause as a failed
   * attempt's time is (429s sent after 29 s each spent no budget: 2.4 minutes per request, uncounted).
   */
  private pauseAll(retryAfter: string | undefined, failures: number, endpoint: string, failedMs: number): number {
    const now = Date.now();
    const asked = retryAfterMs(retryAfter, now);
    if (asked !== undefined && asked > RETRY_AFTER_MAX_MS) throw waitTooLong(endpoint, asked, now);
    const wait = asked ?? this.delay(failures + 1);
    this.stats.rateLimited++;
    const { scheduler } = this.o;
    if (!scheduler.pauseFor(wait, failedMs)) throw waitBudgetSpent(endpoint, wait, scheduler.pausedMs(), scheduler.budget.maxPausedMs, now);
    return wait;
  }

  /** `GET /v1/...` without the query: how messages and details name a request. */
  endpoint(path: string): string {
    return `GET ${this.basePath}${path.split('?')[0]}`;
  }

  /**
   * Counts a failure; throws once attempts are used up or the last hour's wait budget is spent, else
   * waits (backoff with jitter). `paused`: a 429's pause, counted already, is the wait. `failedMs`:
   * how long the failed attempt took, counted with its backoff (six timeouts of 30 s are 3 minutes).
   */
  private async backoff(endpoint: string, failures: number, t: Transient, attempt: number, how: { paused?: true; failedMs?: number }): Promise<number> {
    const n = failures + 1;
    if (n >= this.o.maxAttempts) throw exhausted(endpoint, n, t);
    const wait = how.paused ? 0 : this.delay(n);
    const { scheduler } = this.o;
    if ((!how.paused || how.failedMs) && !scheduler.countWait(wait, how.failedMs))
      throw retryBudgetSpent(endpoint, t, scheduler.pausedMs(), scheduler.budget.maxPausedMs);
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
    if (this.o.ownsScheduler) this.o.scheduler.close();
    await this.pool.close();
  }
}

function exhausted(endpoint: string, attempts: number, t: Transient): ServiceUnavailableError {
  const trace = t.problem?.trace_id;
  const details = { endpoint, attempts, lastStatus: t.status, lastReason: t.reason, traceId: trace };
  if (t.rateLimited) {
    return new ServiceUnavailableError(texts.rateLimited({ endpoint, attempts }), { code: 'RATE_LIMITED', hint: texts.rateLimitedHint, details });
  }
  const last = texts.noAnswer({ endpoint, attempts, last: t.reason, trace: trace ? texts.traceIdAfter({ id: trace }) : '' });
  return new ServiceUnavailableError(last, { hint: texts.unavailableHint, details });
}

/** The token inside `Authorization: Bearer|DPoP <token>`, for refreshAfterRejection bookkeeping. */
function tokenOf(headers: Record<string, string>): string {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === 'authorization') return v.replace(/^\S+\s+/, '');
  }
  return '';
}
