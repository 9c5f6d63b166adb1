// Every wait and every walk of the API helper is bounded (issue "Trust", section 2), against
// a hostile server on loopback: a Retry-After beyond the cap, lists that never end, answers
// too large to read. Each ends with exit 5 naming the endpoint, at once, without retrying.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, RETRY_AFTER_MAX_MS } from '../../src/api/limits.js';
import { pageOf, problem } from '../helpers/fake-api-server.js';
import { collect, failure, rig } from '../helpers/api-fixtures.js';
import { aProperty, aUnit, aWhoAmI, uuid } from '../helpers/builders.js';

let warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

describe('Retry-After is capped at 5 minutes', () => {
  it('Retry-After: 1000000000 ends the run at once with exit 5, saying when to try again, and no timer warnings', async () => {
    const { api, client } = await rig();
    api.route('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '1000000000' } }));
    const before = Date.now();
    const e = await failure(client.whoami());
    expect([e.code, e.exitCode]).toEqual(['RATE_LIMITED_TOO_LONG', 5]);
    expect(e.message).toContain('GET /v1/whoami');
    expect(e.message).toMatch(/wait \d+ days .*longer than the 5 minutes meterdata waits/);
    const at = Date.parse(/after (\S+) \(UTC\)/.exec(e.hint)![1]!);
    expect(at).toBeGreaterThanOrEqual(before + 1_000_000_000_000 - 2000);
    expect(api.hits('/v1/whoami')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });

  it('an HTTP date beyond the cap is refused the same way; one within it is waited out', async () => {
    const { api, client } = await rig();
    const far = new Date(Date.now() + RETRY_AFTER_MAX_MS + 60_000);
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': far.toUTCString() } }));
    const e = await failure(client.whoami());
    expect([e.code, e.exitCode]).toEqual(['RATE_LIMITED_TOO_LONG', 5]);
    expect(e.message).toMatch(/wait (6|7) minutes/);
    expect(e.details.retryAt).toBe(far.toISOString().replace(/\.\d{3}Z$/, 'Z'));

    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() } }));
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
  });

  it('a Retry-After of exactly the cap is still waited (the bound is inclusive)', async () => {
    const ac = new AbortController();
    const { api, client } = await rig({ signal: ac.signal });
    api.route('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': String(RETRY_AFTER_MAX_MS / 1000) } }));
    const p = client.whoami();
    setTimeout(() => ac.abort(new Error('test over')), 200);
    expect((await failure(p)).message).toBe('test over');
    expect(api.hits('/v1/whoami')).toHaveLength(1);
  });
});

describe('a run waits out Retry-After for a bounded total', () => {
  it("a service that keeps answering 429 ends the run with RATE_LIMIT_BUDGET_SPENT, exit 5, once the total is used, not after every request's six attempts", async () => {
    const { api, client } = await rig({ retryAfterTotalMs: 2500, maxAttempts: 100 });
    api.route('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '1' } }));
    const started = Date.now();
    const e = await failure(client.whoami());
    expect([e.code, e.exitCode]).toEqual(['RATE_LIMIT_BUDGET_SPENT', 5]);
    // two pauses of 1 s fit in 2.5 s, the third does not: three requests, about 2 s
    expect(api.hits('/v1/whoami')).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_900);
    expect(e.message).toBe(
      'The metering service has had this run wait 2 seconds within the last hour (HTTP 429, Retry-After) and now asks for 1 second more before the next request to GET /v1/whoami: more than the 3 seconds meterdata waits in any hour; stopped instead of waiting.',
    );
    expect(e.hint).toMatch(/^Run the command again after \S+ \(UTC\)\.$/);
    expect(e.details).toMatchObject({ budgetMs: 2500, retryAfterMs: 1000 });
    // two pauses, and the milliseconds their 429s' attempts took
    expect(e.details.waitedMs).toBeGreaterThanOrEqual(2000);
    expect(e.details.waitedMs).toBeLessThan(2400);
  });

  it("the total is the connection's: waits of different requests add up, and one within the rest is still waited", async () => {
    const { api, client } = await rig({ retryAfterTotalMs: 1500 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '1' } }));
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '1' } }));
    expect((await failure(client.whoami())).code).toBe('RATE_LIMIT_BUDGET_SPENT');
  });
});

