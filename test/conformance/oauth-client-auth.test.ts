// Client authentication at /oauth/token and /oauth/revoke: none, client_secret_basic, private_key_jwt (RFC 7523).
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashClientSecret, validateClient, type ClientRegistration } from '../../src/sandbox/clients.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  assertionForm,
  authorize,
  basic,
  clientAssertion,
  erpClientId,
  postForm,
  redeem,
  testKey,
  type FlowResult,
  type TestKey,
} from '../helpers/sandbox-oauth.js';

const SECRET = 'p@ss:w/rd +ü%';
const basicId = erpClientId();
const jwtId = erpClientId();
let keys: Record<'RS256' | 'PS256' | 'ES256', TestKey>;
let sb: Sandbox;
let tokenUrl = '';

beforeAll(async () => {
  keys = { RS256: await testKey('RS256'), PS256: await testKey('PS256'), ES256: await testKey('ES256') };
  const clients: ClientRegistration[] = [
    {
      client_id: basicId,
      client_name: 'Basic ERP',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_sha256: hashClientSecret(SECRET),
    },
    {
      client_id: jwtId,
      client_name: 'JWT ERP',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: Object.values(keys).map((k) => k.publicJwk) },
    },
  ];
  sb = await startSandbox({ units: 5, clients, oauthRateLimitPerMinute: 0 });
  tokenUrl = `${sb.url}/oauth/token`;
});
afterAll(() => sb.close());

const flowFor = (clientId: string) => authorize(sb.url, { client_id: clientId }, { decision: 'approve' });
const codeForm = (flow: FlowResult, extra: Record<string, string | undefined> = {}) => ({
  grant_type: 'authorization_code',
  code: flow.location!.searchParams.get('code')!,
  redirect_uri: 'http://127.0.0.1:53682/callback',
  code_verifier: flow.verifier,
  ...extra,
});
const expectInvalidClient = (a: { status: number; body: Record<string, unknown> }) => {
  expect(a.status).toBe(401);
  expect(a.body.error).toBe('invalid_client');
  expect(a.body.error_description).toEqual(expect.any(String));
};

describe('public demo client (none)', () => {
  test('authenticates with client_id only', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    expect((await redeem(sb.url, flow)).status).toBe(200);
  });

  test('sending a secret (Basic) or an assertion is refused, and the code stays usable', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    expectInvalidClient(await redeem(sb.url, flow, { client_id: undefined }, basic('sandbox-demo-client', 'anything')));
    const assertion = await clientAssertion(keys.ES256, 'sandbox-demo-client', tokenUrl);
    expectInvalidClient(await redeem(sb.url, flow, assertionForm(assertion)));
    expect((await redeem(sb.url, flow)).status).toBe(200);
  });
});

