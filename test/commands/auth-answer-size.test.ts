// Every answer of the sign-in server is read up to 1 MiB (src/auth/capped-fetch.ts): an endless
// refresh answer was read until the 30 s timeout and took 8.3 GB of memory. A 2xx refresh answer
// over the cap is a lost answer (the server may have rotated): marked, never re-sent, exit 3.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginLive } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-size-');

// Without the cap an endless answer is read until the token timeout (30 s in a real run).
const signedIn = () => at.refreshDue(3_000);

const SPACES = ' '.repeat(4 * 1024 * 1024);

describe('a refresh answer over 1 MiB', () => {
  it.each([
    ['an endless 200 body (the server rotated)', 'flood' as const],
    ['a 200 token answer behind 4 MiB of whitespace (valid JSON, the server rotated)', 'padded' as const],
  ])(
    '%s: refused at the cap, exit 3, the record marked, the token never sent again',
    async (_name, mode) => {
      const { env, rec, sid, stored } = await signedIn();
      if (mode === 'flood') at.proxy.lose = (r) => (r.path === '/oauth/token' ? 'flood' : undefined);
      else at.proxy.rewrite = (r, body) => (r.path === '/oauth/token' ? SPACES + body : body);
      const posts = at.tokenPosts();
      const started = Date.now();
      const r = await runCli(['token'], { env });
      expect(r.code, r.stderr).toBe(3);
      expect(Date.now() - started).toBeLessThan(2500); // not read until the timeout
      expect(r.stderr).toMatch(/answer of the sign-in server was lost while trying to refresh the access token \(the answer \(HTTP 200\) is larger than 1 MiB/);
      expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
      expect(r.stdout + r.stderr).not.toContain(rec.refresh_token);
      expect(stored().refresh_uncertain_since).toBeTruthy();
      expect(stored().refresh_token).toBe(rec.refresh_token);

      at.proxy.lose = undefined;
      at.proxy.rewrite = undefined;
      expect((await runCli(['token'], { env })).code).toBe(3);
      expect(at.tokenPosts()).toBe(posts + 1); // never re-sent
      expect(at.stateOf(sid)).toBe('connected');
    },
    30_000,
  );
});

describe('the server metadata over 1 MiB', () => {
  it('is a clear one-line error (exit 5), no refresh sent, the record untouched', async () => {
    const { env, stored } = await signedIn();
    const before = stored();
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/.well-known/') ? SPACES + body : body);
    const posts = at.tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(5);
    const first = r.stderr.split('\n')[0]!;
    expect(first).toMatch(/Cannot read the sign-in server's metadata at .*the answer \(HTTP 200\) is larger than 1 MiB/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack
    expect(at.tokenPosts()).toBe(posts);
    expect(stored()).toEqual(before);
  }, 30_000);
});

describe('the login code exchange answered over 1 MiB', () => {
  it('is "could not be used" (exit 5) naming the bound, nothing stored', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-size-login-'));
    const env = { METERDATA_HOME: home, METERDATA_CREDENTIAL_STORE: 'file' };
    at.proxy.lose = (r) => (r.path === '/oauth/token' ? 'flood' : undefined);
    const r = await loginLive(['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', `${at.sb.url}/v1`], env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr.split('\n').find((l) => l.startsWith('meterdata:'))).toMatch(
      /^meterdata: The sign-in server's answer could not be used while trying to redeem the sign-in code \(the answer \(HTTP 200\) is larger than 1 MiB/,
    );
    expect(existsSync(path.join(home, 'state', 'credentials', 'default.json'))).toBe(false);
  }, 30_000);
});
