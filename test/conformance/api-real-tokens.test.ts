// The API error rows (401, 403, 404 by whitelist, 429, 500, 503) through startSandbox with real
// tokens from the authorization server (plain-HTTP PKCE flow), not the fake token checker of
// api-harness.ts: proves the validator, the registry and the API fit together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorize, connect, dpopKey, dpopProof, erpClientId, redeem, type Tokens } from '../helpers/sandbox-oauth.js';

const TYPE = (code: string) => `https://developer.example/errors/#${code}`;

interface Got {
  status: number;
  body: any;
  headers: Headers;
}

async function call(base: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(`${base}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

function expectProblem(r: Got, status: number, code: string, path: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/problem+json');
  expect(r.body.type).toBe(TYPE(code));
  expect(r.body.status).toBe(status);
  expect(r.body.instance).toBe(`/v1${path}`);
  expect(r.body.trace_id).toMatch(/^[0-9a-f]{16}$/);
  if (status >= 500) expect('detail' in r.body).toBe(false);
  else expect(typeof r.body.detail).toBe('string');
}

/** Connects and returns the tokens and the new connection's sid. */
async function connectWithSid(sb: Sandbox, ...args: Parameters<typeof connect> extends [unknown, ...infer R] ? R : never): Promise<Tokens & { sid: string }> {
  const before = new Set(sb.admin.connections().map((c) => c.sid));
  const t = await connect(sb.url, ...args);
  const added = sb.admin.connections().filter((c) => !before.has(c.sid));
  expect(added).toHaveLength(1);
  return { ...t, sid: added[0]!.sid };
}

const dpopClient = erpClientId();
let sb: Sandbox;
let nordlicht: string;
let sued: string;

beforeAll(async () => {
  sb = await startSandbox({
    units: 60,
    clock: '2026-11-22',
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: [{ client_id: dpopClient, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true }],
  });
  [nordlicht, sued] = sb.dataset.tenants().map((t) => t.id) as [string, string];
});
afterAll(() => sb?.close());

describe('401 invalid-token with real tokens', () => {
  it('no token and a garbage token', async () => {
    const none = await call(sb.apiBase, '/properties');
    expectProblem(none, 401, 'invalid-token', '/properties');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const garbage = await call(sb.apiBase, '/properties', bearer('garbage'));
    expectProblem(garbage, 401, 'invalid-token', '/properties');
    expect(garbage.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it("after the landlord's API access ends, /whoami answers 401 invalid-token", async () => {
    const t = await connectWithSid(sb, {}, { decision: 'approve', tenant: sued });
    expect((await call(sb.apiBase, '/whoami', bearer(t.access_token))).body.tenant_id).toBe(sued);
    expect(await sb.admin.endAccess(sued)).toContain(t.sid);
    const r = await call(sb.apiBase, '/whoami', bearer(t.access_token));
    expectProblem(r, 401, 'invalid-token', '/whoami');
    expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    // Re-enabling restores nothing.
    sb.admin.enableAccess(sued);
    expect((await call(sb.apiBase, '/whoami', bearer(t.access_token))).status).toBe(401);
  });

  it('after the landlord disconnects the application', async () => {
    const t = await connectWithSid(sb);
    expect((await call(sb.apiBase, '/properties', bearer(t.access_token))).status).toBe(200);
    expect(await sb.admin.disconnect(t.sid)).toBe(true);
    const r = await call(sb.apiBase, '/properties', bearer(t.access_token));
    expectProblem(r, 401, 'invalid-token', '/properties');
    expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('a DPoP-bound token with a bad or missing proof: 401 with error="invalid_dpop_proof"', async () => {
    const key = await dpopKey();
    const flow = await authorize(sb.url, { client_id: dpopClient }, { decision: 'approve' });
    const answer = await redeem(sb.url, flow, { client_id: dpopClient }, { dpop: await dpopProof(key, 'POST', `${sb.url}/oauth/token`) });
    const at = String(answer.body.access_token);
    const url = `${sb.apiBase}/properties`;
    const ok = await call(sb.apiBase, '/properties', { authorization: `DPoP ${at}`, dpop: await dpopProof(key, 'GET', url, { accessToken: at }) });
    expect(ok.status).toBe(200);
    for (const proof of [undefined, await dpopProof(key, 'GET', `${sb.apiBase}/whoami`, { accessToken: at })]) {
      const r = await call(sb.apiBase, '/properties', { authorization: `DPoP ${at}`, ...(proof ? { dpop: proof } : {}) });
      expectProblem(r, 401, 'invalid-token', '/properties');
      expect(r.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    }
  });
});

describe('403 insufficient-scope with a narrowed token', () => {
  it('scope read:units: units readable, consumption 403 naming read:readings', async () => {
    const t = await connect(sb.url, { scope: 'read:units' });
    expect(t.scope).toBe('read:units');
    const units = await call(sb.apiBase, '/usage-units?limit=1', bearer(t.access_token));
    expect(units.status).toBe(200);
    const path = `/usage-units/${units.body.data[0].id}/consumption`;
    const r = await call(sb.apiBase, `${path}?from=2025-01-01&to=2025-12-31`, bearer(t.access_token));
    expectProblem(r, 403, 'insufficient-scope', path);
    expect(r.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(r.headers.get('www-authenticate')).toMatch(/scope="read:readings"/);
    expect(r.body.detail).toMatch(/read:readings/);
    const points = await call(
      sb.apiBase,
      `/measuring-points/${sb.dataset.pointId(sb.dataset.pointsOfUnit(sb.dataset.unitByIndex(0)!)[0]!.point)}`,
      bearer(t.access_token),
    );
    expect(points.status).toBe(403);
    expect(points.headers.get('www-authenticate')).toMatch(/scope="read:devices"/);
  });
});

describe('Property whitelist from a consent selection', () => {
  it('other Properties and their units are 404 and lists are filtered', async () => {
    const [chosen, other] = sb.dataset.propertiesOf(nordlicht) as [{ id: string }, { id: string }, ...unknown[]];
    const t = await connect(sb.url, {}, { decision: 'approve', tenant: nordlicht, scope_mode: 'selection', properties: [chosen.id] });
    const h = bearer(t.access_token);
    expect((await call(sb.apiBase, '/whoami', h)).body.property_scope).toEqual([chosen.id]);
    const props = await call(sb.apiBase, '/properties', h);
    expect(props.body.data.map((p: any) => p.id)).toEqual([chosen.id]);
    const otherPath = `/properties/${other.id}`;
    expectProblem(await call(sb.apiBase, otherPath, h), 404, 'resource-not-found', otherPath);
    expect((await call(sb.apiBase, `/properties/${chosen.id}`, h)).status).toBe(200);
    const units = await call(sb.apiBase, '/usage-units?limit=200', h);
    expect(units.body.data.length).toBeGreaterThan(0);
    expect(new Set(units.body.data.map((u: any) => u.property.id))).toEqual(new Set([chosen.id]));
    expect((await call(sb.apiBase, `/usage-units?property_id=${other.id}`, h)).body.data).toEqual([]);
    const otherRec = sb.dataset.property(other.id)!;
    const otherUnit = sb.dataset.unitId(sb.dataset.unitByIndex(otherRec.unitStart)!);
    expectProblem(await call(sb.apiBase, `/usage-units/${otherUnit}`, h), 404, 'resource-not-found', `/usage-units/${otherUnit}`);
  });
});

describe('429, 500 and 503 on their own sandboxes', () => {
  it('429 with an integer Retry-After at the configured limit, counted per connection (sid)', async () => {
    const limited = await startSandbox({ units: 5, rateLimitPerMinute: 5, oauthRateLimitPerMinute: 0 });
    try {
      const a = await connect(limited.url);
      const b = await connect(limited.url);
      for (let i = 0; i < 5; i++) expect((await call(limited.apiBase, '/whoami', bearer(a.access_token))).status).toBe(200);
      const r = await call(limited.apiBase, '/whoami', bearer(a.access_token));
      expectProblem(r, 429, 'too-many-requests', '/whoami');
      const retry = r.headers.get('retry-after')!;
      expect(retry).toMatch(/^\d+$/);
      expect(Number(retry)).toBeGreaterThanOrEqual(1);
      expect(Number(retry)).toBeLessThanOrEqual(60);
      // Another connection has its own budget.
      expect((await call(limited.apiBase, '/whoami', bearer(b.access_token))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('an injected 500 and 503: problem bodies without detail', async () => {
    const faulty = await startSandbox({ units: 5, faults: ['500@2', '503@3'], oauthRateLimitPerMinute: 0 });
    try {
      const t = await connect(faulty.url);
      expect((await call(faulty.apiBase, '/whoami', bearer(t.access_token))).status).toBe(200);
      expectProblem(await call(faulty.apiBase, '/properties', bearer(t.access_token)), 500, 'internal-error', '/properties');
      expectProblem(await call(faulty.apiBase, '/properties', bearer(t.access_token)), 503, 'service-unavailable', '/properties');
      expect((await call(faulty.apiBase, '/properties', bearer(t.access_token))).status).toBe(200);
    } finally {
      await faulty.close();
    }
  });
});
