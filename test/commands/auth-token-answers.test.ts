// Token answers a hostile or broken token endpoint gives after it has acted (the sandbox rotated
// the refresh token; a proxy changes or replaces its answer): a lifetime no date can hold is
// shortened and kept; a lifetime that breaks the contract, a token type meterdata cannot send,
// or a 3xx or 5xx after the request reached the server spend the token: exit 3, the record marked, the
// token never sent again, and the connection, checked at the sandbox, never revoked by a re-send.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginLive } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry, signInTo, storeFile } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-answers-');

const { tokenPosts, stateOf } = at;
const DAY_MS = 86_400_000;

/** Signed in at the sandbox, then pointed at the proxy, the access token expired locally. */
async function signedIn(loginArgs: string[] = []) {
  const { env, file, sid } = await at.signedIn({}, loginArgs);
  return { env, rec: setAccessExpiry(file), sid, stored: () => JSON.parse(readFileSync(file, 'utf8')) };
}

/** The token endpoint's 200 answers with `field` set to `value` (a literal JSON text, so 1e13 stays 1e13). */
function tokenAnswerWith(field: string, value: string) {
  at.proxy.rewrite = (r, body) => {
    if (r.path !== '/oauth/token' || !body.includes('"access_token"')) return body;
    const rest = JSON.parse(body) as Record<string, unknown>;
    delete rest[field];
    return `${JSON.stringify(rest).slice(0, -1)},"${field}":${value}}`;
  };
}

/** A sign-in whose token requests go through the proxy (the API, named by the resource, is the sandbox's). */
const loginThroughProxy = (env: NodeJS.ProcessEnv) => loginLive(['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', `${at.sb.url}/v1`], env);

/** After a refresh whose answer could not be kept: marked, the token never sent again, the connection alive. */
async function neverSentAgain(env: NodeJS.ProcessEnv, sid: string, posts: number, stored: () => Record<string, unknown>, rec: { refresh_token: string }) {
  expect(stored().refresh_token).toBe(rec.refresh_token);
  expect(stored().refresh_uncertain_since).toBeTruthy();
  expect(stored().refresh_intent).toBeUndefined();
  at.proxy.rewrite = undefined;
  at.proxy.lose = undefined;
  const next = await runCli(['token'], { env });
  expect(next.code, next.stderr).toBe(3);
  expect(next.stderr).toMatch(/was lost or could not be used; .*Run `meterdata login`/s);
  expect(tokenPosts()).toBe(posts + 1);
  expect(stateOf(sid)).toBe('connected');
}

describe('a lifetime no date can hold (expires_in 1e13)', () => {
  it('a refresh keeps the new tokens with a lifetime of one day; the next run uses them and sends nothing', async () => {
    const { env, rec, sid, stored } = await signedIn();
    tokenAnswerWith('expires_in', '1e13');
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(0);
    const kept = stored();
    expect(kept.refresh_token).not.toBe(rec.refresh_token);
    expect(kept.refresh_intent).toBeUndefined();
    const left = Date.parse(kept.access_expires_at) - Date.now();
    expect(left).toBeGreaterThan(DAY_MS - 60_000);
    expect(left).toBeLessThanOrEqual(DAY_MS);
    at.proxy.rewrite = undefined;
    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout.trim()).toBe(r.stdout.trim());
    expect(tokenPosts()).toBe(posts + 1);
    expect(stateOf(sid)).toBe('connected');
  });

  it("the login's code exchange keeps them too, with a lifetime of one day", async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-answers-login-')), METERDATA_CREDENTIAL_STORE: 'file' };
    tokenAnswerWith('expires_in', '1e13');
    const r = await loginThroughProxy(env);
    expect(r.code, r.stderr).toBe(0);
    const left = Date.parse(JSON.parse(readFileSync(storeFile(env), 'utf8')).access_expires_at) - Date.now();
    expect(left).toBeGreaterThan(DAY_MS - 60_000);
    expect(left).toBeLessThanOrEqual(DAY_MS);
  });
});