describe('client_secret_basic', () => {
  test('the right secret (URL-encoded in the header) gets tokens and refreshes', async () => {
    const flow = await flowFor(basicId);
    const answer = await postForm(tokenUrl, codeForm(flow), basic(basicId, SECRET));
    expect(answer.status).toBe(200);
    const r = await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: answer.body.refresh_token as string }, basic(basicId, SECRET));
    expect(r.status).toBe(200);
  });

  test('a wrong secret gives 401 invalid_client with WWW-Authenticate: Basic and does not use up the code', async () => {
    const flow = await flowFor(basicId);
    const bad = await postForm(tokenUrl, codeForm(flow), basic(basicId, 'wrong'));
    expectInvalidClient(bad);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await postForm(tokenUrl, codeForm(flow), basic(basicId, SECRET))).status).toBe(200);
  });

  test('refresh rules run after client authentication: a wrong secret on a revoked connection is 401, not invalid_grant', async () => {
    const answer = await postForm(tokenUrl, codeForm(await flowFor(basicId)), basic(basicId, SECRET));
    await sb.admin.disconnect(sb.admin.connections().at(-1)!.sid);
    const form = { grant_type: 'refresh_token', refresh_token: answer.body.refresh_token as string };
    expectInvalidClient(await postForm(tokenUrl, form, basic(basicId, 'wrong')));
    const right = await postForm(tokenUrl, form, basic(basicId, SECRET));
    expect(right.status).toBe(400);
    expect(right.body.error).toBe('invalid_grant');
  });

  test('the stored hash is not a password', async () => {
    const flow = await flowFor(basicId);
    expectInvalidClient(await postForm(tokenUrl, codeForm(flow), basic(basicId, hashClientSecret(SECRET))));
  });

  test('client_secret_post is refused', async () => {
    const flow = await flowFor(basicId);
    expectInvalidClient(await postForm(tokenUrl, codeForm(flow, { client_id: basicId, client_secret: SECRET })));
    expect((await postForm(tokenUrl, codeForm(flow), basic(basicId, SECRET))).status).toBe(200);
  });

  test('PKCE is mandatory for confidential clients too', async () => {
    const flow = await authorize(sb.url, { client_id: basicId, code_challenge: null, code_challenge_method: null });
    expect(flow.location!.searchParams.get('error')).toBe('invalid_request');
    expect(flow.location!.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('no authentication at all is refused', async () => {
    const flow = await flowFor(basicId);
    expectInvalidClient(await postForm(tokenUrl, codeForm(flow, { client_id: basicId })));
  });

  test.each([
    ['Basic and client_secret', async () => ({ form: { client_secret: SECRET }, headers: basic(basicId, SECRET) })],
    ['Basic and client_assertion', async () => ({ form: assertionForm(await clientAssertion(keys.ES256, jwtId, tokenUrl)), headers: basic(basicId, SECRET) })],
  ])('combined methods (%s) give 400 invalid_request', async (_what, make) => {
    const flow = await flowFor(basicId);
    const { form, headers } = await make();
    const answer = await postForm(tokenUrl, codeForm(flow, form), headers);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_request');
  });
});

describe('private_key_jwt', () => {
  test.each(['RS256', 'PS256', 'ES256'] as const)('a %s assertion with the registered kid gets tokens', async (alg) => {
    const flow = await flowFor(jwtId);
    const answer = await postForm(tokenUrl, codeForm(flow, assertionForm(await clientAssertion(keys[alg], jwtId, tokenUrl))));
    expect(answer.status).toBe(200);
  });

  test('aud may be the issuer identifier; form client_id may be sent when it equals iss', async () => {
    const flow = await flowFor(jwtId);
    const answer = await postForm(tokenUrl, codeForm(flow, { client_id: jwtId, ...assertionForm(await clientAssertion(keys.ES256, jwtId, sb.issuer)) }));
    expect(answer.status).toBe(200);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const refused: [string, () => Promise<string>][] = [
    ['an unregistered kid', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { kid: 'nope' } })],
    [
      'no kid',
      async () =>
        new SignJWT({ iss: jwtId, sub: jwtId, aud: tokenUrl, jti: crypto.randomUUID(), iat: now(), exp: now() + 60 })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(keys.ES256.privateKey),
    ],
    [
      'alg RS384',
      async () => {
        const k = await generateKeyPair('RS384');
        return new SignJWT({ iss: jwtId, sub: jwtId, aud: tokenUrl, jti: crypto.randomUUID(), iat: now(), exp: now() + 60 })
          .setProtectedHeader({ alg: 'RS384', kid: keys.RS256.kid })
          .sign(k.privateKey);
      },
    ],
    [
      'alg HS256',
      async () =>
        new SignJWT({ iss: jwtId, sub: jwtId, aud: tokenUrl, jti: crypto.randomUUID(), iat: now(), exp: now() + 60 })
          .setProtectedHeader({ alg: 'HS256', kid: keys.ES256.kid })
          .sign(new TextEncoder().encode('x'.repeat(32))),
    ],
    ['a jwk header', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { jwk: keys.ES256.publicJwk } })],
    ['a jku header', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { jku: 'https://evil.example/jwks' } })],
    ['an x5u header', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { x5u: 'https://evil.example/cert' } })],
    ['an x5c header', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { x5c: ['MIIB'] } })],
    ['a crit header', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { header: { crit: ['b64'], b64: true } })],
    ['sub different from iss (iss = the client)', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { claims: { sub: erpClientId() } })],
    ['sub of another registered client (iss = the client)', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { claims: { sub: basicId } })],
    ['no sub', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { omit: ['sub'] })],
    ['iss of another client', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { claims: { iss: erpClientId() } })],
    ['aud of another endpoint', () => clientAssertion(keys.ES256, jwtId, `${sb.url}/oauth/revoke`)],
    ['aud of another server', () => clientAssertion(keys.ES256, jwtId, 'https://elsewhere.example/oauth/token')],
    ['no iat', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { omit: ['iat'] })],
    ['no exp', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { omit: ['exp'] })],
    ['no jti', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { omit: ['jti'] })],
    ['iat and exp more than 5 minutes apart', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { iat: now(), exp: now() + 301 })],
    ['an expired assertion', () => clientAssertion(keys.ES256, jwtId, tokenUrl, { iat: now() - 200, exp: now() - 100 })],
    [
      'a signature by an unregistered key under a registered kid',
      async () => clientAssertion({ ...(await testKey('ES256')), kid: keys.ES256.kid }, jwtId, tokenUrl),
    ],
  ];
  test.each(refused)('an assertion with %s is refused (401 invalid_client) and the code stays usable', async (_what, make) => {
    const flow = await flowFor(jwtId);
    expectInvalidClient(await postForm(tokenUrl, codeForm(flow, assertionForm(await make()))));
    expect((await postForm(tokenUrl, codeForm(flow, assertionForm(await clientAssertion(keys.ES256, jwtId, tokenUrl))))).status).toBe(200);
  });

  test('a form client_id different from iss is refused', async () => {
    const flow = await flowFor(jwtId);
    const answer = await postForm(tokenUrl, codeForm(flow, { client_id: erpClientId(), ...assertionForm(await clientAssertion(keys.ES256, jwtId, tokenUrl)) }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_request');
  });

  test('a jti is never accepted twice, not even for a revocation right after the token request', async () => {
    const flow = await flowFor(jwtId);
    const assertion = await clientAssertion(keys.ES256, jwtId, tokenUrl);
    const answer = await postForm(tokenUrl, codeForm(flow, assertionForm(assertion)));
    expect(answer.status).toBe(200);
    expectInvalidClient(await postForm(`${sb.url}/oauth/revoke`, { token: answer.body.refresh_token as string, ...assertionForm(assertion) }));
    const r = await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: answer.body.refresh_token as string, ...assertionForm(assertion) });
    expectInvalidClient(r);
    const fresh = await postForm(`${sb.url}/oauth/revoke`, {
      token: answer.body.refresh_token as string,
      ...assertionForm(await clientAssertion(keys.ES256, jwtId, tokenUrl)),
    });
    expect(fresh.status).toBe(200);
  });
});

