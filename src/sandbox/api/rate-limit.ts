// Fixed one-minute windows per key (connection sid, or caller address for bad tokens).
// Uses real elapsed time (performance.now), not the sandbox Clock: the Clock is often frozen
// or jumped in tests, and a frozen clock must not freeze the window.
import { performance } from 'node:perf_hooks';

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts a request; returns undefined when allowed, else the Retry-After seconds. */
  hit(key: string): number | undefined {
    if (this.perMinute <= 0) return undefined;
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= WINDOW_MS) {
      if (this.windows.size > 10_000) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count <= this.perMinute) return undefined;
    return Math.max(1, Math.ceil((w.start + WINDOW_MS - t) / 1000));
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}