describe('answers the contract does not allow, after the server rotated', () => {
  it.each([
    ['a lifetime of 0', 'expires_in', '0', /lifetime \(expires_in\) is 0, not a positive number of seconds/],
    ['a negative lifetime', 'expires_in', '-5', /lifetime \(expires_in\) is -5, not a positive number/],
    ['a lifetime that is no number', 'expires_in', '"soon"', /lifetime \(expires_in\) is "soon", not a positive number/],
    // openid-client reads the text "0x10" as 0: the message said "is 0"
    ['a lifetime in hexadecimal text', 'expires_in', '"0x10"', /lifetime \(expires_in\) is "0x10", not a positive number/],
    ['a token type meterdata cannot send', 'token_type', '"mac"', /issued a token of type "mac", which meterdata does not support: only Bearer and DPoP/],
    // openid-client hands the type on in lower case: it was quoted "bearer " (round 40b F3)
    ['a token type with a space after it', 'token_type', '"Bearer "', /issued a token of type "Bearer ", which meterdata does not support/],
    // Kept, every API request failed before leaving and was retried as "the service did not answer", for an hour.
    ['an access token with a newline', 'access_token', '"a\\nb"', /its access token contains a space, a control character or a character outside ASCII/],
    // Kept, it was sent (the API answered 431) and the next run found the record "damaged" (over the store's 1 MiB).
    // (under the 1 MiB every answer is read up to: auth-answer-size.test.ts)
    ['an access token of 100 KB', 'access_token', `"${'a'.repeat(100_000)}"`, /its access token is 98 KiB long, more than the 64 KiB meterdata keeps/],
    // round 26: openid-client refuses the non-finite number itself, and that path said "is null"
    ['a lifetime of 1e400 (Infinity)', 'expires_in', '1e400', /lifetime \(expires_in\) is 1e400, not a positive number/],
    // round 26: said to contain "a space, a control character or a character outside ASCII"
    ['an empty access token', 'access_token', '""', /its access token is empty/],
  ])('%s: exit 3 saying what the answer carried, the record marked, the token never sent again', async (_name, field, value, reason) => {
    const { env, rec, sid, stored } = await signedIn();
    tokenAnswerWith(field, value);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/answered the refresh of the access token \(HTTP 200\), but its answer cannot be used/);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toMatch(/cut off|unexpected failure/);
    expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
    expect(tokenPosts()).toBe(posts + 1);
    await neverSentAgain(env, sid, posts, stored, rec);
  });

  it('the refresh token it was sent, given back instead of a new one: exit 3 saying so (never "restored from a backup"), marked, never sent again', async () => {
    const { env, rec, sid, stored } = await signedIn();
    // the sandbox rotated; the answer names the token just sent as the new one
    tokenAnswerWith('refresh_token', JSON.stringify(rec.refresh_token));
    const posts = tokenPosts();
    const r = await runCli(['token', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot be used: it gave back the refresh token it had just been sent instead of a new one/);
    expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
    expect(tokenPosts()).toBe(posts + 1);
    await neverSentAgain(env, sid, posts, stored, rec);
    expect((await runCli(['token', '--lang', 'en'], { env })).stderr).not.toMatch(/restored from a backup|by this profile itself|older copy of itself/);
  });

  it.each([
    ['a lifetime of 0', 'expires_in', '0', /lifetime \(expires_in\) is 0/],
    ['a lifetime in hexadecimal text', 'expires_in', '"0x10"', /lifetime \(expires_in\) is "0x10"/],
    ['token_type "mac"', 'token_type', '"mac"', /issued a token of type "mac", which meterdata does not support/],
  ])('at login, %s: exit 5 naming it, nothing stored', async (_name, field, value, reason) => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-answers-login-')), METERDATA_CREDENTIAL_STORE: 'file' };
    tokenAnswerWith(field, value);
    const r = await loginThroughProxy(env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/answer could not be used while trying to redeem the sign-in code/);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toMatch(/cut off|was lost/);
    expect(() => readFileSync(storeFile(env))).toThrow();
  });
});

describe('a 5xx after the refresh reached the server', () => {
  it.each([500, 502, 503, 504])('HTTP %i (the sandbox had rotated): exit 3, marked, never sent again, the connection not revoked', async (status) => {
    const { env, rec, sid, stored } = await signedIn();
    at.proxy.lose = (r) => (r.path === '/oauth/token' ? { fail: status } : undefined);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`failed with HTTP ${status} after the request reached it, possibly after it had already replaced the refresh token`));
    expect(r.stderr).toMatch(/will not send it again/);
    await neverSentAgain(env, sid, posts, stored, rec);
  });
});