describe('revocation endpoint client authentication', () => {
  test('an unknown client gets 401 invalid_client', async () => {
    expectInvalidClient(await postForm(`${sb.url}/oauth/revoke`, { token: 'x', client_id: erpClientId() }));
  });

  test('a confidential client without authentication gets 401 invalid_client', async () => {
    expectInvalidClient(await postForm(`${sb.url}/oauth/revoke`, { token: 'x', client_id: basicId }));
  });

  test('a wrong Basic secret gets 401 with WWW-Authenticate: Basic', async () => {
    const answer = await postForm(`${sb.url}/oauth/revoke`, { token: 'x' }, basic(basicId, 'wrong'));
    expectInvalidClient(answer);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  test('combined methods give 400 invalid_request', async () => {
    const answer = await postForm(`${sb.url}/oauth/revoke`, { token: 'x', client_secret: SECRET }, basic(basicId, SECRET));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_request');
  });
});

describe('client registration rules', () => {
  const base = {
    redirect_uris: ['https://erp.example/cb'],
    token_endpoint_auth_method: 'client_secret_basic' as const,
    client_secret_sha256: hashClientSecret('s'),
  };
  test.each(['erp_123', `ERP_${'a'.repeat(32)}`, `erp_${'A'.repeat(32)}`, `erp_${'g'.repeat(32)}`, 'my-client'])('client id %s is refused', (id) => {
    expect(() => validateClient({ ...base, client_id: id })).toThrow(/erp_ followed by 32/);
  });
  test('a secret must be registered as a SHA-256 hash, never in clear', () => {
    expect(() => validateClient({ ...base, client_id: erpClientId(), client_secret_sha256: 'secret' })).toThrow(/client_secret_sha256/);
  });
  test('private keys, small RSA keys and other curves are refused in a JWKS', async () => {
    const k = await testKey('ES256');
    const { exportJWK } = await import('jose');
    const privateJwk = { ...(await exportJWK(k.privateKey)), kid: 'p' };
    expect(() =>
      validateClient({
        client_id: erpClientId(),
        redirect_uris: ['https://erp.example/cb'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [privateJwk] },
      }),
    ).toThrow(/not a public key/);
    const small = { kty: 'RSA', kid: 's', e: 'AQAB', n: Buffer.alloc(128, 1).toString('base64url') };
    expect(() =>
      validateClient({
        client_id: erpClientId(),
        redirect_uris: ['https://erp.example/cb'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [small] },
      }),
    ).toThrow(/1024 bits/);
  });
  test('a JWKS larger than 64 KB is refused; one just under is accepted', async () => {
    const k = await testKey('ES256');
    const filler = (n: number) => Array.from({ length: n }, (_, i) => ({ ...k.publicJwk, kid: `k${i}` }));
    const reg = (keysList: unknown[]) => ({
      client_id: erpClientId(),
      redirect_uris: ['https://erp.example/cb'],
      token_endpoint_auth_method: 'private_key_jwt' as const,
      jwks: { keys: keysList as never[] },
    });
    const size = (n: number) => JSON.stringify({ keys: filler(n) }).length;
    let under = 1;
    while (size(under + 1) <= 64 * 1024) under++;
    expect(JSON.stringify({ keys: filler(under) }).length).toBeLessThanOrEqual(64 * 1024);
    expect(() => validateClient(reg(filler(under)))).not.toThrow();
    const over = under + 1;
    expect(JSON.stringify({ keys: filler(over) }).length).toBeGreaterThan(64 * 1024);
    expect(() => validateClient(reg(filler(over)))).toThrow(/jwks is larger than 64 KB/);
  });
  test('redirect URIs must be https (or loopback http) without a fragment', () => {
    expect(() => validateClient({ ...base, client_id: erpClientId(), redirect_uris: ['http://erp.example/cb'] })).toThrow(/must be https/);
    expect(() => validateClient({ ...base, client_id: erpClientId(), redirect_uris: ['https://erp.example/cb#x'] })).toThrow(/without a fragment/);
  });
});
