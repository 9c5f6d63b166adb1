// Ctrl-C or SIGTERM during a wait that round 45 found deaf (F4, F5): the sign-in server's metadata that never comes,
// the code's answer that never comes, the lock of the list of refresh tokens already sent. Each was heard only when the
// 30 s timeout or the 56 s lock wait ran out, and then told with a second error block or as a connection being ended
// that nothing was sent to end. Now heard at once (nothing is on its way) or after a second (the code's answer).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withLockAt } from '../../src/auth/lock.js';
import { readSpent, spentFile, tokenHash } from '../../src/auth/spent-tokens.js';
import { InterruptedError } from '../../src/core/errors.js';
import { loginLive } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-stop-waits-');
const login = (env: NodeJS.ProcessEnv, signal: AbortSignal) =>
  loginLive(['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', at.sb.apiBase, '--profile', 'extra', '--lang', 'en'], env, { signal });
const sids = () => new Set(at.sb.admin.connections().map((c) => c.sid));

/** Aborts `stop` `ms` after `start()` is called; the time of the abort, once it came. */
function ctrlCAfter(stop: AbortController, ms: number): { start(): void; at(): number } {
  let when = 0;
  return {
    start: () => void setTimeout(() => ((when = Date.now()), stop.abort(new InterruptedError('Interrupted by SIGINT.'))), ms),
    at: () => when,
  };
}
/** An answer the proxy holds back for longer than any test waits. */
const never = () => new Promise<undefined>((r) => setTimeout(() => r(undefined), 45_000));

describe('a stop while the code’s answer is awaited', () => {
  it('the answer never comes: 130 within about a second, told as awaited, a connection perhaps open', async () => {
    const { env } = await at.signedIn();
    const before = sids();
    const stop = new AbortController();
    const ctrlC = ctrlCAfter(stop, 300);
    at.proxy.lose = (r) => (r.path.startsWith('/oauth/token') ? (ctrlC.start(), 'stall') : undefined);
    const r = await login(env, stop.signal);
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - ctrlC.at()).toBeLessThan(3000); // heard after the 30 s timeout before
    expect(r.stderr).toMatch(
      /Sign-in interrupted while the sign-in server's answer to the code was awaited; it may have opened a connection, and nothing was stored\./,
    );
    expect(r.stderr).not.toMatch(/was being ended|Nothing was half-written/);
    // the sandbox redeemed the code: that connection is open, and was said to perhaps be
    expect(
      at.sb.admin
        .connections()
        .filter((c) => !before.has(c.sid))
        .map((c) => c.state),
    ).toEqual(['connected']);
  }, 60_000);
});

describe('a stop while the sign-in server’s metadata is awaited (nothing sent yet)', () => {
  it('login: 130 at once, one block', async () => {
    const { env } = await at.signedIn();
    const stop = new AbortController();
    const ctrlC = ctrlCAfter(stop, 300);
    at.proxy.intercept = async (r) => (r.path.startsWith('/.well-known/') ? (ctrlC.start(), never()) : undefined);
    const r = await runCli(['login', '--no-browser', '--auth-url', at.proxy.url, '--base-url', at.sb.apiBase, '--profile', 'extra', '--lang', 'en'], {
      env,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - ctrlC.at()).toBeLessThan(2000);
    expect(r.stderr).toMatch(/^meterdata: Interrupted by SIGINT\./);
    expect(r.stderr).not.toMatch(/OAUTH_TIMEOUT|could not be used|authorize\?/);
  }, 60_000);

  it('a refresh, under the refresh lock: 130 at once, nothing sent, the record as it was', async () => {
    const { env, file } = await at.refreshDue(30_000);
    const before = readFileSync(file, 'utf8');
    const posts = at.tokenPosts();
    const stop = new AbortController();
    const ctrlC = ctrlCAfter(stop, 300);
    at.proxy.intercept = async (r) => (r.path.startsWith('/.well-known/') ? (ctrlC.start(), never()) : undefined);
    const r = await runCli(['token'], { env, signal: stop.signal });
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - ctrlC.at()).toBeLessThan(2000);
    expect([at.tokenPosts(), readFileSync(file, 'utf8')]).toEqual([posts, before]);
  }, 60_000);
});