describe('a 3xx after the refresh reached the server (a gateway redirects)', () => {
  // Followed, the 307 to the sandbox would present the rotated token to it again, and it would revoke the connection.
  it.each([
    [302, 'https://sso.example/login', ''],
    [307, 'the sandbox', ''],
    [301, 'https://auth.example/oauth/token', '{"error":"invalid_request"}'],
  ])('HTTP %i to %s (the sandbox had rotated): not followed, exit 3, marked, never sent again, the connection not revoked', async (status, to, body) => {
    const { env, rec, sid, stored } = await signedIn();
    const location = to === 'the sandbox' ? `${at.sb.url}/oauth/token` : to;
    at.proxy.lose = (r) => (r.path === '/oauth/token' ? { fail: status, headers: { location }, body } : undefined);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`was lost while trying to refresh the access token \\(the answer was HTTP ${status}, not a token answer`));
    expect(r.stderr).toMatch(/will not send it again/);
    expect(r.stderr).not.toMatch(/try again later/i);
    await neverSentAgain(env, sid, posts, stored, rec);
  });
});

describe('a 2xx other than 200 that carries an error challenge, after the server rotated', () => {
  it.each([
    ['invalid_grant', { 'www-authenticate': 'Bearer error="invalid_grant"' }],
    [
      'invalid_dpop_proof with a Date 10 minutes behind',
      { 'www-authenticate': 'DPoP error="invalid_dpop_proof"', date: new Date(Date.now() - 600_000).toUTCString() },
    ],
  ])('HTTP 201 with %s: exit 3, marked, never sent again (neither "connection ended" nor "fix the clock")', async (_name, headers) => {
    const { env, rec, sid, stored } = await signedIn();
    at.proxy.lose = (r) => (r.path === '/oauth/token' ? { fail: 201, body: '{}', headers } : undefined);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/was lost while trying to refresh the access token \(the answer \(HTTP 201\)/);
    expect(r.stderr).toMatch(/will not send it again/);
    await neverSentAgain(env, sid, posts, stored, rec);
  });
});

describe("openid-client's own re-send after a DPoP nonce challenge", () => {
  // The proxy answers itself: behind it the sandbox refuses the proofs (their htu names the proxy), and what is
  // checked is that the refresh token leaves once.
  const nonceChallenge = (status: number) => (r: { path: string }) =>
    Promise.resolve(r.path === '/oauth/token' ? { status, headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'n-1' } } : undefined);

  it.each([503, 201])('HTTP %i with a nonce challenge (an answer that may follow a rotation): the token leaves once, exit 3, marked', async (status) => {
    const { env, rec, sid, stored } = await signedIn(['--dpop']);
    at.proxy.intercept = nonceChallenge(status);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`was lost while trying to refresh the access token \\(.*HTTP ${status}`));
    expect(tokenPosts()).toBe(posts + 1);
    at.proxy.intercept = undefined;
    await neverSentAgain(env, sid, posts, stored, rec);
  });

  it('HTTP 400 with a nonce challenge (the token refused unused): sent once more with the nonce, as RFC 9449 asks; the record not marked', async () => {
    const { env, stored } = await signedIn(['--dpop']);
    at.proxy.intercept = nonceChallenge(400);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(tokenPosts()).toBe(posts + 2);
    expect(stored().refresh_uncertain_since).toBeUndefined();
    expect(stored().refresh_intent).toBeUndefined();
  });
});

// Round 27: a token endpoint handing out another profile's current refresh token as this one's new token. Stored,
// this profile ran on the other's connection, and the other profile's next refresh was refused as "a copy".
describe("a refresh answer whose new refresh token is another profile's current one", () => {
  it('is not stored: exit 3, the record marked; the other profile keeps working', async () => {
    const { env, rec, sid, stored } = await signedIn();
    await signInTo(at.sb, env, 'beta');
    const beta = () => JSON.parse(readFileSync(storeFile(env, 'beta'), 'utf8')) as { refresh_token: string };
    const betaToken = beta().refresh_token;
    at.proxy.rewrite = (r, body) =>
      r.path === '/oauth/token' && body.includes('"access_token"') ? JSON.stringify({ ...JSON.parse(body), refresh_token: betaToken }) : body;
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`it gave as the new refresh token the one the profile "beta" holds now`);
    expect(stored().refresh_token).toBe(rec.refresh_token);
    expect(stored().refresh_uncertain_since).toBeTruthy();
    at.proxy.rewrite = undefined;
    setAccessExpiry(storeFile(env, 'beta'));
    const other = await runCli(['token', '--profile', 'beta'], { env });
    expect(other.code, other.stderr).toBe(0);
    expect(beta().refresh_token).not.toBe(betaToken);
    expect(stateOf(sid)).toBe('connected');
  });
});
