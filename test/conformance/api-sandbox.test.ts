// The /v1 API through the composed sandbox (startSandbox): a real token from the authorization
// server, then reads with plain fetch. Checks the API and auth server fit together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { connect } from '../helpers/sandbox-oauth.js';

let sb: Sandbox;
let token: string;
const get = async (path: string) => {
  const res = await fetch(`${sb.apiBase}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};

beforeAll(async () => {
  sb = await startSandbox({ clock: '2026-11-22', autoConsent: true });
  token = (await connect(sb.url)).access_token;
});
afterAll(() => sb?.close());

describe('/v1 through startSandbox', () => {
  it('whoami, Properties, units and a shared meter’s sector sum with a real access token', async () => {
    const who = await get('/whoami');
    expect(who.status).toBe(200);
    expect(who.body.tenant_name).toBe('Hausverwaltung Nordlicht GmbH');
    expect(typeof who.body.token_expires_at).toBe('string');
    const props = (await get('/properties')).body.data;
    const p1 = props.find((p: any) => p.name === 'Musterstraße 1-5');
    const units = (await get(`/usage-units?property_id=${p1.id}&limit=200`)).body.data;
    const shared = [];
    for (const name of ['WE 14', 'WE 15']) {
      const u = units.find((x: any) => x.name === name);
      const c = await get(`/usage-units/${u.id}/consumption?from=2025-01-01&to=2025-12-31&metric=heat`);
      expect(c.body.to).toBe('2025-12-31');
      shared.push(c.body.measuring_points.find((p: any) => p.unit_share < 1));
    }
    const readings = (await get(`/measuring-points/${shared[0].measuring_point_id}/readings?from=2025-01-01&to=2025-12-31`)).body;
    const weighted = shared.reduce((s, p) => s + p.segments[0].period_consumption.weighted_billable_value, 0);
    expect(Math.abs(weighted - readings.segments[0].period_consumption.billable_value)).toBeLessThanOrEqual(0.002);
    expect(sb.log.count('GET /usage-units/{id}/consumption')).toBe(2);
  });
  it('an unknown token is 401 with WWW-Authenticate from the real validator', async () => {
    const res = await fetch(`${sb.apiBase}/whoami`, { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
