// The OAuth error table (Errors -> OAuth errors): each code with its HTTP status and body shape.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorize, DEMO_CLIENT, DEMO_REDIRECT, postForm, redeem, type TokenAnswer } from '../helpers/sandbox-oauth.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ units: 2, oauthRateLimitPerMinute: 0 });
});
afterAll(() => sb.close());

const token = (form: Record<string, string | undefined>) => postForm(`${sb.url}/oauth/token`, { client_id: DEMO_CLIENT, ...form });
const approved = () => authorize(sb.url, {}, { decision: 'approve' });

const rows: [string, number, string, () => Promise<TokenAnswer>][] = [
  ['missing grant_type', 400, 'invalid_request', () => token({})],
  ['missing code', 400, 'invalid_request', () => token({ grant_type: 'authorization_code', redirect_uri: DEMO_REDIRECT, code_verifier: 'x'.repeat(43) })],
  ['unsupported grant type', 400, 'unsupported_grant_type', () => token({ grant_type: 'password', username: 'a', password: 'b' })],
  ['client_credentials grant', 400, 'unsupported_grant_type', () => token({ grant_type: 'client_credentials' })],
  [
    'unknown client',
    401,
    'invalid_client',
    () => token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'erp_0123456789abcdef0123456789abcdef' }),
  ],
  [
    'unknown code',
    400,
    'invalid_grant',
    () => token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: DEMO_REDIRECT, code_verifier: 'x'.repeat(43) }),
  ],
  ['wrong code_verifier', 400, 'invalid_grant', async () => redeem(sb.url, await approved(), { code_verifier: 'y'.repeat(43) })],
  ['missing code_verifier', 400, 'invalid_grant', async () => redeem(sb.url, await approved(), { code_verifier: undefined })],
  ['other redirect_uri than authorized', 400, 'invalid_grant', async () => redeem(sb.url, await approved(), { redirect_uri: 'http://127.0.0.1:1/callback' })],
  ['unknown refresh token', 400, 'invalid_grant', () => token({ grant_type: 'refresh_token', refresh_token: 'nope' })],
  ['unknown resource at the token endpoint', 400, 'invalid_target', async () => redeem(sb.url, await approved(), { resource: 'https://elsewhere.example' })],
  [
    'scope not granted on refresh',
    400,
    'invalid_scope',
    async () => {
      const t = await redeem(sb.url, await authorize(sb.url, { scope: 'read:units' }, { decision: 'approve' }));
      return token({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token as string, scope: 'read:readings' });
    },
  ],
];

test.each(rows)('%s: %i %s', async (_what, status, error, call) => {
  const answer = await call();
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual(expect.objectContaining({ error, error_description: expect.any(String) }));
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
});

test('a JSON body at the token endpoint is refused as invalid_request', async () => {
  const res = await fetch(`${sb.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x', client_id: DEMO_CLIENT }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
});

test('an oversized form body is refused without crashing the server', async () => {
  const answer = await token({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(70 * 1024) });
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe('invalid_request');
  expect((await fetch(`${sb.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
});
