// DPoP (RFC 9449) at the token endpoint and at the API (/v1/whoami).
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorize, DEMO_CLIENT, dpopKey, dpopProof, erpClientId, redeem, refresh, whoami, type DpopKey, type Tokens } from '../helpers/sandbox-oauth.js';

const boundClient = erpClientId();
let sb: Sandbox;
let key: DpopKey;
let tokenUrl = '';
let whoamiUrl = '';

beforeAll(async () => {
  sb = await startSandbox({
    units: 3,
    oauthRateLimitPerMinute: 0,
    rateLimitPerMinute: 0,
    clients: [{ client_id: boundClient, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true }],
  });
  key = await dpopKey();
  tokenUrl = `${sb.url}/oauth/token`;
  whoamiUrl = `${sb.apiBase}/whoami`;
});
afterAll(() => sb.close());

async function boundTokens(clientId = DEMO_CLIENT): Promise<Tokens> {
  const flow = await authorize(sb.url, { client_id: clientId }, { decision: 'approve' });
  const answer = await redeem(sb.url, flow, { client_id: clientId }, { dpop: await dpopProof(key, 'POST', tokenUrl) });
  expect(answer.status).toBe(200);
  return answer.body as unknown as Tokens;
}

const dpopCall = async (t: Tokens, proof: string, url = whoamiUrl) => {
  const res = await fetch(url, { headers: { authorization: `DPoP ${t.access_token}`, dpop: proof } });
  return { status: res.status, www: res.headers.get('www-authenticate') ?? '', body: (await res.json()) as Record<string, unknown> };
};

describe('token endpoint', () => {
  test('a proof binds the token: token_type DPoP, and the API accepts it with a fresh proof', async () => {
    const t = await boundTokens();
    expect(t.token_type).toBe('DPoP');
    const ok = await dpopCall(t, await dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token }));
    expect(ok.status).toBe(200);
    expect(ok.body.client_id).toBe(DEMO_CLIENT);
  });

  test('a DPoP-bound client is refused tokens without a proof, and the code stays usable', async () => {
    const flow = await authorize(sb.url, { client_id: boundClient }, { decision: 'approve' });
    const refused = await redeem(sb.url, flow, { client_id: boundClient });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_dpop_proof');
    const ok = await redeem(sb.url, flow, { client_id: boundClient }, { dpop: await dpopProof(key, 'POST', tokenUrl) });
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe('DPoP');
  });

  test('a proof with a nonce is refused (the server issues no nonces)', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const answer = await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', tokenUrl, { claims: { nonce: 'abc' } }) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_dpop_proof');
  });

  test.each([
    ['2 minutes old', -120],
    ['2 minutes ahead', 120],
  ])('a proof with iat %s is refused (60 s tolerance)', async (_what, skew) => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const answer = await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', tokenUrl, { claims: { iat: Math.floor(Date.now() / 1000) + skew } }) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_dpop_proof');
    expect((await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) })).status).toBe(200);
  });

  test('a proof for another URL is refused', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const answer = await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', `${sb.url}/oauth/revoke`) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_dpop_proof');
    expect(String(answer.body.error_description)).toBe(`DPoP proof htu must be ${tokenUrl}`);
  });

  test('refresh of a bound token needs a proof with the same key and stays DPoP', async () => {
    const t = await boundTokens();
    const none = await refresh(sb.url, t.refresh_token);
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('invalid_dpop_proof');
    expect(String(none.body.error_description)).toMatch(/DPoP/);
    const other = await dpopKey();
    const wrongKey = await refresh(sb.url, t.refresh_token, {}, { dpop: await dpopProof(other, 'POST', tokenUrl) });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.error).toBe('invalid_dpop_proof');
    expect(String(wrongKey.body.error_description)).toMatch(/bound/);
    // Neither answer used up the refresh token.
    const ok1 = await refresh(sb.url, t.refresh_token, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) });
    expect(ok1.status).toBe(200);
    const t2 = await boundTokens();
    const ok = await refresh(sb.url, t2.refresh_token, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) });
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe('DPoP');
  });
});