describe('a stop while another process holds the list of refresh tokens already sent', () => {
  it('130 at once, one block, no refresh sent (round 45 F4: 57 s, and "refreshing for too long" beside it)', async () => {
    const { env } = await at.refreshDue(30_000);
    const posts = at.tokenPosts();
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = withLockAt(env, spentFile(env), () => new Promise<void>((r) => (locked(), (release = r))));
    await isLocked;
    const stop = new AbortController();
    const ctrlC = ctrlCAfter(stop, 500);
    ctrlC.start();
    const r = await runCli(['token'], { env, signal: stop.signal });
    const heard = Date.now() - ctrlC.at();
    release();
    await holder;
    expect(r.code, r.stderr).toBe(130);
    expect(heard).toBeLessThan(2000);
    expect(r.stderr).not.toMatch(/for too long/);
    expect(at.tokenPosts()).toBe(posts);
  }, 90_000);
});

// Round 46 L1: an answer cut inside its first token arriving within the second's grace after a stop was told in three
// blocks (the connection perhaps open, "Interrupted … Nothing was half-written", the answer's own failure).
describe('a stop, then within the grace an answer with no whole token', () => {
  it('the connection perhaps open and the stop: no third block about the answer', async () => {
    const { env } = await at.signedIn();
    const stop = new AbortController();
    at.proxy.rewrite = (r, body) => {
      if (!r.path.startsWith('/oauth/token')) return body;
      stop.abort(new InterruptedError('Interrupted by SIGINT.'));
      return JSON.stringify({ padding: ' '.repeat(2 << 20), ...JSON.parse(body) });
    };
    const r = await login(env, stop.signal);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/The sign-in server may have opened a connection with this answer, which meterdata could not read whole/);
    expect(r.stderr).toMatch(/Interrupted by SIGINT\./);
    expect(r.stderr).not.toMatch(/larger than 1 MiB|could not be used/);
  }, 60_000);
});

// Round 46 M1: a holder the lock did not keep out (the locks folder removed under it) stored new tokens while this run
// was about to refresh; its intent, written from what it had read before, overwrote them: a new refresh token lost.
describe('the record changed by another holder before the intent is written', () => {
  it('nothing is written over it and nothing sent: the other holder’s fresh token is used', async () => {
    const { env, file } = await at.refreshDue(30_000);
    const posts = at.tokenPosts();
    const theirs = {
      ...JSON.parse(readFileSync(file, 'utf8')),
      access_token: 'theirs-access',
      access_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    };
    setTimeout(() => writeFileSync(file, JSON.stringify(theirs), { mode: 0o600 }), 400);
    const r = await runCli(['token'], { env: { ...env, METERDATA_TEST_PAUSE_BEFORE_REFRESH_MS: '1000' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('theirs-access');
    expect(at.tokenPosts()).toBe(posts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(theirs);
  }, 60_000);

  // Round 47 M1′: the token is claimed store-wide first, then the record read once more right before the intent: a
  // write in between is found there; the claim is given back, so the token stays sendable.
  it('written after the claim, before the intent: nothing written over it, nothing sent, the claim given back', async () => {
    const { env, file, rec } = await at.refreshDue(30_000);
    const posts = at.tokenPosts();
    const theirs = { ...rec, access_token: 'theirs-later', access_expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    setTimeout(() => writeFileSync(file, JSON.stringify(theirs), { mode: 0o600 }), 400);
    const r = await runCli(['token'], { env: { ...env, METERDATA_TEST_PAUSE_BEFORE_INTENT_MS: '1000' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/test-hook: BEFORE_INTENT/);
    expect(r.stdout.trim()).toBe('theirs-later');
    expect(at.tokenPosts()).toBe(posts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(theirs);
    expect(readSpent(env).some((e) => e.h === tokenHash(rec.refresh_token))).toBe(false);
  }, 60_000);
});
