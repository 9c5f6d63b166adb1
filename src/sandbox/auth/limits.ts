// Fixed one-minute windows on the sandbox clock (advancing the clock resets them).
import { DEVELOPER_URL } from '../api/problem.js';
import type { Clock } from '../contracts.js';

/** Same problem type base as the /v1 API, so clients branch on the same fragment. */
export const PROBLEM_TYPE_BASE = `${DEVELOPER_URL}/errors/#`;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly clock: Clock,
    readonly perMinute: number,
  ) {}

  private window(key: string) {
    const now = this.clock.now().getTime();
    let w = this.windows.get(key);
    if (!w || now - w.start >= 60_000 || now < w.start) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  /** Seconds to wait when `key` is already at its limit, else undefined. */
  blocked(key: string): number | undefined {
    if (this.perMinute <= 0) return undefined;
    const w = this.window(key);
    if (w.count < this.perMinute) return undefined;
    return Math.max(1, Math.ceil((w.start + 60_000 - this.clock.now().getTime()) / 1000));
  }

  hit(key: string): void {
    if (this.perMinute > 0) this.window(key).count++;
  }

  /** Counts one request; returns the Retry-After seconds when it is over the limit. */
  take(key: string): number | undefined {
    const wait = this.blocked(key);
    if (wait === undefined) this.hit(key);
    return wait;
  }
}
