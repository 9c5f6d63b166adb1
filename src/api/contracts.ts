// The surface of the one API helper (implemented in src/api/client.ts). Export, browse
// and status code against this interface; tests may pass their own implementation.
import type { MeasuringPoint, MeasuringPointConsumption, Metric, Property, UnitConsumption, UsageUnit, WhoAmI } from './types.js';

export interface RangeQuery {
  /** yyyy-MM-dd; the server widens to whole months and caps at the last completed month. */
  from: string;
  to: string;
}

/** A value outside the contract's enum, kept as received (versioning rules 4 and 7). */
export interface UnknownValue {
  /** e.g. 'MeasuringPointConsumption.metric' */
  field: string;
  value: string;
  /** Id of the object that carried it. */
  id: string | null;
}

/** Progress and log events, for the progress bar and cron log lines. */
export type ApiEvent =
  | { type: 'request'; method: string; path: string; status: number; ms: number; attempt: number }
  | { type: 'retry'; path: string; status: number | null; reason: string; waitMs: number; attempt: number }
  | { type: 'rate-limited'; waitMs: number }
  | { type: 'refreshed' };

export interface ApiClientOptions {
  /** API base including /v1, e.g. http://127.0.0.1:4000/v1 */
  baseUrl: string;
  credentials: import('../core/credentials.js').Credentials;
  /** Requests per minute for this connection (default 300). */
  rateLimitPerMinute?: number;
  /** Requests in flight at once (default: enough to hide latency within the rate). */
  concurrency?: number;
  /** Give up retrying a request after this many attempts (default 6). */
  maxAttempts?: number;
  /** All waits of the client's pacer within an hour together (default RETRY_AFTER_TOTAL_MS, 15 min); beyond it: RATE_LIMIT_BUDGET_SPENT. */
  retryAfterTotalMs?: number;
  signal?: AbortSignal;
  onEvent?: (e: ApiEvent) => void;
  /** Called for every enum value outside the contract seen in an answer. */
  onUnknownValue?: (u: UnknownValue) => void;
  /** Requests that may start back to back before even spacing applies (default rateLimitPerMinute/20). */
  burst?: number;
  /** One attempt's limit, headers and body together (default 30000 ms). */
  requestTimeoutMs?: number;
  /** First backoff step after a 5xx, timeout or dropped connection (default 250 ms, doubling, jittered). */
  retryBaseMs?: number;
  /** Longest backoff step (default 8000 ms). */
  retryMaxMs?: number;
  /** This computer's clock, for what "the last completed month" can be when an echoed range is checked (default: the system clock). */
  now?: () => Date;
  /** One answer's body is read no further than this (default MAX_ANSWER_BYTES, 32 MiB); beyond it: API_ANSWER_TOO_LARGE. */
  maxAnswerBytes?: number;
  /** Pages one listing may have (default MAX_PAGES, 5000); beyond it: API_TOO_MANY_PAGES. */
  maxPages?: number;
  /**
   * The connection's one pacer (src/auth/connection.ts), shared with every other client of
   * the connection; rateLimitPerMinute, burst and concurrency are then the pacer's. Without
   * it the client makes its own.
   */
  scheduler?: import('./pacer.js').Scheduler;
  /** Requests go ahead of the queue without a concurrency slot: the /whoami a refresh makes (see Scheduler). */
  urgent?: boolean;
  /**
   * After a token change, the /whoami answer for the new token. The connection reads it once
   * per token for every subscriber (the profile reconcile, each client's withdrawn-access
   * check); without it the client asks /whoami itself.
   */
  whoamiAfterRefresh?: (token: string) => Promise<import('./types.js').WhoAmI>;
  /**
   * Every /whoami answer of this client before anyone reads it: the connection throws where it names another
   * landlord than the profile's (AUTH_OTHER_TENANT), so no command reads that landlord's data into this profile.
   */
  checkWho?: (who: import('./types.js').WhoAmI) => void | Promise<void>;
}

export interface ApiClient {
  whoami(): Promise<WhoAmI>;
  /** Every Property in scope, following next_cursor to the end with limit=200. */
  listProperties(): AsyncIterable<Property>;
  getProperty(id: string): Promise<Property>;
  /** Every measuring point of a Property, with and without a unit. */
  listPropertyMeasuringPoints(propertyId: string): AsyncIterable<MeasuringPoint>;
  /** Units of one Property, or every unit in scope without propertyId. */
  listUsageUnits(query?: { propertyId?: string }): AsyncIterable<UsageUnit>;
  getUsageUnit(id: string): Promise<UsageUnit>;
  unitConsumption(id: string, range: RangeQuery & { metrics?: Metric[] }): Promise<UnitConsumption>;
  getMeasuringPoint(id: string): Promise<MeasuringPoint>;
  pointReadings(id: string, range: RangeQuery): Promise<MeasuringPointConsumption>;
  /**
   * The client remembers every id its answers showed, to report a later 404 on one as
   * withdrawn access. A caller done with a Property (the export, after billing it) drops
   * what is remembered of its units and points, so a long walk holds only what it still
   * asks about; the Property itself stays known.
   */
  forgetProperty(propertyId: string): void;
  /**
   * A Property's answers a resumed run read from its journal instead of asking: their devices' places are noted
   * as if fetched, so one of them placed at a Property fetched afterwards is still found (round 27).
   */
  noteSaved?(answers: import('./walk.js').PropertyAnswers): void;
  /** Requests made so far (for summaries and benchmarks). */
  stats(): { requests: number; retries: number; rateLimited: number };
  close(): Promise<void>;
}
