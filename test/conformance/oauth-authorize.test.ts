// Discovery, the authorization request and the consent screen (Authentication section).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorize, authorizeUrl, connect, CookieJar, DEMO_CLIENT, DEMO_REDIRECT, get, redeem, whoami } from '../helpers/sandbox-oauth.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ units: 40, oauthRateLimitPerMinute: 0 });
});
afterAll(() => sb.close());

test('discovery lists the fields the contract names', async () => {
  const res = await fetch(`${sb.url}/.well-known/oauth-authorization-server`);
  expect(res.status).toBe(200);
  const meta = (await res.json()) as Record<string, unknown>;
  expect(meta).toMatchObject({
    issuer: sb.url,
    authorization_endpoint: `${sb.url}/oauth/authorize`,
    token_endpoint: `${sb.url}/oauth/token`,
    revocation_endpoint: `${sb.url}/oauth/revoke`,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256'],
  });
  expect(sb.issuer).toBe(sb.url);
  expect(sb.resource).toBe(sb.url);
  expect(sb.apiBase).toBe(`${sb.url}/v1`);
});

describe('authorization responses', () => {
  test('success carries code, iss and state', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    expect(flow.location!.origin + flow.location!.pathname).toBe(DEMO_REDIRECT);
    expect(flow.location!.searchParams.get('iss')).toBe(sb.issuer);
    expect(flow.location!.searchParams.get('state')).toBe(flow.state);
    expect(flow.location!.searchParams.get('code')).toBeTruthy();
  });

  test('decline redirects with access_denied, iss and state, and issues no code', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'decline' });
    const q = flow.location!.searchParams;
    expect(q.get('error')).toBe('access_denied');
    expect(q.get('error_description')).toBeTruthy();
    expect(q.get('iss')).toBe(sb.issuer);
    expect(q.get('state')).toBe(flow.state);
    expect(q.get('code')).toBeNull();
  });

  test('PKCE is mandatory: a request without code_challenge is answered with an error redirect carrying iss', async () => {
    const flow = await authorize(sb.url, { code_challenge: null, code_challenge_method: null });
    const q = flow.location!.searchParams;
    expect(q.get('error')).toBe('invalid_request');
    expect(q.get('iss')).toBe(sb.issuer);
    expect(q.get('state')).toBe(flow.state);
  });

  test('code_challenge_method plain is refused', async () => {
    const flow = await authorize(sb.url, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' });
    expect(flow.location!.searchParams.get('error')).toBe('invalid_request');
  });

  test('an unknown resource gives invalid_target (with iss)', async () => {
    const flow = await authorize(sb.url, { resource: 'https://elsewhere.example' });
    expect(flow.location!.searchParams.get('error')).toBe('invalid_target');
    expect(flow.location!.searchParams.get('iss')).toBe(sb.issuer);
  });
});