describe('proof replay and htm/htu at the token endpoint', () => {
  test('a replayed proof is refused with invalid_dpop_proof and the code still redeems with a fresh proof', async () => {
    const proof = await dpopProof(key, 'POST', tokenUrl);
    const first = await redeem(sb.url, await authorize(sb.url, {}, { decision: 'approve' }), {}, { dpop: proof });
    expect(first.status).toBe(200);
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const replayed = await redeem(sb.url, flow, {}, { dpop: proof });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('invalid_dpop_proof');
    expect(String(replayed.body.error_description)).toMatch(/jti|already used/);
    const fresh = await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.token_type).toBe('DPoP');
  });

  test('a replayed proof on refresh is refused; the refresh token and the connection stay valid', async () => {
    const t = await boundTokens();
    const revoked = () => sb.admin.connections().filter((c) => c.state === 'revoked').length;
    const revokedBefore = revoked();
    const proof = await dpopProof(key, 'POST', tokenUrl);
    const first = await refresh(sb.url, t.refresh_token, {}, { dpop: proof });
    expect(first.status).toBe(200);
    const rt = String(first.body.refresh_token);
    const replayed = await refresh(sb.url, rt, {}, { dpop: proof });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('invalid_dpop_proof');
    const again = await refresh(sb.url, rt, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) });
    expect(again.status).toBe(200);
    const at = String(again.body.access_token);
    const me = await dpopCall({ ...t, access_token: at }, await dpopProof(key, 'GET', whoamiUrl, { accessToken: at }));
    expect(me.status).toBe(200);
    expect(revoked()).toBe(revokedBefore);
  });

  test.each([
    ['htm GET', () => dpopProof(key, 'GET', tokenUrl)],
    ['htu of the revocation endpoint', () => dpopProof(key, 'POST', `${sb.url}/oauth/revoke`)],
    ['htu of another origin', () => dpopProof(key, 'POST', 'http://127.0.0.2:1/oauth/token')],
  ])('a proof with %s is refused with invalid_dpop_proof and the code stays usable', async (_what, make) => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const refused = await redeem(sb.url, flow, {}, { dpop: await make() });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_dpop_proof');
    expect(String(refused.body.error_description)).toMatch(/htm|htu/);
    expect((await redeem(sb.url, flow, {}, { dpop: await dpopProof(key, 'POST', tokenUrl) })).status).toBe(200);
  });
});

describe('API', () => {
  let t: Tokens;
  beforeAll(async () => {
    t = await boundTokens();
  });

  test('the same token sent as Bearer is rejected', async () => {
    const me = await whoami(sb.apiBase, t.access_token);
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
  });

  test('DPoP scheme without a proof is rejected with invalid_dpop_proof', async () => {
    const res = await fetch(whoamiUrl, { headers: { authorization: `DPoP ${t.access_token}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/DPoP header with a proof is required/);
  });

  test('a query string is not part of htu', async () => {
    const r = await dpopCall(t, await dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token }), `${whoamiUrl}?x=1`);
    expect(r.status).toBe(200);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const badProofs: [string, () => Promise<string>][] = [
    ['wrong htm', () => dpopProof(key, 'POST', whoamiUrl, { accessToken: t.access_token })],
    ['wrong htu', () => dpopProof(key, 'GET', `${sb.apiBase}/properties`, { accessToken: t.access_token })],
    ['iat 2 minutes old', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token, claims: { iat: now() - 120 } })],
    ['iat 2 minutes ahead', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token, claims: { iat: now() + 120 } })],
    ['no ath', () => dpopProof(key, 'GET', whoamiUrl)],
    ['ath of another token', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: 'other' })],
    ['a nonce', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token, claims: { nonce: 'n' } })],
    ['no jti', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token, claims: { jti: undefined } })],
    ['typ jwt', () => dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token, header: { typ: 'jwt' } })],
    ['a key the token is not bound to', async () => dpopProof(await dpopKey(), 'GET', whoamiUrl, { accessToken: t.access_token })],
    [
      'a private key in the header',
      async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        return dpopProof({ privateKey, jwk: await exportJWK(privateKey) }, 'GET', whoamiUrl, { accessToken: t.access_token });
      },
    ],
    [
      'a symmetric alg',
      async () => {
        const { SignJWT } = await import('jose');
        return new SignJWT({ htm: 'GET', htu: whoamiUrl, iat: now(), jti: crypto.randomUUID() })
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: key.jwk } as { alg: string })
          .sign(new TextEncoder().encode('k'.repeat(32)));
      },
    ],
  ];
  test.each(badProofs)('a proof with %s is rejected (401 invalid_dpop_proof)', async (_what, make) => {
    const r = await dpopCall(t, await make());
    expect(r.status).toBe(401);
    expect(r.www).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(String(r.body.type)).toMatch(/#invalid-token$/);
  });

  test('a replayed proof (same jti) is rejected', async () => {
    const proof = await dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token });
    expect((await dpopCall(t, proof)).status).toBe(200);
    const again = await dpopCall(t, proof);
    expect(again.status).toBe(401);
    expect(again.www).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(String(again.body.detail)).toMatch(/jti replay/);
    // A replay at the API does not end the connection: a fresh proof works.
    expect((await dpopCall(t, await dpopProof(key, 'GET', whoamiUrl, { accessToken: t.access_token }))).status).toBe(200);
  });

  test('a Bearer token sent with the DPoP scheme is rejected', async () => {
    const flow = await authorize(sb.url, {}, { decision: 'approve' });
    const bearer = (await redeem(sb.url, flow)).body as unknown as Tokens;
    expect(bearer.token_type).toBe('Bearer');
    const r = await dpopCall(bearer, await dpopProof(key, 'GET', whoamiUrl, { accessToken: bearer.access_token }));
    expect(r.status).toBe(401);
    expect(r.www).toMatch(/^Bearer error="invalid_token"/);
    expect(String(r.body.type)).toMatch(/#invalid-token$/);
    expect(String(r.body.detail)).toMatch(/not DPoP-bound; send it as Bearer/);
  });
});
