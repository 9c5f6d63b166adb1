// Every row of the spec's client-connection state table, plus the token lifetimes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorize, connect, postForm, redeem, refresh, whoami, type Tokens } from '../helpers/sandbox-oauth.js';

const DAY = 24 * 3600 * 1000;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ units: 20, oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 });
});
afterAll(() => sb.close());

const sidOf = async (t: Tokens) => {
  const conns = sb.admin.connections();
  const me = await whoami(sb.apiBase, t.access_token);
  expect(me.status).toBe(200);
  return conns.at(-1)!.sid;
};
const stateOf = (sid: string) => sb.admin.connections().find((c) => c.sid === sid)?.state;

async function expectDead(t: Tokens) {
  expect((await whoami(sb.apiBase, t.access_token)).status).toBe(401);
  const r = await refresh(sb.url, t.refresh_token);
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('invalid_grant');
}

test('none -> connected: approve and redeem the code; tokens have the contract shape', async () => {
  const flow = await authorize(sb.url, {}, { decision: 'approve' });
  const sid = sb.admin.connections().at(-1)!.sid;
  expect(stateOf(sid)).toBe('consented');
  const answer = await redeem(sb.url, flow);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:units read:devices read:readings' });
  expect(answer.body.access_token).toEqual(expect.any(String));
  expect(answer.body.refresh_token).toEqual(expect.any(String));
  expect(answer.headers.get('cache-control')).toMatch(/no-store/);
  expect(stateOf(sid)).toBe('connected');
});

test('none -> none: decline issues no code and no connection', async () => {
  const before = sb.admin.connections().length;
  const flow = await authorize(sb.url, {}, { decision: 'decline' });
  expect(flow.location!.searchParams.get('error')).toBe('access_denied');
  expect(sb.admin.connections().length).toBe(before);
});

test('none -> none: API access not enabled shows a notice, no form and no code', async () => {
  const tenants = sb.dataset.tenants();
  for (const t of tenants) await sb.admin.endAccess(t.id);
  try {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    expect(flow.location).toBeUndefined();
    expect(flow.page!.html).toContain('id="access-not-enabled"');
    expect(flow.page!.html).not.toContain('<form');
  } finally {
    for (const t of tenants) sb.admin.enableAccess(t.id);
  }
});

test('connected -> revoked: a code redeemed a second time revokes the whole connection', async () => {
  const flow = await authorize(sb.url, {}, { decision: 'approve' });
  const first = await redeem(sb.url, flow);
  expect(first.status).toBe(200);
  const again = await redeem(sb.url, flow);
  expect(again.status).toBe(400);
  expect(again.body.error).toBe('invalid_grant');
  await expectDead(first.body as unknown as Tokens);
});

test.each([1, 2, 3])(
  'connected -> revoked: one code redeemed twice concurrently (round %i): at most one answer has tokens, the connection ends revoked',
  async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const sid = sb.admin.connections().at(-1)!.sid;
    const answers = await Promise.all([redeem(sb.url, flow), redeem(sb.url, flow)]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(400);
      expect(a.body.error).toBe('invalid_grant');
    }
    expect(stateOf(sid)).toBe('revoked');
    // Revoked by the in-flight check, not by luck of ordering.
    expect(sb.admin.connections().find((c) => c.sid === sid)?.revoked_reason).toMatch(/concurrently/);
    for (const a of ok) await expectDead(a.body as unknown as Tokens);
  },
);