describe('client and redirect URI checks never redirect', () => {
  test('unknown client: 400 JSON invalid_client for API callers, an HTML page for browsers', async () => {
    const url = authorizeUrl(sb.url, { client_id: 'erp_00000000000000000000000000000000', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
    const json = await get(url, undefined, 'application/json');
    expect(json.status).toBe(400);
    expect(json.headers.get('location')).toBeNull();
    expect(await json.json()).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
    const html = await get(url, undefined, 'text/html,application/xhtml+xml');
    expect(html.status).toBe(400);
    expect(html.headers.get('location')).toBeNull();
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(await html.text()).toContain('invalid_client');
  });

  test.each([
    ['a foreign host', 'https://evil.example/callback'],
    ['another path on loopback', 'http://127.0.0.1:53682/other'],
    ['https instead of http on loopback', 'https://127.0.0.1:53682/callback'],
    ['an added query', 'http://127.0.0.1:53682/callback?x=1'],
  ])('unregistered redirect_uri (%s): 400 invalid_redirect_uri, no redirect', async (_what, redirect) => {
    const url = authorizeUrl(sb.url, { redirect_uri: redirect, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
    const res = await get(url, undefined, 'application/json');
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const page = await get(url, undefined, 'text/html');
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('invalid_redirect_uri');
  });

  test.each(['http://127.0.0.1:1/callback', 'http://127.0.0.1:65000/callback', 'http://localhost:8080/callback', 'http://[::1]:9999/callback'])(
    'loopback redirect %s matches with any port',
    async (redirect) => {
      const flow = await authorize(sb.url, { redirect_uri: redirect }, { decision: 'approve' });
      expect(flow.location!.href.startsWith(redirect)).toBe(true);
      const tokens = await redeem(sb.url, flow, { redirect_uri: redirect });
      expect(tokens.status).toBe(200);
    },
  );
});

describe('consent screen', () => {
  test('shows tenant choice, all Properties pre-selected, property checkboxes and both buttons', async () => {
    const flow = await authorize(sb.url);
    const html = flow.page!.html;
    expect(flow.page!.status).toBe(200);
    expect(html).toMatch(/<select id="tenant" name="tenant">/);
    expect(html).toMatch(/name="scope_mode" value="all" id="scope-all" checked/);
    expect(html).toMatch(/name="scope_mode" value="selection"/);
    expect(html).toMatch(/id="approve"/);
    expect(html).toMatch(/id="decline"/);
    const tenant = sb.dataset.tenants()[0]!;
    for (const p of sb.dataset.propertiesOf(tenant.id)) expect(html).toContain(`name="property" value="${p.id}"`);
  });

  test('a selection of Properties becomes the token whitelist', async () => {
    const tenant = sb.dataset.tenants()[0]!;
    const props = sb.dataset.propertiesOf(tenant.id).map((p) => p.id);
    expect(props.length).toBeGreaterThan(1);
    const chosen = props.slice(0, 2);
    const tokens = await connect(sb.url, {}, { decision: 'approve', tenant: tenant.id, scope_mode: 'selection', properties: chosen });
    const me = await whoami(sb.apiBase, tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ tenant_id: tenant.id, client_id: DEMO_CLIENT });
    expect([...(me.body.property_scope as string[])].sort()).toEqual([...chosen].sort());
    const conn = sb.admin.connections().find((c) => c.state === 'connected' && Array.isArray(c.property_scope));
    expect(conn?.property_scope).toEqual(expect.arrayContaining(chosen));
  });

  test('choosing the second customer organisation gives a token for that tenant with all Properties', async () => {
    const second = sb.dataset.tenants()[1]!;
    const tokens = await connect(sb.url, {}, { decision: 'approve', tenant: second.id, scope_mode: 'all' });
    const me = await whoami(sb.apiBase, tokens.access_token);
    expect(me.body).toMatchObject({ tenant_id: second.id, property_scope: 'all' });
  });

  test('a browser that consented before sees the consent screen again and gets a new connection', async () => {
    const jar = new CookieJar();
    const first = await authorize(sb.url, {}, { decision: 'approve' }, jar);
    expect(first.location!.searchParams.get('code')).toBeTruthy();
    const second = await authorize(sb.url, {}, undefined, jar);
    expect(second.location).toBeUndefined();
    expect(second.page!.html).toContain('id="consent-form"');
    const a = await connect(sb.url);
    const b = await connect(sb.url);
    expect((await whoami(sb.apiBase, a.access_token)).status).toBe(200);
    expect(sb.admin.connections().filter((c) => c.state === 'connected').length).toBeGreaterThanOrEqual(2);
    expect(new Set(sb.admin.connections().map((c) => c.sid)).size).toBe(sb.admin.connections().length);
    expect(b.access_token).not.toBe(a.access_token);
  });

  test('an empty selection re-shows the form with a message and issues no code', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve', scope_mode: 'selection', properties: [] });
    expect(flow.location).toBeUndefined();
    expect(flow.page!.html).toContain('id="consent-error"');
  });

  test('Properties of another tenant cannot be smuggled into a selection', async () => {
    const [a, b] = sb.dataset.tenants();
    const foreign = sb.dataset.propertiesOf(b!.id).map((p) => p.id);
    const flow = await authorize(sb.url, {}, { decision: 'approve', tenant: a!.id, scope_mode: 'selection', properties: foreign });
    expect(flow.location).toBeUndefined();
    expect(flow.page!.html).toContain('id="consent-error"');
  });

  test('a narrowed scope request is shown and granted as asked', async () => {
    const tokens = await connect(sb.url, { scope: 'read:units' });
    expect(tokens.scope).toBe('read:units');
    const me = await whoami(sb.apiBase, tokens.access_token);
    expect(me.body.granted_scopes).toEqual(['read:units']);
  });
});

describe('scopes', () => {
  test.each(['read:nothing', 'openid'])('asking only for %s gives invalid_scope (with iss)', async (scope) => {
    const flow = await authorize(sb.url, { scope }, { decision: 'approve' });
    const q = flow.location!.searchParams;
    expect(q.get('error')).toBe('invalid_scope');
    expect(q.get('iss')).toBe(sb.issuer);
    expect(q.get('state')).toBe(flow.state);
  });

  test('no scope parameter asks for every scope the client is registered for', async () => {
    const answer = await redeem(sb.url, await authorize(sb.url, { scope: null }, { decision: 'approve' }));
    expect(answer.body.scope).toBe('read:units read:devices read:readings');
  });

  test('unknown scopes next to known ones are dropped', async () => {
    const answer = await redeem(sb.url, await authorize(sb.url, { scope: 'read:units read:nothing' }, { decision: 'approve' }));
    expect(answer.body.scope).toBe('read:units');
  });

  test('a client registered for fewer scopes only gets those', async () => {
    const id = `erp_${'c'.repeat(32)}`;
    const narrow = await startSandbox({
      units: 2,
      autoConsent: true,
      clients: [{ client_id: id, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', scope: 'read:units' }],
    });
    try {
      const unasked = await authorize(narrow.url, { client_id: id, scope: null });
      expect((await redeem(narrow.url, unasked, { client_id: id })).body.scope).toBe('read:units');
      const own = await authorize(narrow.url, { client_id: id, scope: 'read:units' });
      expect((await redeem(narrow.url, own, { client_id: id })).body.scope).toBe('read:units');
      for (const scope of ['read:readings', 'read:units read:readings']) {
        const outside = await authorize(narrow.url, { client_id: id, scope });
        expect(outside.location!.searchParams.get('error')).toBe('invalid_scope');
        expect(outside.location!.searchParams.get('error_description')).toMatch(/read:readings is not permitted/);
      }
    } finally {
      await narrow.close();
    }
  });
});

describe('resource indicators', () => {
  test('a missing resource falls back to the REST API', async () => {
    const tokens = await connect(sb.url, { resource: null });
    expect((await whoami(sb.apiBase, tokens.access_token)).status).toBe(200);
  });

  test('the explicit API origin is accepted', async () => {
    const tokens = await connect(sb.url, { resource: sb.resource });
    expect((await whoami(sb.apiBase, tokens.access_token)).status).toBe(200);
  });

  test('a token for the AI-assistant server is rejected by the REST API (wrong audience)', async () => {
    const assistant = `${sb.url}/assistant`;
    const flow = await authorize(sb.url, { resource: assistant }, { decision: 'approve' });
    const answer = await redeem(sb.url, flow, { resource: assistant });
    expect(answer.status).toBe(200);
    const me = await whoami(sb.apiBase, answer.body.access_token as string);
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
