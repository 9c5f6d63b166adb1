// A code's token answer login refuses for its form (round 40b F1): nothing is stored, as before, and the connection
// that answer opened at the server is ended again; before, it stayed alive with nobody holding it, one more at each try.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withRefreshLock } from '../../src/auth/lock.js';
import { InterruptedError } from '../../src/core/errors.js';
import { loginLive } from '../helpers/browser.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22' }, 'md-login-bad-answer-');
const login = (env: NodeJS.ProcessEnv, signal?: AbortSignal) =>
  loginLive(
    ['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', at.sb.apiBase, '--profile', 'extra', '--lang', 'en'],
    env,
    signal ? { signal } : {},
  );
/** The states of the connections made since `before` (the sids then). */
const madeSince = (before: Set<string>) =>
  at.sb.admin
    .connections()
    .filter((c) => !before.has(c.sid))
    .map((c) => c.state);
const sids = () => new Set(at.sb.admin.connections().map((c) => c.sid));

describe('login refusing the answer to its code', () => {
  it.each([
    ['a lifetime of 0', { expires_in: 0 }, /lifetime/],
    ['a token type it does not know', { token_type: 'mac' }, /mac/],
    // refused by openid-client itself, no body on its error: the token as sent is what ends it (round 42 F1)
    ['an id_token it cannot read', { id_token: 'x.y.z' }, /JWT/],
    ['no refresh token and a lifetime of 0 (the access token ends the connection)', { refresh_token: undefined, expires_in: 0 }, /lifetime/],
    // refused only where the record is made, after the answer was taken (round 43 F1)
    ['no refresh token at all', { refresh_token: undefined }, /issued no refresh token/],
  ])(
    '%s: nothing stored, and the connection it opened is revoked at the server',
    async (_name, change, words) => {
      const { env } = await at.signedIn();
      const before = sids();
      at.proxy.rewrite = (r, body) => (r.path.startsWith('/oauth/token') ? JSON.stringify({ ...JSON.parse(body), ...change }) : body);
      const r = await login(env);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(words);
      expect(madeSince(before)).toEqual(['revoked']);
      expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
    },
    60_000,
  );

  it('an answer that is no JSON object (wrapped in an array) holding live tokens: revoked all the same (round 43 F2)', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/oauth/token') ? `[${body}]` : body);
    const r = await login(env);
    expect(r.code, r.stderr).not.toBe(0);
    expect(madeSince(before)).toEqual(['revoked']);
  }, 60_000);

  // the tokens come first, the rest of the body is cut off or beyond the 1 MiB read (round 44 N1: text() of the copy
  // failed, so no token was found and the connection stayed open)
  const tokensFirst = (pad: number) => (r: { path: string }, body: string) => {
    if (!r.path.startsWith('/oauth/token')) return body;
    const { refresh_token, ...rest } = JSON.parse(body) as { refresh_token: string };
    return JSON.stringify({ refresh_token, ...rest, padding: ' '.repeat(pad) });
  };
  it.each([
    ['cut on the wire after its tokens', 4096, 'cut' as const],
    ['over 1 MiB, its tokens at the start', 2 << 20, undefined],
  ])(
    'an answer %s: revoked at the server, nothing stored (round 44 N1)',
    async (_name, pad, lose) => {
      const { env } = await at.signedIn();
      const before = sids();
      at.proxy.rewrite = tokensFirst(pad);
      at.proxy.lose = (r) => (r.path.startsWith('/oauth/token') ? lose : undefined);
      const r = await login(env);
      expect(r.code, r.stderr).not.toBe(0);
      expect(madeSince(before)).toEqual(['revoked']);
      expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
    },
    60_000,
  );

  // round 45 F1: where it could not be ended, or no whole token came to end it with, nothing said so
  it('its revocation refused by the server: said, with the portal as the way to end it', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/oauth/token') ? JSON.stringify({ ...JSON.parse(body), expires_in: 0 }) : body);
    at.proxy.intercept = async (r) => (r.path.startsWith('/oauth/revoke') ? { status: 503, body: '{"error":"temporarily_unavailable"}' } : undefined);
    const r = await login(env);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(/The connection this answer opened could not be ended again at the server \(.+\); the landlord can disconnect it in the portal\./);
    expect(madeSince(before)).toEqual(['connected']);
  }, 60_000);

  it('no whole token in what came (over 1 MiB before its tokens): a connection perhaps open, said', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/oauth/token') ? JSON.stringify({ padding: ' '.repeat(2 << 20), ...JSON.parse(body) }) : body);
    const r = await login(env);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(
      /The sign-in server may have opened a connection with this answer, which meterdata could not read whole; the landlord can disconnect it/,
    );
    expect(madeSince(before)).toEqual(['connected']);
  }, 60_000);

  it('a credential store that will not write the record: the connection it would hold is revoked (round 43 F5)', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    at.proxy.rewrite = (r, body) => {
      // the credentials folder becomes a plain file once the code is redeemed: the record cannot be written
      if (r.path.startsWith('/oauth/token')) {
        const dir = path.join(env.METERDATA_HOME!, 'state', 'credentials');
        rmSync(dir, { recursive: true, force: true });
        writeFileSync(dir, '');
      }
      return body;
    };
    const r = await login(env);
    expect(r.code, r.stderr).not.toBe(0);
    expect(madeSince(before)).toEqual(['revoked']);
  }, 60_000);

  it('Ctrl-C while another process holds the refresh lock: heard at once, 130, told as stopped before storing (round 44 N2)', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    const stop = new AbortController();
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // another process's refresh of the profile, held until the test ends it
    const holder = withRefreshLock(env, 'extra', () => new Promise<void>((r) => (locked(), (release = r))));
    await isLocked;
    let stoppedAt = 0;
    at.proxy.rewrite = (r, body) => {
      if (r.path.startsWith('/oauth/token')) setTimeout(() => ((stoppedAt = Date.now()), stop.abort(new InterruptedError('Interrupted by SIGINT.'))), 500);
      return body;
    };
    const r = await login(env, stop.signal);
    const heardAfter = Date.now() - stoppedAt;
    release();
    await holder;
    expect(r.code, r.stderr).toBe(130);
    expect(heardAfter).toBeLessThan(2500); // a second of grace for a lock that is free
    // nothing was sent to end it: "is still open", not "may be" (round 45 F7)
    expect(r.stderr).toMatch(/Sign-in interrupted: nothing of the new sign-in is kept, and the connection it opened is still open\./);
    expect(r.stderr).not.toMatch(/could not use/);
    // nothing is sent after a stop: the connection stays as the server opened it
    expect(madeSince(before)).toEqual(['connected']);
    expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
  }, 60_000);

  it('stopped while that connection is being ended: 130, the stop told alone, the connection perhaps open (round 42 L1)', async () => {
    const { env } = await at.signedIn();
    const stop = new AbortController();
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/oauth/token') ? JSON.stringify({ ...JSON.parse(body), expires_in: 0 }) : body);
    at.proxy.intercept = async (r) => {
      if (!r.path.startsWith('/oauth/revoke')) return undefined;
      stop.abort(new InterruptedError('Interrupted by SIGINT.'));
      await new Promise((w) => setTimeout(w, 3000));
      return { status: 503, body: '' };
    };
    const r = await loginLive(['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', at.sb.apiBase, '--profile', 'extra', '--lang', 'en'], env, {
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/it may still be open, and nothing was stored\./);
    expect(r.stderr).not.toMatch(/lifetime|Nothing was half-written/);
  }, 60_000);
});
