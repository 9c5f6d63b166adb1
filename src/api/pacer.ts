// Pacing for one connection: the service counts 300 requests/min per grant, in memory,
// per fixed or sliding minute (we cannot know which). To get zero 429s from either we
// (a) space starts evenly at 60000/L ms with a small burst allowance, and (b) never
// start more than L requests in any rolling window of 60 s plus a safety margin (the
// server timestamps arrival, not our start, so network jitter would otherwise let two
// starts 60 s apart land 59.9 s apart). Every attempt, retries included, takes a slot.
import { RETRY_AFTER_TOTAL_MS, RETRY_AFTER_WINDOW_MS } from './limits.js';

/** Pure rate arithmetic, time passed in: easy to check against a simulated clock. */
export class RateBudget {
  readonly perWindow: number;
  readonly burst: number;
  readonly windowMs: number;
  private readonly spacingMs: number;
  private tokens: number;
  private refilledAt: number | null = null;
  /** Start times of the last `perWindow` grants, as a ring buffer. */
  private readonly starts: number[] = [];
  private head = 0;
  private pausedUntil = 0;
  /** The end of the latest pause or wait counted (RateBudget.count). */
  private countedUntil = 0;
  /** When each Retry-After pause was added and the time it added, against maxPausedMs. */
  private readonly pauses: { at: number; ms: number }[] = [];
  readonly maxPausedMs: number;
  /** Only pauses and waits added this recently count (default RETRY_AFTER_WINDOW_MS, an hour). */
  readonly pauseWindowMs: number;

  constructor(opts: { perMinute: number; burst?: number; windowMs?: number; marginMs?: number; maxPausedMs?: number; pauseWindowMs?: number }) {
    if (!(opts.perMinute >= 1)) throw new RangeError('rateLimitPerMinute must be at least 1');
    this.perWindow = Math.floor(opts.perMinute);
    this.burst = Math.max(1, Math.min(this.perWindow, Math.floor(opts.burst ?? this.perWindow / 20)));
    this.windowMs = (opts.windowMs ?? 60_000) + (opts.marginMs ?? 1_000);
    this.spacingMs = (opts.windowMs ?? 60_000) / this.perWindow;
    this.tokens = this.burst;
    this.maxPausedMs = opts.maxPausedMs ?? RETRY_AFTER_TOTAL_MS;
    this.pauseWindowMs = opts.pauseWindowMs ?? RETRY_AFTER_WINDOW_MS;
  }

  /** The time the pauses that count now (see pauseWindowMs) added. */
  pausedMs(now: number): number {
    while (this.pauses.length > 0 && this.pauses[0]!.at <= now - this.pauseWindowMs) this.pauses.shift();
    return this.pauses.reduce((sum, p) => sum + p.ms, 0);
  }

  /** Earliest time at or after `now` when the next request may start. */
  nextStart(now: number): number {
    this.refill(now);
    let t = Math.max(now, this.pausedUntil);
    if (this.tokens < 1) t = Math.max(t, now + (1 - this.tokens) * this.spacingMs);
    if (this.starts.length === this.perWindow) t = Math.max(t, this.starts[this.head]! + this.windowMs);
    return t;
  }

