// Every API error row of the contract (400/401/403/404/429/500/503) with problem fields and
// headers, the rate limit, fault injection and future-contract mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultSpecs } from '../../src/sandbox/api/index.js';
import { musterstrasse, startApi, type Got, type Harness } from '../helpers/api-harness.js';

const TYPE = (code: string) => `https://developer.example/errors/#${code}`;
function expectProblem(r: Got, status: number, code: string, instance: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/problem+json');
  expect(r.body.type).toBe(TYPE(code));
  expect(typeof r.body.title).toBe('string');
  expect(r.body.title.length).toBeGreaterThan(0);
  expect(r.body.status).toBe(status);
  expect(r.body.instance).toBe(`/v1${instance}`);
  expect(r.body.trace_id).toMatch(/^[0-9a-f]{16}$/);
  if (status === 500 || status === 503) expect('detail' in r.body).toBe(false);
  else expect(typeof r.body.detail).toBe('string');
}

let h: Harness;
let unitId: string;
beforeAll(async () => {
  h = await startApi();
  unitId = (await musterstrasse(h)).unit('WE 01').id;
});
afterAll(() => h.close());

describe('400 invalid-request names the parameter', () => {
  const cases: [string, RegExp][] = [
    ['/properties?limit=0', /'limit'/],
    ['/properties?limit=201', /'limit'.*1 to 200/],
    ['/usage-units?limit=abc', /'limit'.*'abc'/],
    ['/usage-units?page_cursor=bogus', /'page_cursor'/],
    ['/usage-units?property_id=nope', /'property_id'.*'nope'/],
  ];
  it.each(cases)('%s', async (path, detail) => {
    const r = await h.get(path);
    expectProblem(r, 400, 'invalid-request', path.split('?')[0]!);
    expect(r.body.detail).toMatch(detail);
  });
  it('a cursor of another list is rejected', async () => {
    const c = (await h.get('/usage-units?limit=2')).body.next_cursor;
    const r = await h.get(`/properties?page_cursor=${c}`);
    expectProblem(r, 400, 'invalid-request', '/properties');
  });
  it('dates: missing, malformed, not a real day, to before from, unknown metric', async () => {
    const c = `/usage-units/${unitId}/consumption`;
    const d1 = (await h.get(`${c}?to=2025-12-31`)).body.detail;
    expect(d1).toMatch(/'from'.*required.*yyyy-MM-dd/);
    const d2 = await h.get(`${c}?from=2025-13-01&to=2025-12-31`);
    expectProblem(d2, 400, 'invalid-request', c);
    expect(d2.body.detail).toBe("Query parameter 'from' has the value '2025-13-01', which is not a date in ISO 8601 format yyyy-MM-dd.");
    expect((await h.get(`${c}?from=2025-01-01&to=2025-02-30`)).body.detail).toMatch(
      /'to'.*'2025-02-30'.*ISO 8601 yyyy-MM-dd|'to'.*'2025-02-30'.*ISO 8601 format yyyy-MM-dd/,
    );
    expect((await h.get(`${c}?from=01.01.2025&to=2025-12-31`)).status).toBe(400);
    expect((await h.get(`${c}?from=2025-06-01&to=2025-05-31`)).body.detail).toMatch(/'to'.*before 'from'/);
    const m = await h.get(`${c}?from=2025-01-01&to=2025-12-31&metric=heat,steam`);
    expect(m.status).toBe(400);
    expect(m.body.detail).toMatch(/'metric'.*'steam'/);
    expect((await h.get(`/measuring-points/${(await musterstrasse(h)).points[0].id}/readings?from=x&to=2025-01-31`)).body.detail).toMatch(/'from'.*'x'/);
  });
});

