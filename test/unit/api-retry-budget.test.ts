// The backoffs after a 5xx or a network failure (up to about 7.75 s per request) were waited
// outside the run's total for waits, which bounded only the 429 pauses: a service failing most
// attempts of every request kept a cron job waiting for hours. They now count in the same total
// (the connection's, RETRY_AFTER_TOTAL_MS): past it the run ends with one line, exit 5. So does
// the time of the failed attempts themselves: a service that never answers spends the run's time
// in attempts waiting out their timeout (6 of 30 s per request), which counted toward no total.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../src/api/pacer.js';
import { problem } from '../helpers/fake-api-server.js';
import { failure, rig } from '../helpers/api-fixtures.js';
import { aWhoAmI } from '../helpers/builders.js';

describe("retries' backoffs count in the total of waits", () => {
  it('a service answering 503 to every attempt ends the run once the total is used, not after every attempt', async () => {
    // backoffs of 100-200 ms: 2 s of retries would take about 15 of the 100 attempts
    const { api, client } = await rig({ retryAfterTotalMs: 1000, maxAttempts: 100, retryBaseMs: 200, retryMaxMs: 200 });
    api.route('/v1/whoami', problem(503, 'service-unavailable'));
    const started = Date.now();
    const e = await failure(client.whoami());
    const ms = Date.now() - started;
    expect([e.code, e.exitCode]).toEqual(['SERVICE_UNAVAILABLE', 5]);
    expect(ms).toBeLessThan(3_000);
    // 1000 ms hold 5 to 10 backoffs of 100-200 ms
    expect(api.hits('/v1/whoami').length).toBeGreaterThanOrEqual(6);
    expect(api.hits('/v1/whoami').length).toBeLessThanOrEqual(11);
    expect(e.message).toMatch(
      /^The metering service has had this run wait \S+ (milliseconds?|seconds?) within the last hour \(pauses it asked for, failed attempts and the waits before retrying them\); GET \/v1\/whoami failed again \(.+\), and another retry would pass the 1 second meterdata waits in any hour; stopped instead of waiting\.$/,
    );
    expect(e.details).toMatchObject({ budgetMs: 1000, lastStatus: 503 });
    expect(e.details.waitedMs).toBeLessThanOrEqual(1000);
  }, 60_000);

  it("a 429's pause and a later backoff share the total", async () => {
    // the pause takes 1000 of 1200 ms; the backoff (400-800 ms) does not fit in the rest
    const { api, client } = await rig({ retryAfterTotalMs: 1200, retryBaseMs: 800, retryMaxMs: 800 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '1' } }));
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    api.inject('/v1/whoami', problem(503, 'service-unavailable'));
    const e = await failure(client.whoami());
    // the pause, and the few milliseconds the 429's attempt took
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
    expect(e.details.waitedMs).toBeGreaterThanOrEqual(1000);
    expect(e.details.waitedMs).toBeLessThan(1150);
  });

  it('attempts that time out count toward the total: four requests that never answer end after a bounded count and time', async () => {
    // each attempt waits out its 300 ms timeout; backoffs are 5-10 ms, so the total of 1 s is spent in the attempts
    const { api, client } = await rig({ retryAfterTotalMs: 1000, maxAttempts: 6, retryBaseMs: 10, retryMaxMs: 10, requestTimeoutMs: 300 });
    api.route('/v1/whoami', { json: aWhoAmI(), delayMs: 5000 });
    const started = Date.now();
    const errors = await Promise.all([0, 1, 2, 3].map(() => failure(client.whoami())));
    const ms = Date.now() - started;
    // before: every request made all 6 attempts (24 in all, 1.8 s), the backoffs' 60 ms counted
    expect(errors.map((e) => [e.code, e.exitCode])).toEqual(Array(4).fill(['SERVICE_UNAVAILABLE', 5]));
    expect(errors.every((e) => e.details.budgetMs === 1000 && e.details.waitedMs <= 1000)).toBe(true);
    // 1000 ms hold three rounds of 300 ms attempts (and their backoffs): a fourth attempt's retry would pass it
    expect(api.hits('/v1/whoami').length).toBeLessThanOrEqual(16);
    expect(ms).toBeLessThan(1_750);
  }, 60_000);

  it('429s that are slow to come count their attempts toward the total, as 503s do', async () => {
    // each attempt takes 300 ms to be told 429 with Retry-After: 0; 1000 ms hold about three of them
    const { api, client } = await rig({ retryAfterTotalMs: 1000, maxAttempts: 100, retryBaseMs: 10, retryMaxMs: 10 });
    api.route('/v1/whoami', { ...problem(429, 'too-many-requests', { headers: { 'retry-after': '0' } }), delayMs: 300 });
    const started = Date.now();
    const e = await failure(client.whoami());
    // before: all 100 attempts (30 s), none of their time counted
    expect([e.code, e.exitCode]).toEqual(['RATE_LIMIT_BUDGET_SPENT', 5]);
    expect(e.details).toMatchObject({ budgetMs: 1000 });
    expect(api.hits('/v1/whoami').length).toBeLessThanOrEqual(5);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

  it("a 429 whose headers come at once and its body slowly counts the body's time toward the total too", async () => {
    // headers (429, Retry-After: 0) at once, the body 300 ms later: 1000 ms hold about three such attempts
    const server = createServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '0' });
      res.flushHeaders();
      setTimeout(() => res.end((problem(429, 'too-many-requests') as { body: string }).body), 300);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { client } = await rig({ baseUrl: `http://127.0.0.1:${port}/v1`, retryAfterTotalMs: 1000, maxAttempts: 100, retryBaseMs: 10, retryMaxMs: 10 });
      const started = Date.now();
      const e = await failure(client.whoami());
      // before: all 100 attempts (30 s), none of the bodies' time counted
      expect(e.exitCode).toBe(5);
      expect(e.details).toMatchObject({ budgetMs: 1000 });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('a backoff within the total is waited, and the request answered', async () => {
    const { api, client } = await rig({ retryAfterTotalMs: 1000, retryBaseMs: 100, retryMaxMs: 100 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(503, 'service-unavailable'));
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    expect(api.hits('/v1/whoami')).toHaveLength(2);
  });
});

describe('RateBudget.wait', () => {
  it('counts callers waiting at once once, and refuses a wait past the total without counting it', () => {
    const b = new RateBudget({ perMinute: 60, maxPausedMs: 1000 });
    expect([b.wait(0, 600), b.wait(100, 600), b.pausedMs(100)]).toEqual([true, true, 700]);
    expect([b.wait(800, 400), b.pausedMs(800)]).toEqual([false, 700]);
    expect([b.pause(800, 300), b.pausedMs(800)]).toEqual([true, 1000]);
  });

  it("counts a failed attempt's time before its backoff, callers failing at once once", () => {
    const b = new RateBudget({ perMinute: 60, maxPausedMs: 1000 });
    // two attempts timed out over [0, 300], each backing off 10 ms: 310 ms, not 620 and not 20
    expect([b.wait(300, 10, 300), b.wait(300, 10, 300), b.pausedMs(300)]).toEqual([true, true, 310]);
    expect([b.wait(610, 10, 300), b.pausedMs(610)]).toEqual([true, 620]);
    expect([b.wait(920, 10, 300), b.pausedMs(920)]).toEqual([true, 930]);
    expect([b.wait(1230, 10, 300), b.pausedMs(1230)]).toEqual([false, 930]);
  });

  // A simulated clock: a failed attempt that timed out after 30 s, then a backoff of 4 s, every `every` ms from `start`.
  const MIN = 60_000;
  const timeouts = (b: RateBudget, n: number, every: number, start = 0) =>
    Array.from({ length: n }, (_, i) => b.wait(start + i * every + 30_000, 4000, 30_000));

  it('isolated failures over three hours all pass: each hour of the run loses 34 s every 6 minutes, not a 15-minute total of the run', () => {
    const b = new RateBudget({ perMinute: 300 });
    // 30 failures, 17 minutes of failed attempts and backoffs in all, at most 5.7 minutes in any hour
    const passed = timeouts(b, 30, 6 * MIN);
    expect(passed).toEqual(Array(30).fill(true));
    expect(b.pausedMs(180 * MIN)).toBeLessThanOrEqual(11 * 34_000);
  });

  it('dense failures within one hour still end the run once they pass 15 minutes in that hour', () => {
    const b = new RateBudget({ perMinute: 300 });
    // three in the run's first hour, then one a minute from its second: 34 s each, so the 27th would pass 15 minutes
    // within its hour (the first hour's three no longer count; counted for the whole run, the 24th was refused)
    expect(timeouts(b, 3, 6 * MIN)).toEqual([true, true, true]);
    const dense = timeouts(b, 40, MIN, 60 * MIN);
    expect(dense.indexOf(false)).toBe(26);
    expect(b.pausedMs(86 * MIN + 30_000)).toBe(26 * 34_000);
  });
});