describe('pagination ends', () => {
  it('a fresh cursor on every empty page: API_EMPTY_PAGE after the first such page, exit 5, naming the endpoint', async () => {
    const { api, client } = await rig();
    let n = 0;
    api.route('/v1/properties', () => pageOf([], `fresh-${++n}`));
    const e = await failure(collect(client.listProperties()));
    expect([e.code, e.exitCode]).toEqual(['API_EMPTY_PAGE', 5]);
    expect(e.message).toContain('list GET /v1/properties does not end');
    expect(api.hits('/v1/properties')).toHaveLength(1);
  });

  it('a cycle under fresh cursors (the same items again): API_PAGE_REPEATS, nothing handed on twice', async () => {
    const { api, client } = await rig();
    const items = [aUnit(), aUnit()];
    let n = 0;
    api.route('/v1/usage-units', () => pageOf(items, `fresh-${++n}`));
    const seen: string[] = [];
    const e = await failure(
      (async () => {
        for await (const p of client.listUsageUnits()) seen.push((p as { id: string }).id);
      })(),
    );
    expect([e.code, e.exitCode]).toEqual(['API_PAGE_REPEATS', 5]);
    expect(e.message).toContain(`listed ${items[0]!.id} again on page 2`);
    expect(seen).toEqual(items.map((p) => p.id));
  });

  it('a meter listed again with its id in capitals on one page (a plant meter would be billed twice): API_PAGE_REPEATS, told as a list naming it twice', async () => {
    const { api, client } = await rig();
    const pid = uuid();
    const plant = { id: 'abcdef00-0000-4000-8000-00000000abcd', usage_unit_id: null, property_id: pid, allocations: [] };
    api.route(`/v1/properties/${pid}/measuring-points`, pageOf([plant, { ...plant, id: plant.id.toUpperCase() }], null));
    const e = await failure(collect(client.listPropertyMeasuringPoints(pid)));
    expect([e.code, e.exitCode]).toEqual(['API_PAGE_REPEATS', 5]);
    // one page, no loop (round 34a: it said "instead of looping forever")
    expect(e.message).toBe(
      `The metering service's list GET /v1/properties/${pid}/measuring-points names ABCDEF00-0000-4000-8000-00000000ABCD twice; an entry listed twice would be billed twice, so the list was not used.`,
    );
  });

  // Round 36a F2: a repeat on a later page that ends the list, or within one page, was still "does not end … looping forever"
  it('an item twice on the last page, or again on it, is a list naming it twice, not an endless one', async () => {
    const [a, b] = [aUnit(), aUnit()];
    for (const last of [
      [b, b],
      [b, a],
    ]) {
      const { api, client } = await rig();
      api.route('/v1/usage-units', (req: { url: string }) => (req.url.includes('page_cursor') ? pageOf(last, null) : pageOf([a], 'c2')));
      const e = await failure(collect(client.listUsageUnits()));
      expect([e.code, e.exitCode]).toEqual(['API_PAGE_REPEATS', 5]);
      expect(e.message).toMatch(/^The metering service's list GET \/v1\/usage-units names \S+ twice; an entry listed twice would be billed twice/);
    }
  });

  it('more pages than any data can need: API_TOO_MANY_PAGES at maxPages', async () => {
    const { api, client } = await rig({ maxPages: 4 });
    let n = 0;
    api.route('/v1/properties', () => pageOf([aProperty()], `fresh-${++n}`));
    const e = await failure(collect(client.listProperties()));
    expect([e.code, e.exitCode]).toEqual(['API_TOO_MANY_PAGES', 5]);
    expect(e.message).toContain('after 4 pages (800 items');
    expect(api.hits('/v1/properties')).toHaveLength(4);
  });

  it('a list of exactly maxPages pages is read to the end', async () => {
    const { api, client } = await rig({ maxPages: 3 });
    api.route('/v1/properties', (r) => {
      const page = Number(r.query.get('page_cursor') ?? '1');
      return pageOf([aProperty({ id: uuid() })], page < 3 ? String(page + 1) : null);
    });
    expect(await collect(client.listProperties())).toHaveLength(3);
  });
});

describe('one answer has a size cap', () => {
  it('an answer beyond 32 MiB without a length: stops reading it, API_ANSWER_TOO_LARGE, exit 5, not retried', async () => {
    const { api, client } = await rig();
    const sent = { bytes: 0 };
    api.route('/v1/whoami', { stream: { bytes: 300 * 1024 * 1024 }, sent });
    const e = await failure(client.whoami());
    expect([e.code, e.exitCode]).toEqual(['API_ANSWER_TOO_LARGE', 5]);
    expect(e.message).toBe(
      "The metering service's answer to GET /v1/whoami is larger than 32 MiB, meterdata's limit for one answer (a full page of 200 items is far smaller); stopped reading it.",
    );
    expect(api.hits('/v1/whoami')).toHaveLength(1);
    // the client hung up: the server got nowhere near its 300 MB
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.bytes).toBeLessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024);
  });

  it('an announced 600 MB answer is refused before its body is read', async () => {
    const { api, client } = await rig();
    const sent = { bytes: 0 };
    api.route('/v1/whoami', { stream: { bytes: 600 * 1024 * 1024, announce: true }, sent });
    const e = await failure(client.whoami());
    expect(e.code).toBe('API_ANSWER_TOO_LARGE');
    expect(e.message).not.toMatch(/connection failed/);
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('the cap is configurable and an answer at the cap is read', async () => {
    const body = JSON.stringify(aWhoAmI());
    const { api, client } = await rig({ maxAnswerBytes: Buffer.byteLength(body) });
    api.route('/v1/whoami', { body });
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    api.route('/v1/whoami', { body: `${body} ` });
    expect((await failure(client.whoami())).message).toMatch(/larger than \d+ bytes/);
  });
});