describe('401 invalid-token', () => {
  it('missing or unknown token: WWW-Authenticate error="invalid_token"', async () => {
    for (const token of [null, 'no-such-token']) {
      const r = await h.get('/whoami', token);
      expectProblem(r, 401, 'invalid-token', '/whoami');
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    }
  });
  it('a bad DPoP proof: DPoP scheme with error="invalid_dpop_proof"', async () => {
    const r = await h.get('/properties', 'full', { headers: { authorization: 'DPoP full', dpop: 'forged' } });
    expectProblem(r, 401, 'invalid-token', '/properties');
    expect(r.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
  });
  it("the landlord's API access has ended", async () => {
    const r = await h.get('/whoami', 'ended');
    expectProblem(r, 401, 'invalid-token', '/whoami');
    expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});

describe('403 insufficient-scope', () => {
  it('names the scope in WWW-Authenticate and says how to obtain it', async () => {
    for (const [path, scope] of [
      [`/usage-units/${unitId}/consumption?from=2025-01-01&to=2025-12-31`, 'read:readings'],
      [`/measuring-points/00000000-0000-4000-8000-000000000001`, 'read:devices'],
    ] as const) {
      const r = await h.get(path, 'unitsonly');
      expectProblem(r, 403, 'insufficient-scope', path.split('?')[0]!);
      expect(r.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
      expect(r.body.detail).toContain(scope);
      expect(r.body.detail).toMatch(/consent/);
    }
    expect((await h.get('/usage-units', 'unitsonly')).status).toBe(200);
    expect((await h.get('/whoami', 'unitsonly')).status).toBe(200);
  });
  it('uses the DPoP scheme for a DPoP-bound token', async () => {
    const r = await h.get(`/usage-units/${unitId}/consumption?from=2025-01-01&to=2025-12-31`, 'unitsonly', { dpop: true });
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toBe('DPoP error="insufficient_scope", scope="read:readings"');
  });
});

describe('404 resource-not-found', () => {
  it('unknown paths are problems too', async () => {
    const r = await h.get('/meters');
    expectProblem(r, 404, 'resource-not-found', '/meters');
    expect(r.body.detail).toContain('/v1/meters');
  });
});

describe('rate limit', () => {
  it('counts per connection (sid): 429 with integer Retry-After; another connection is unaffected', async () => {
    const rl = await startApi({ rateLimitPerMinute: 5 });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await rl.get('/whoami')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const r = await rl.get('/properties');
      expectProblem(r, 429, 'too-many-requests', '/properties');
      const ra = r.headers.get('retry-after')!;
      expect(ra).toMatch(/^\d+$/);
      expect(Number(ra)).toBeGreaterThanOrEqual(1);
      expect(Number(ra)).toBeLessThanOrEqual(60);
      expect((await rl.get('/whoami', 'second')).status).toBe(200);
      expect(rl.log.tooManyRequests).toBe(2);
      expect(rl.log.bySid.get('sid-full')).toBe(7);
    } finally {
      await rl.close();
    }
  });
  it('requests with failing tokens are counted per caller address', async () => {
    const rl = await startApi({ rateLimitPerMinute: 3 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await rl.get('/whoami', 'bad')).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect((await rl.get('/whoami')).status).toBe(200);
    } finally {
      await rl.close();
    }
  });
});

describe('fault injection', () => {
  it('parses specs and rejects bad ones with a clear message', () => {
    expect(parseFaultSpecs(['429:0.05', '500@12,13', 'slow:0.1:2000', 'drop:0.05', 'truncate:0.5', '503:0.1']).rules).toEqual([
      { kind: '429', rate: 0.05 },
      { kind: '500', at: [12, 13] },
      { kind: 'slow', rate: 0.1, ms: 2000 },
      { kind: 'drop', rate: 0.05 },
      { kind: 'truncate', rate: 0.5 },
      { kind: '503', rate: 0.1 },
    ]);
    expect(() => parseFaultSpecs(['418:0.1'])).toThrow(/Invalid fault spec '418:0.1': unknown kind/);
    expect(() => parseFaultSpecs(['500:2'])).toThrow(/rate must be a number from 0 to 1/);
    expect(() => parseFaultSpecs(['500'])).toThrow(/KIND:RATE or KIND@N,N/);
    expect(() => parseFaultSpecs(['500@0'])).toThrow(/whole numbers/);
  });
  it('answers 429/500/503 at the given request numbers, then recovers', async () => {
    const f = await startApi({ faults: parseFaultSpecs(['429@1', '500@2', '503@3']) });
    try {
      const a = await f.get('/properties');
      expectProblem(a, 429, 'too-many-requests', '/properties');
      expect(a.headers.get('retry-after')).toBe('1');
      expectProblem(await f.get('/properties'), 500, 'internal-error', '/properties');
      const c = await f.get('/properties');
      expectProblem(c, 503, 'service-unavailable', '/properties');
      expect((await f.get('/properties')).status).toBe(200);
      expect(f.log.toJSON()).toMatchObject({
        total: 4,
        too_many_requests: 1,
        by_status: { '429': 1, '500': 1, '503': 1, '200': 1 },
        faults: { '429': 1, '500': 1, '503': 1 },
      });
    } finally {
      await f.close();
    }
  });
  it('drops the connection, truncates a body against its Content-Length, and slows answers', async () => {
    const f = await startApi({ faults: parseFaultSpecs(['drop@1', 'truncate@2', 'slow@3:300']) });
    try {
      await expect(f.get('/properties')).rejects.toThrow();
      await expect(f.get('/usage-units')).rejects.toThrow();
      const t0 = performance.now();
      expect((await f.get('/whoami')).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
      expect(f.log.toJSON().by_status).toMatchObject({ dropped: 1, '200': 2 });
      expect(f.log.toJSON().faults).toEqual({ drop: 1, truncate: 1, slow: 1 });
    } finally {
      await f.close();
    }
  });
  it('rates are seeded: the same plan hits the same request numbers', async () => {
    const run = async () => {
      const f = await startApi({ faults: parseFaultSpecs(['500:0.3']) });
      const s = [];
      for (let i = 0; i < 20; i++) s.push((await f.get('/whoami')).status);
      await f.close();
      return s;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    expect(a.filter((s) => s === 500).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
  });
});

describe('request log', () => {
  it('counts per endpoint template, status and sid', async () => {
    const l = await startApi();
    try {
      await l.get(`/usage-units/${unitId}/consumption?from=2025-01-01&to=2025-12-31`);
      await l.get(`/usage-units/${unitId}`);
      await l.get('/whoami', 'sued');
      await l.get('/nothing');
      const j = l.log.toJSON();
      expect(j.by_endpoint).toEqual({ 'GET /usage-units/{id}/consumption': 1, 'GET /usage-units/{id}': 1, 'GET /whoami': 1, unknown: 1 });
      expect(j.by_sid).toEqual({ 'sid-full': 2, 'sid-sued': 1 });
      expect(j.by_status).toEqual({ '200': 3, '404': 1 });
      expect(l.log.count('GET /usage-units/{id}')).toBe(1);
    } finally {
      await l.close();
    }
  });
});

describe('future-contract mode', () => {
  it('adds unknown fields and unknown enum values in a deterministic subset', async () => {
    const f = await startApi({ futureContract: true });
    try {
      const units = (await f.get('/usage-units?limit=200')).body.data;
      expect(units[0].x_revision).toBe(2);
      expect((await f.get('/usage-units?limit=200')).body.x_contract_version).toBe('1.1.0');
      expect((await f.get('/whoami')).body.x_contract_version).toBe('1.1.0');
      expect(units.some((u: any) => u.unit_type === 'parking')).toBe(true);
      expect(units.some((u: any) => u.measuring_points.some((m: any) => m.metric === 'heat_pump_power'))).toBe(true);
      const texts: string[] = [];
      for (const u of units.slice(0, 21)) texts.push((await f.get(`/usage-units/${u.id}/consumption?from=2025-01-01&to=2025-12-31`)).text);
      const all = texts.join('\n');
      expect(all).toContain('"baseline_origin":"estimated_by_ai"');
      expect(all).toContain('"status":"estimated"');
      const again = await startApi({ futureContract: true });
      expect((await again.get(`/usage-units/${units[3].id}/consumption?from=2025-01-01&to=2025-12-31`)).text).toBe(texts[3]);
      await again.close();
      // Off by default.
      expect((await h.get('/usage-units?limit=200')).text).not.toContain('x_revision');
    } finally {
      await f.close();
    }
  });
});
