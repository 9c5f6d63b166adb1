// The API helper when things go wrong, over real HTTP: retries with backoff, exhausted
// attempts, corrupt bodies, timeouts, 401 refresh, 403 scope, 404 seen vs never seen, 400.
import { describe, expect, it } from 'vitest';
import { AccessWithdrawnError, NotSignedInError, ServiceUnavailableError } from '../../src/core/errors.js';
import { ApiProblemError } from '../../src/api/problems.js';
import { pageOf, problem } from '../helpers/fake-api-server.js';
import { collect, failure, rig } from '../helpers/api-fixtures.js';
import { aPointSummary, aProperty, aUnit, aUnitConsumption, aWhoAmI, uuid } from '../helpers/builders.js';

describe('transient failures', () => {
  it('retries 503, 500, a dropped connection, a truncated and an invalid body, then succeeds', async () => {
    const { api, client, events } = await rig();
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject(
      '/v1/whoami',
      problem(503, 'service-unavailable'),
      problem(500, 'internal-error'),
      { destroy: true },
      { truncate: aWhoAmI() },
      { body: '{"tenant_id": "x", "tena' },
    );
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    expect(api.hits('/v1/whoami')).toHaveLength(6);
    expect(client.stats()).toMatchObject({ requests: 6, retries: 5 });
    const reasons = events.filter((e) => e.type === 'retry').map((e) => (e as { reason: string }).reason);
    expect(reasons[0]).toBe('HTTP 503 service-unavailable');
    expect(reasons[1]).toBe('HTTP 500 internal-error');
    expect(reasons[2]).toMatch(/^connection failed \(UND_ERR_SOCKET\)|^connection failed \(ECONNRESET\)/);
    expect(reasons[3]).toMatch(/connection failed|truncated or invalid JSON/);
    expect(reasons[4]).toBe('truncated or invalid JSON body');
  });

  it('backs off exponentially with jitter between attempts', async () => {
    const { api, client, events } = await rig({ retryBaseMs: 40, retryMaxMs: 100, maxAttempts: 5 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', ...Array.from({ length: 4 }, () => problem(503, 'service-unavailable')));
    await client.whoami();
    const waits = events.filter((e) => e.type === 'retry').map((e) => (e as { waitMs: number }).waitMs);
    // ceilings 40, 80, 100 (cap), 100; equal jitter keeps each in [ceiling/2, ceiling]
    [40, 80, 100, 100].forEach((ceiling, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(ceiling / 2);
      expect(waits[i]).toBeLessThanOrEqual(ceiling);
    });
    const gaps = api.requests.slice(1).map((r, i) => r.at - api.requests[i]!.at);
    gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(waits[i]! - 2));
  });

  it('gives up after maxAttempts with a ServiceUnavailableError (exit 5) naming the endpoint and the last failure', async () => {
    const { api, client } = await rig({ maxAttempts: 4 });
    api.route('/v1/properties', problem(503, 'service-unavailable'));
    const e = await failure(collect(client.listProperties()));
    expect(e).toBeInstanceOf(ServiceUnavailableError);
    expect(e.exitCode).toBe(5);
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
    expect(e.message).toContain('GET /v1/properties after 4 attempts (last: HTTP 503 service-unavailable, trace id trace-service-unavailable-503)');
    expect(api.requests).toHaveLength(4);
  });

  it('retries an answer that does not come within the request timeout', async () => {
    const { api, client, events } = await rig({ requestTimeoutMs: 150 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', { json: aWhoAmI(), delayMs: 1000 });
    await client.whoami();
    expect(api.hits('/v1/whoami')).toHaveLength(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'no answer within 150 ms', status: null });
  });

  it('429s beyond the attempts end in RATE_LIMITED (exit 5)', async () => {
    const { api, client } = await rig({ maxAttempts: 3 });
    api.route('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '0' } }));
    const e = await failure(client.whoami());
    expect([e.code, e.exitCode]).toEqual(['RATE_LIMITED', 5]);
    expect(client.stats()).toMatchObject({ requests: 3, rateLimited: 3 });
  });

  it('stops at once when the caller aborts', async () => {
    const ac = new AbortController();
    const { api, client } = await rig({ signal: ac.signal });
    api.route('/v1/whoami', { json: aWhoAmI(), delayMs: 2000 });
    const p = client.whoami();
    setTimeout(() => ac.abort(new Error('cancelled by user')), 50);
    expect((await failure(p)).message).toBe('cancelled by user');
    expect(api.requests).toHaveLength(1);
  });

  it('stops during a backoff wait when the caller aborts', async () => {
    const ac = new AbortController();
    const { api, client } = await rig({ signal: ac.signal, retryBaseMs: 5000, retryMaxMs: 5000 });
    api.route('/v1/whoami', problem(503, 'service-unavailable'));
    const started = performance.now();
    const p = client.whoami();
    setTimeout(() => ac.abort(new Error('cancelled by user')), 100);
    expect((await failure(p)).message).toBe('cancelled by user');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(api.requests).toHaveLength(1);
  });
});

describe('401: refresh once, then give up', () => {
  it('refreshes exactly once with the rejected token and retries with the new one', async () => {
    const { api, client, creds, events } = await rig();
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(401, 'invalid-token', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } }));
    await client.whoami();
    expect(creds.refreshes).toBe(1);
    expect(creds.rejected).toEqual(['tok-1']);
    expect(api.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(events.filter((e) => e.type === 'refreshed')).toHaveLength(1);
  });

  it('a second 401 after the refresh is NotSignedInError (exit 3), without the token in the message', async () => {
    const { api, client, creds } = await rig();
    api.route('/v1/whoami', problem(401, 'invalid-token', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } }));
    const e = await failure(client.whoami());
    expect(e).toBeInstanceOf(NotSignedInError);
    expect([e.code, e.exitCode]).toEqual(['AUTH_REJECTED', 3]);
    expect(e.hint).toContain('meterdata login');
    expect(creds.refreshes).toBe(1);
    expect(api.requests).toHaveLength(2);
    expect(JSON.stringify({ m: e.message, h: e.hint, d: e.details })).not.toMatch(/tok-\d/);
  });

  it('concurrent 401s share one refresh', async () => {
    const { api, client, creds } = await rig();
    api.route('/v1/whoami', (r) =>
      r.headers.authorization === 'Bearer tok-1'
        ? problem(401, 'invalid-token', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
        : { json: aWhoAmI() },
    );
    await Promise.all(Array.from({ length: 6 }, () => client.whoami()));
    expect(creds.refreshes).toBe(1);
    expect(creds.rejected).toEqual(Array(6).fill('tok-1'));
    expect(api.requests.filter((r) => r.headers.authorization === 'Bearer tok-2')).toHaveLength(6);
  });

  it('invalid_dpop_proof: one retry with a fresh proof and no refresh, then NotSignedInError', async () => {
    const { api, client, creds } = await rig({ dpop: true });
    const dpop401 = problem(401, 'invalid-token', { headers: { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' } });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', dpop401);
    await client.whoami();
    const [a, b] = api.requests;
    expect(a!.headers.dpop).not.toBe(b!.headers.dpop);
    expect(creds.refreshes).toBe(0);
    api.inject('/v1/whoami', dpop401, dpop401);
    expect((await failure(client.whoami())).code).toBe('AUTH_DPOP_REJECTED');
  });
});

describe('property scope re-checked after a token refresh', () => {
  it('re-reads /whoami once when the token changed and carries on while the scope still covers what was seen', async () => {
    const { api, client, creds } = await rig();
    const p = aProperty({ id: uuid(), name: 'Lindenhof' });
    api.route('/v1/properties', pageOf([p], null));
    api.route(`/v1/properties/${p.id}`, { json: p });
    api.route('/v1/whoami', { json: aWhoAmI({ property_scope: [p.id] }) });
    await collect(client.listProperties());
    creds.token = 'tok-rotated';
    await Promise.all([client.getProperty(p.id), client.getProperty(p.id)]);
    await client.getProperty(p.id);
    // the change shows on the first requests with the new token; the next call re-reads /whoami once
    expect(api.requests.map((r) => r.pathname.replace(p.id, 'P'))).toEqual([
      '/v1/properties',
      '/v1/properties/P',
      '/v1/properties/P',
      '/v1/whoami',
      '/v1/properties/P',
    ]);
    expect(api.requests.at(-1)!.headers.authorization).toBe('Bearer tok-rotated');
  });

  it('a property seen earlier and missing from the new scope is AccessWithdrawnError', async () => {
    const { api, client, creds } = await rig();
    const [a, b] = [aProperty({ id: uuid(), name: 'Lindenhof' }), aProperty({ id: uuid(), name: 'Eichenhof' })];
    api.route('/v1/properties', pageOf([a, b], null));
    api.route(`/v1/properties/${a.id}`, { json: a });
    api.route('/v1/whoami', { json: aWhoAmI({ property_scope: [a.id] }) });
    await collect(client.listProperties());
    await client.getProperty(a.id);
    creds.token = 'tok-rotated';
    await client.getProperty(a.id);
    const e = await failure(client.getProperty(a.id));
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect(e.message).toContain('property "Eichenhof"');
  });
});

describe('403, 404 and 400', () => {
  it('403 names the missing scope and how to get it (exit 3)', async () => {
    const { api, client } = await rig();
    const u = uuid();
    api.route(
      `/v1/usage-units/${u}/consumption`,
      problem(403, 'insufficient-scope', { headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="read:readings"' } }),
    );
    const e = await failure(client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toBeInstanceOf(ApiProblemError);
    expect([e.code, e.exitCode, e.status, e.traceId]).toEqual(['AUTH_INSUFFICIENT_SCOPE', 3, 403, 'trace-insufficient-scope-403']);
    expect(e.message).toContain('"read:readings"');
    expect(e.hint).toBe("Sign in again with it: meterdata login --scope 'read:units read:devices read:readings'");
  });

  it('404 on a unit listed earlier is withdrawn access: re-checks /whoami and names the unit (exit 4)', async () => {
    const { api, client } = await rig();
    const u = aUnit({ id: uuid(), name: 'WE 07 Dachgeschoss' });
    api.route('/v1/usage-units', pageOf([u], null));
    api.route('/v1/whoami', { json: aWhoAmI({ property_scope: [uuid()] }) });
    await collect(client.listUsageUnits());
    const e = await failure(client.unitConsumption(u.id, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect(e.exitCode).toBe(4);
    // the unit's Property left the selection: that is what the landlord changed, so it is named first
    expect(e.message).toContain(`Access to property "${u.property.name}" (${u.property_id}) was withdrawn: the landlord's selection`);
    expect(e.message).toContain(`its unit "WE 07 Dachgeschoss" (${u.id}) answered "not found"`);
    expect(e.message).toContain('now covers 1 selected property)');
    expect(e.details).toMatchObject({ kind: 'unit', id: u.id, propertyId: u.property_id, traceId: 'trace-resource-not-found-404' });
    expect(api.requests.map((r) => r.pathname)).toEqual(['/v1/usage-units', `/v1/usage-units/${u.id}/consumption`, '/v1/whoami']);
  });

  it('404 on a unit whose Property is still selected names the unit and its Property (exit 4)', async () => {
    const { api, client } = await rig();
    const u = aUnit({ id: uuid(), name: 'WE 08' });
    api.route('/v1/usage-units', pageOf([u], null));
    api.route('/v1/whoami', { json: aWhoAmI({ property_scope: [u.property_id, uuid()] }) });
    await collect(client.listUsageUnits());
    const e = await failure(client.unitConsumption(u.id, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect(e.message).toBe(
      `Access to unit "WE 08" (${u.id}) of property "${u.property.name}" (${u.property_id}) was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers 2 selected properties).`,
    );
  });

  it('404 on a measuring point seen inside a unit answer also counts as seen', async () => {
    const { api, client } = await rig();
    const pointId = uuid();
    const u = aUnit({ id: uuid(), name: 'WE 01', property_id: uuid(), measuring_points: [aPointSummary({ measuring_point_id: pointId })] });
    api.route(`/v1/usage-units/${u.id}`, { json: u });
    api.route('/v1/whoami', { json: aWhoAmI() });
    await client.getUsageUnit(u.id);
    const e = await failure(client.pointReadings(pointId, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect(e.message).toContain('measuring point "heat point (device H-1001)"');
  });

  it('404 on an id never seen is a plain not-found (exit 2) and does not call /whoami', async () => {
    const { api, client } = await rig();
    const p = uuid();
    const e = await failure(client.getProperty(p));
    expect([e.code, e.exitCode]).toEqual(['NOT_FOUND', 2]);
    expect(e.message).toBe(`No such property ${p} in the landlord's selection (trace id trace-resource-not-found-404).`);
    expect(api.requests).toHaveLength(1);
  });

  it('a 400 on the user’s range is a usage error carrying the detail; elsewhere it is a bug (exit 1)', async () => {
    const { api, client } = await rig();
    const u = uuid();
    api.route(`/v1/usage-units/${u}/consumption`, problem(400, 'invalid-request', { detail: 'from: range lies after the last completed month' }));
    const e = await failure(client.unitConsumption(u, { from: '2030-01-01', to: '2030-12-31' }));
    expect([e.code, e.exitCode]).toEqual(['API_INVALID_RANGE', 2]);
    expect(e.message).toContain('range lies after the last completed month');
    api.route('/v1/properties', problem(400, 'invalid-request', { detail: 'page_cursor is invalid' }));
    const e2 = await failure(collect(client.listProperties()));
    expect([e2.code, e2.exitCode]).toEqual(['API_INVALID_REQUEST', 1]);
    expect(api.hits('/v1/properties')).toHaveLength(1);
  });

  // Round 32 F4: the service refusing its own next_cursor (expired, the list changed) was "a bug in meterdata".
  it('a 400 on a page asked for by the service’s own cursor is the service’s (exit 5, run again), not a bug in meterdata', async () => {
    const { api, client } = await rig();
    api.route('/v1/properties', (req) =>
      req.url.includes('page_cursor=')
        ? problem(400, 'invalid-request', { detail: 'page_cursor is not a cursor of this list' })
        : pageOf([aProperty({ id: uuid(), name: 'Lindenhof' })], 'c-1'),
    );
    const e = await failure(collect(client.listProperties()));
    expect([e.code, e.exitCode]).toEqual(['API_CURSOR_REFUSED', 5]);
    expect(e.message).toContain('page_cursor is not a cursor of this list');
    expect(`${e.message} ${e.hint}`).not.toMatch(/bug in meterdata/);
    expect(e.hint).toMatch(/Run the same command again/);
  });

  it('seen ids come from property lists too', async () => {
    const { api, client } = await rig();
    const p = aProperty({ id: uuid(), name: 'Lindenhof' });
    api.route('/v1/properties', pageOf([p], null));
    api.route('/v1/whoami', { json: aWhoAmI() });
    await collect(client.listProperties());
    const e = await failure(collect(client.listPropertyMeasuringPoints(p.id)));
    expect(e.message).toContain('property "Lindenhof"');
    expect(e.message).toContain('all properties');
  });

  it('a consumption answer is checked and returned', async () => {
    const { api, client } = await rig();
    const u = uuid();
    api.route(`/v1/usage-units/${u}/consumption`, { json: aUnitConsumption({ usage_unit_id: u }) });
    expect((await client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31' })).usage_unit_id).toBe(u);
  });
});

describe('the Problem type fragment decides, the status only without a Problem body', () => {
  const range = { from: '2025-01-01', to: '2025-12-31' };
  async function seenUnit() {
    const r = await rig();
    const u = aUnit({ id: uuid(), name: 'WE 07 Dachgeschoss' });
    r.api.route('/v1/usage-units', pageOf([u], null));
    r.api.route('/v1/whoami', { json: aWhoAmI({ property_scope: [uuid()] }) });
    await collect(r.client.listUsageUnits());
    return { ...r, u };
  }

  it('a 404 with an HTML body on a seen unit is not withdrawn access (exit 5, no /whoami)', async () => {
    const { api, client, u } = await seenUnit();
    api.route(`/v1/usage-units/${u.id}/consumption`, { status: 404, body: '<html><body>Not Found</body></html>', headers: { 'content-type': 'text/html' } });
    const e = await failure(client.unitConsumption(u.id, range));
    expect(e).not.toBeInstanceOf(AccessWithdrawnError);
    expect([e.code, e.exitCode]).toEqual(['API_UNEXPECTED_NOT_FOUND', 5]);
    expect(api.hits('/v1/whoami')).toHaveLength(0);
  });

  it('a 404 with another fragment on a seen unit is not withdrawn access (exit 1)', async () => {
    const { api, client, u } = await seenUnit();
    api.route(`/v1/usage-units/${u.id}/consumption`, problem(404, 'route-not-found'));
    const e = await failure(client.unitConsumption(u.id, range));
    expect(e).not.toBeInstanceOf(AccessWithdrawnError);
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('route-not-found');
  });

  it('a 401 whose fragment is not invalid-token does not refresh', async () => {
    const { api, client, creds } = await rig();
    api.route('/v1/whoami', problem(401, 'account-locked'));
    const e = await failure(client.whoami());
    expect(creds.refreshes).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(e.exitCode).toBe(1);
  });

  it('a 401 without a Problem body falls back to the status: one refresh and a retry', async () => {
    const { api, client, creds } = await rig();
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', { status: 401, body: 'Unauthorized' });
    await client.whoami();
    expect(creds.refreshes).toBe(1);
  });

  it('a too-many-requests fragment pauses and retries even under another status', async () => {
    const { api, client } = await rig();
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(503, 'too-many-requests', { headers: { 'retry-after': '0' } }));
    await client.whoami();
    expect(client.stats()).toMatchObject({ requests: 2, rateLimited: 1 });
  });
});