  /** Records a start at `now`; the caller has waited until nextStart(now) <= now. */
  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
    if (this.starts.length < this.perWindow) this.starts.push(now);
    else {
      this.starts[this.head] = now;
      this.head = (this.head + 1) % this.perWindow;
    }
  }

  /**
   * Starts this budget did not grant but the service counted (another process of the same
   * connection, read from the shared window): they fill the window log, oldest first.
   */
  seed(starts: number[]): void {
    for (const t of [...starts].sort((a, b) => a - b).slice(-this.perWindow)) {
      if (this.starts.length < this.perWindow) this.starts.push(t);
      else {
        this.starts[this.head] = t;
        this.head = (this.head + 1) % this.perWindow;
      }
    }
  }

  /** The starts of the current window (at or after `now` minus the window), for the shared window file. */
  recent(now: number): number[] {
    return this.starts.filter((t) => t > now - this.windowMs);
  }

  /**
   * A 429's pause of `ms` from `now` if the pauses of the window stay within maxPausedMs with it; false,
   * and no pause, otherwise. Only what it adds to a pause already running counts: many
   * callers answered 429 at once wait once, not once each.
   */
  pause(now: number, ms: number, failedMs = 0): boolean {
    if (!this.count(now, ms, failedMs)) return false;
    this.pauseUntil(now + ms);
    return true;
  }

  /**
   * One caller's wait of `ms` from `now` (a retry's backoff after a 5xx or a network failure) and
   * the `failedMs` before `now` that the failed attempt took: counted against maxPausedMs as a
   * pause is, without holding the other callers; false, and not counted, when it would pass the
   * total. A service failing every request must end the run too, and one that never answers
   * (each attempt waits out its timeout, 30 s) spends the run's time in the attempts, not the backoffs.
   * Counted within the sliding window only: a three-hour run's isolated timeouts do not add up to its end.
   */
  wait(now: number, ms: number, failedMs = 0): boolean {
    return this.count(now, ms, failedMs);
  }

  /** Counts the time [now - before, now + ms] adds to what pauses and waits already cover: many callers waiting at once count once. */
  private count(now: number, ms: number, before = 0): boolean {
    const adds = Math.max(0, now + ms - Math.max(now - before, this.pausedUntil, this.countedUntil));
    if (this.pausedMs(now) + adds > this.maxPausedMs) return false;
    if (adds > 0) this.pauses.push({ at: now, ms: adds });
    this.countedUntil = Math.max(this.countedUntil, now + ms);
    return true;
  }

  /** Retry-After: nobody starts before `until`. The bucket restarts empty-ish so the release is not a stampede. */
  pauseUntil(until: number): void {
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.tokens = Math.min(this.tokens, 1);
    this.refilledAt = until;
  }

  private refill(now: number): void {
    if (this.refilledAt === null) this.refilledAt = now;
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) / this.spacingMs);
      this.refilledAt = now;
    }
  }
}

/** setTimeout's largest delay; a longer one fires at once (with a warning), which would spin. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  urgent: boolean;
}

/**
 * FIFO admission: a concurrency slot and a rate slot, shared by every caller of one
 * connection. An urgent caller (the /whoami a token refresh makes while callers hold every
 * concurrency slot waiting for that refresh) goes first and needs only a rate slot.
 */
export class Scheduler {
  private readonly queue: Waiter[] = [];
  private active = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly budget: RateBudget,
    readonly concurrency: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves with a release function once this caller may start its request. */
  acquire(signal?: AbortSignal, urgent = false): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        urgent,
        onAbort: () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      if (urgent) this.queue.splice(this.queue.filter((w) => w.urgent).length, 0, waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** The time the pauses that count now added (RateBudget.pausedMs). */
  pausedMs(): number {
    return this.budget.pausedMs(this.now());
  }

  /** Pauses every caller for `ms` (a 429's Retry-After); false, and no pause, when the last hour's waits would pass their budget. */
  pauseFor(ms: number, failedMs = 0): boolean {
    if (!this.budget.pause(this.now(), ms, failedMs)) return false;
    this.pump();
    return true;
  }

  /** Counts one caller's failed attempt of `failedMs` and its backoff of `ms` against the last hour's total (RateBudget.wait); false when it would pass it. */
  countWait(ms: number, failedMs = 0): boolean {
    return this.budget.wait(this.now(), ms, failedMs);
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length > 0 && (this.queue[0]!.urgent || this.active < this.concurrency)) {
      const now = this.now();
      const at = this.budget.nextStart(now);
      if (at > now) {
        this.timer = setTimeout(
          () => {
            this.timer = null;
            this.pump();
          },
          Math.min(MAX_TIMER_MS, Math.ceil(at - now)),
        );
        return;
      }
      this.budget.take(now);
      const waiter = this.queue.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.active++;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.active--;
        this.pump();
      });
    }
  }

  /** Stops the timer so a closed client does not keep the process alive. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
