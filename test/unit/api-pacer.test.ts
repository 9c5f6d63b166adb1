// Pacing: the arithmetic on a simulated clock (long runs, exact windows), then the
// real client over HTTP (spacing of arrivals, Retry-After holding every caller).
import { describe, expect, it } from 'vitest';
import { RateBudget, Scheduler } from '../../src/api/pacer.js';
import { problem } from '../helpers/fake-api-server.js';
import { rig } from '../helpers/api-fixtures.js';
import { aWhoAmI } from '../helpers/builders.js';

/** Start times of `n` requests from callers that always want to go now. */
function greedy(budget: RateBudget, n: number, onEach?: (i: number, t: number) => void): number[] {
  const times: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t = budget.nextStart(t);
    budget.take(t);
    times.push(t);
    onEach?.(i, t);
  }
  return times;
}

/** Most starts inside any half-open window [t, t + ms) that begins at a start. */
function maxInWindow(times: number[], ms: number): number {
  let max = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[j]! < times[i]! - ms + 1e-9) j++;
    // window ending at times[i] (inclusive), length ms
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe('RateBudget (simulated clock)', () => {
  it('never lets more than L start in any rolling or fixed minute, yet sustains close to L', () => {
    const budget = new RateBudget({ perMinute: 300 });
    const times = greedy(budget, 1500);
    expect(budget.burst).toBe(15);
    expect(maxInWindow(times, 60_000)).toBeLessThanOrEqual(300);
    const perFixedMinute = new Map<number, number>();
    for (const t of times) perFixedMinute.set(Math.floor(t / 60_000), (perFixedMinute.get(Math.floor(t / 60_000)) ?? 0) + 1);
    expect(Math.max(...perFixedMinute.values())).toBeLessThanOrEqual(300);
    // 1500 requests at >= 290/min: the safety margin costs little
    expect(times.at(-1)!).toBeLessThanOrEqual((1500 / 290) * 60_000);
    // evenly spaced at 200 ms; the burst allowance (L/20) is the only bunching
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(5 + 15);
    const gaps = times.slice(16, 290).map((t, i) => t - times[i + 15]!);
    expect(Math.min(...gaps)).toBeCloseTo(200, 6);
  });

  it('holds every start until a pause ends, and releases them spaced, not as a stampede', () => {
    const budget = new RateBudget({ perMinute: 300 });
    let pausedAt = -1;
    const times = greedy(budget, 60, (i, t) => {
      if (i === 29) {
        pausedAt = t;
        budget.pauseUntil(t + 5000);
      }
    });
    const after = times.slice(30);
    expect(after[0]!).toBeGreaterThanOrEqual(pausedAt + 5000);
    expect(maxInWindow(after, 1000)).toBeLessThanOrEqual(1 + 5);
  });

  it('a small limit with burst 1 spaces every start evenly', () => {
    const times = greedy(new RateBudget({ perMinute: 60, burst: 1 }), 10);
    expect(times).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
  });
});

describe('the scheduler timer', () => {
  it("a pause beyond setTimeout's range waits (no overflow warning, no spinning)", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const scheduler = new Scheduler(new RateBudget({ perMinute: 60, maxPausedMs: Infinity }), 1);
    try {
      expect(scheduler.pauseFor(2 ** 40)).toBe(true);
      const ac = new AbortController();
      const waiting = scheduler.acquire(ac.signal);
      await new Promise((r) => setTimeout(r, 100));
      ac.abort(new Error('over'));
      await expect(waiting).rejects.toThrow('over');
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
    } finally {
      scheduler.close();
      process.off('warning', onWarning);
    }
  });
});

describe('pacing over HTTP', () => {
  it('spaces 40 concurrent requests at L=600/min: no second holds more than L/60 + burst', async () => {
    const { api, client } = await rig({ rateLimitPerMinute: 600, burst: 3, concurrency: 8 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    await Promise.all(Array.from({ length: 40 }, () => client.whoami()));
    const at = api.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(at).toHaveLength(40);
    expect(maxInWindow(at, 1000)).toBeLessThanOrEqual(600 / 60 + 3);
    // 37 starts after the burst at 100 ms spacing
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual(36 * 100 - 50);
    const gaps = at.slice(4).map((t, i) => t - at[i + 3]!);
    expect(gaps.reduce((a, b) => a + b, 0) / gaps.length).toBeGreaterThanOrEqual(95);
  });

  it('Retry-After pauses every caller: no request reaches the server during the pause', async () => {
    const { api, client, events } = await rig({ concurrency: 4 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    const limited = problem(429, 'too-many-requests', { headers: { 'retry-after': '1' } });
    api.inject('/v1/whoami', limited, limited, limited, limited);
    const results = await Promise.all(Array.from({ length: 8 }, () => client.whoami()));
    expect(results).toHaveLength(8);
    const first429 = api.requests.filter((r) => r.status === 429);
    expect(first429).toHaveLength(4);
    const pauseFloor = Math.max(...first429.map((r) => r.doneAt!)) + 1000;
    const later = api.requests.filter((r) => r.status !== 429);
    expect(later).toHaveLength(8);
    for (const r of later) expect(r.at).toBeGreaterThanOrEqual(pauseFloor - 2);
    expect(client.stats().rateLimited).toBe(4);
    expect(events.filter((e) => e.type === 'rate-limited')).toEqual(Array(4).fill({ type: 'rate-limited', waitMs: 1000 }));
  });
});

describe('the total of Retry-After pauses within an hour', () => {
  it('counts what each pause adds, so callers paused at once count once, and refuses the pause that would pass it', () => {
    const budget = new RateBudget({ perMinute: 300, maxPausedMs: 10_000 });
    expect(budget.pause(0, 4000)).toBe(true);
    // three more callers answered 429 during the same pause: only the 500 ms beyond it count
    expect(budget.pause(100, 3900)).toBe(true);
    expect(budget.pause(200, 4300)).toBe(true);
    expect(budget.pausedMs(200)).toBe(4500);
    expect(budget.pause(10_000, 5500)).toBe(true);
    expect(budget.pausedMs(10_000)).toBe(10_000);
    // the next one would pass the total: refused, and nobody is held by it
    expect(budget.pause(20_000, 1)).toBe(false);
    expect(budget.pausedMs(20_000)).toBe(10_000);
    expect(budget.nextStart(20_000)).toBe(20_000);
  });

  it('counts only the pauses of the last hour, by default for every command: an hour later it waits again', () => {
    const hour = 60 * 60_000;
    const budget = new RateBudget({ perMinute: 300, maxPausedMs: 10_000 });
    expect(budget.pauseWindowMs).toBe(hour);
    expect(budget.pause(0, 10_000)).toBe(true);
    expect(budget.pause(30_000, 1000)).toBe(false);
    expect(budget.pause(hour + 1, 1000)).toBe(true);
    expect(budget.pausedMs(hour + 1)).toBe(1000);
    // a shorter window where one is given
    const short = new RateBudget({ perMinute: 300, maxPausedMs: 10_000, pauseWindowMs: 60_000 });
    expect([short.pause(0, 10_000), short.pause(30_000, 1000), short.pause(60_001, 1000)]).toEqual([true, false, true]);
  });

  it('is 15 minutes by default: three of the longest single waits', () => {
    const budget = new RateBudget({ perMinute: 300 });
    expect(budget.maxPausedMs).toBe(15 * 60_000);
    expect([0, 1, 2].map((i) => budget.pause(i * 300_000, 300_000))).toEqual([true, true, true]);
    expect(budget.pause(900_000, 1000)).toBe(false);
  });
});