test('connected -> connected: refresh rotates the refresh token every time; scope may be narrowed, never widened', async () => {
  const t0 = await connect(sb.url);
  const r1 = await refresh(sb.url, t0.refresh_token);
  expect(r1.status).toBe(200);
  expect(r1.body.refresh_token).not.toBe(t0.refresh_token);
  expect(r1.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  const narrowed = await refresh(sb.url, r1.body.refresh_token as string, { scope: 'read:units' });
  expect(narrowed.status).toBe(200);
  expect(narrowed.body.scope).toBe('read:units');
  expect((await whoami(sb.apiBase, narrowed.body.access_token as string)).body.granted_scopes).toEqual(['read:units']);
  // The narrowed refresh token cannot widen back to the original grant.
  const rewiden = await refresh(sb.url, narrowed.body.refresh_token as string, { scope: 'read:units read:readings' });
  expect(rewiden.status).toBe(400);
  expect(rewiden.body.error).toBe('invalid_scope');
  expect(String(rewiden.body.error_description)).toMatch(/read:readings/);
  // A refresh without scope keeps the narrowed scope; the refresh token stays usable after invalid_scope.
  const same = await refresh(sb.url, narrowed.body.refresh_token as string);
  expect(same.status).toBe(200);
  expect(same.body.scope).toBe('read:units');
  const t1 = await connect(sb.url, { scope: 'read:units' });
  const widened = await refresh(sb.url, t1.refresh_token, { scope: 'read:units read:readings' });
  expect(widened.status).toBe(400);
  expect(widened.body.error).toBe('invalid_scope');
});

test('connected -> revoked: an already-rotated refresh token revokes the family incl. current tokens', async () => {
  const t0 = await connect(sb.url);
  const sid = await sidOf(t0);
  const r1 = await refresh(sb.url, t0.refresh_token);
  expect(r1.status).toBe(200);
  const reuse = await refresh(sb.url, t0.refresh_token);
  expect(reuse.status).toBe(400);
  expect(reuse.body.error).toBe('invalid_grant');
  expect(stateOf(sid)).toBe('revoked');
  await expectDead(r1.body as unknown as Tokens);
});

test('connected -> revoked: two refreshes with the same token fired together revoke the connection', async () => {
  const t0 = await connect(sb.url);
  const sid = await sidOf(t0);
  const answers = await Promise.all([refresh(sb.url, t0.refresh_token), refresh(sb.url, t0.refresh_token)]);
  expect(answers.map((a) => a.status)).toEqual([400, 400]);
  expect(answers.every((a) => a.body.error === 'invalid_grant')).toBe(true);
  expect(stateOf(sid)).toBe('revoked');
  // Revoked by the in-flight check, not by the later rotated-token reuse rule.
  expect(sb.admin.connections().find((c) => c.sid === sid)?.revoked_reason).toMatch(/concurrently/);
  expect((await whoami(sb.apiBase, t0.access_token)).status).toBe(401);
});

test('connected -> revoked: a refresh token unused for 90 days; later refresh fails with invalid_grant', async () => {
  const fresh = await connect(sb.url);
  const idle = await connect(sb.url);
  const idleSid = sb.admin.connections().at(-1)!.sid;
  sb.admin.advanceClock(89 * DAY);
  const stillOk = await refresh(sb.url, fresh.refresh_token);
  expect(stillOk.status).toBe(200);
  sb.admin.advanceClock(2 * DAY);
  const late = await refresh(sb.url, idle.refresh_token);
  expect(late.status).toBe(400);
  expect(late.body.error).toBe('invalid_grant');
  expect(stateOf(idleSid)).toBe('revoked');
  // The token refreshed on day 89 is only 2 days idle.
  expect((await refresh(sb.url, stillOk.body.refresh_token as string)).status).toBe(200);
});

test('a connection idle for 90 days is listed as revoked even before its next refresh', async () => {
  const quiet = await connect(sb.url);
  const quietSid = sb.admin.connections().at(-1)!.sid;
  expect(stateOf(quietSid)).toBe('connected');
  sb.admin.advanceClock(91 * DAY);
  expect(stateOf(quietSid)).toBe('revoked');
  expect((await refresh(sb.url, quiet.refresh_token)).body.error).toBe('invalid_grant');
});

test('access tokens expire after 3600 s of sandbox time', async () => {
  const t = await connect(sb.url);
  const me = await whoami(sb.apiBase, t.access_token);
  expect(me.status).toBe(200);
  const exp = Date.parse(me.body.token_expires_at as string);
  expect(exp - sb.clock.now().getTime()).toBeGreaterThan(3590 * 1000);
  expect(exp - sb.clock.now().getTime()).toBeLessThanOrEqual(3600 * 1000);
  sb.admin.advanceClock(3601 * 1000);
  expect((await whoami(sb.apiBase, t.access_token)).status).toBe(401);
  const r = await refresh(sb.url, t.refresh_token);
  expect(r.status).toBe(200);
  expect((await whoami(sb.apiBase, r.body.access_token as string)).status).toBe(200);
});

describe.each(['access_token', 'refresh_token'] as const)('connected -> revoked: POST /oauth/revoke with the %s', (kind) => {
  test('answers 200 and ends the whole connection', async () => {
    const t = await connect(sb.url);
    const sid = await sidOf(t);
    const r = await postForm(`${sb.url}/oauth/revoke`, { token: t[kind], client_id: 'sandbox-demo-client' });
    expect(r.status).toBe(200);
    expect(stateOf(sid)).toBe('revoked');
    await expectDead(t);
  });
});

test('revocation of an unknown token still answers 200', async () => {
  const r = await postForm(`${sb.url}/oauth/revoke`, { token: 'no-such-token', client_id: 'sandbox-demo-client' });
  expect(r.status).toBe(200);
});

test('connected -> revoked: the landlord disconnects in the portal; tokens stop working at once', async () => {
  const t = await connect(sb.url);
  const sid = await sidOf(t);
  expect(await sb.admin.disconnect(sid)).toBe(true);
  expect(stateOf(sid)).toBe('revoked');
  await expectDead(t);
});

test("connected -> revoked: the landlord's API access ends; /whoami answers 401 invalid-token; re-enabling restores nothing", async () => {
  const tenant = sb.dataset.tenants()[0]!;
  const a = await connect(sb.url, {}, { decision: 'approve', tenant: tenant.id });
  const b = await connect(sb.url, {}, { decision: 'approve', tenant: tenant.id });
  const other = await connect(sb.url, {}, { decision: 'approve', tenant: sb.dataset.tenants()[1]!.id });
  const revoked = await sb.admin.endAccess(tenant.id);
  expect(revoked.length).toBeGreaterThanOrEqual(2);
  const me = await whoami(sb.apiBase, a.access_token);
  expect(me.status).toBe(401);
  expect(String(me.body.type)).toMatch(/#invalid-token$/);
  expect(me.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  sb.admin.enableAccess(tenant.id);
  await expectDead(a);
  await expectDead(b);
  expect((await whoami(sb.apiBase, other.access_token)).status).toBe(200);
  const again = await connect(sb.url, {}, { decision: 'approve', tenant: tenant.id });
  expect((await whoami(sb.apiBase, again.access_token)).status).toBe(200);
});

test('revoked -> revoked: any refresh answers invalid_grant, every time', async () => {
  const t = await connect(sb.url);
  await sb.admin.disconnect(await sidOf(t));
  for (let i = 0; i < 2; i++) {
    const r = await refresh(sb.url, t.refresh_token);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String) });
  }
});
