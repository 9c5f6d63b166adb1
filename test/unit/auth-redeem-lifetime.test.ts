// The answer to a login's code exchange is judged as a refresh answer is: a numeric lifetime is named by its
// characters as sent. Round 26 fixed it for the refresh (1e400 said "is null"); the code exchange still said "null".
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { redeemCode } from '../../src/auth/token-exchange.js';

function server(body: string): oidc.Configuration {
  const config = new oidc.Configuration({ issuer: 'https://auth.example', token_endpoint: 'https://auth.example/oauth/token' }, 'client');
  config[oidc.customFetch] = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  return config;
}

const redeem = (body: string) =>
  redeemCode(
    server(body),
    new URL('http://127.0.0.1:1/callback?code=c&state=s'),
    { verifier: 'v'.repeat(43), state: 's' },
    'https://api.example',
    undefined,
  ).then(
    () => null,
    (e: unknown) => e as { code: string; exitCode: number; message: string },
  );

describe("a login's code exchange answered with a lifetime that is no positive number", () => {
  it.each([
    ['1e400 (Infinity)', '1e400'],
    ['-0', '-0'],
    ['0', '0'],
  ])('%s: named as sent, AUTH_BAD_SERVER_ANSWER exit 5', async (_name, literal) => {
    const e = await redeem(`{"access_token":"a","token_type":"bearer","refresh_token":"r","expires_in":${literal}}`);
    expect(e?.message).toMatch(new RegExp(`lifetime \\(expires_in\\) is ${literal}, not a positive number`));
    expect([e?.code, e?.exitCode]).toEqual(['AUTH_BAD_SERVER_ANSWER', 5]);
  });

  it('an empty access token is told as empty', async () => {
    const e = await redeem('{"access_token":"","token_type":"bearer","refresh_token":"r","expires_in":3600}');
    expect(e?.message).toMatch(/its access token is empty/);
  });
});
