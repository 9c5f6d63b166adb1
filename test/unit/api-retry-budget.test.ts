// The backoffs after a 5xx or a network failure (up to about 7.75 s per request) were waited
// outside the run's total for waits, which bounded only the 429 pauses: a service failing most
// attempts of every request kept a cron job waiting for hours. They now count in the same total
// (the connection's, RETRY_AFTER_TOTAL_MS): past it the run ends with one line, exit 5.
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../src/api/pacer.js';
import { problem } from '../helpers/fake-api-server.js';
import { failure, rig } from '../helpers/api-fixtures.js';
import { aWhoAmI } from '../helpers/builders.js';

describe("retries' backoffs count in the run's total of waits", () => {
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
      /^The metering service has had this run wait \S+ (milliseconds?|seconds?) in all \(pauses it asked for and retries after failed answers\); GET \/v1\/whoami failed again \(.+\), and another retry would pass the 1 second meterdata waits in one run; stopped instead of waiting\.$/,
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
    expect([e.code, e.details.waitedMs]).toEqual(['SERVICE_UNAVAILABLE', 1000]);
  });

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
});
