// Short access-token lifetimes: the refresh margin fits the lifetime (the smaller of 60 s and
// half of it), so a 30 s token is not refreshed before nearly every request; and a run sends at
// most MAX_REFRESHES_PER_MINUTE refreshes a minute, then stops with a typed error, not a loop.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openConnection } from '../../src/auth/connection.js';
import { refreshMarginMs } from '../../src/auth/lifetime.js';
import { MAX_REFRESHES_PER_MINUTE } from '../../src/auth/refresh-budget.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 }, 'md-lifetime-');

const { tokenPosts, stateOf } = at;
const apiRequests = () => at.proxy.requests.filter((r) => r.path.startsWith('/v1/')).length;

/** The token endpoint's answers name this lifetime. */
function lifetime(seconds: number) {
  at.proxy.rewrite = (r, body) =>
    r.path === '/oauth/token' && body.includes('"access_token"') ? JSON.stringify({ ...JSON.parse(body), expires_in: seconds }) : body;
}

async function signedIn() {
  const { env, file, sid } = await at.signedIn();
  setAccessExpiry(file);
  return { env, file, sid };
}

describe('the refresh margin', () => {
  const issued = '2026-11-27T08:00:00.000Z';
  const after = (s: number) => new Date(Date.parse(issued) + s * 1000).toISOString();
  it.each([
    ['an hour', 3600, 60_000],
    ['2 minutes', 120, 60_000],
    ['30 s', 30, 15_000],
    ['1 s', 1, 500],
  ])('a token that lives %s is refreshed with %i ms left', (_name, seconds, margin) => {
    expect(refreshMarginMs({ updated_at: issued, access_expires_at: after(seconds) })).toBe(margin);
  });

  it('60 s when the lifetime cannot be told (no expiry, an expiry before the issue)', () => {
    expect(refreshMarginMs({ updated_at: issued })).toBe(60_000);
    expect(refreshMarginMs({ updated_at: issued, access_expires_at: after(-5) })).toBe(60_000);
  });

  it('an export with 30 s tokens refreshes once per 15 s at most, not before nearly every request', async () => {
    const { env, sid } = await signedIn();
    lifetime(30);
    const posts = tokenPosts();
    const requests = apiRequests();
    const t0 = Date.now();
    const out = mkdtempSync(path.join(os.tmpdir(), 'md-lifetime-out-'));
    const r = await runCli(['export', '--year', '2025', '--out', out, '--rate-limit', '3000'], { env });
    expect(r.code, r.stderr).toBe(0);
    const seconds = (Date.now() - t0) / 1000;
    const refreshes = tokenPosts() - posts;
    console.log(`[lifetime] 30 s tokens: ${apiRequests() - requests} API requests in ${seconds.toFixed(1)} s, ${refreshes} refresh(es)`);
    expect(apiRequests() - requests).toBeGreaterThan(30);
    // the first (the stored token had expired), then one each 15 s
    expect(refreshes).toBeLessThanOrEqual(1 + Math.ceil(seconds / 15));
    expect(stateOf(sid)).toBe('connected');
  }, 120_000);
});

describe('refreshes per minute', () => {
  it(`tokens that last 1 s: ${MAX_REFRESHES_PER_MINUTE} refreshes, then AUTH_REFRESH_TOO_OFTEN (exit 5), nothing sent or stored`, async () => {
    const { env, file, sid } = await signedIn();
    lifetime(1);
    const conn = await openConnection({ env });
    const posts = tokenPosts();
    let error: unknown;
    for (let i = 0; i < MAX_REFRESHES_PER_MINUTE + 3 && !error; i++) {
      error = await conn.credentials.currentToken().then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!error) await sleep(600); // past the 0.5 s margin of a 1 s token
    }
    await conn.close();
    expect(error).toMatchObject({ code: 'AUTH_REFRESH_TOO_OFTEN', exitCode: 5 });
    expect((error as Error).message).toMatch(new RegExp(`refreshed the sign-in ${MAX_REFRESHES_PER_MINUTE} times within a minute: .*last only 1 s `));
    expect(tokenPosts() - posts).toBe(MAX_REFRESHES_PER_MINUTE);
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.refresh_intent).toBeUndefined();
    expect(rec.refresh_uncertain_since).toBeUndefined();
    expect(stateOf(sid)).toBe('connected');
    // the count is the profile's (kept in the record): a later run within the minute is refused too, nothing sent
    expect(rec.refreshes_sent).toHaveLength(MAX_REFRESHES_PER_MINUTE);
    at.proxy.rewrite = undefined;
    const refused = await runCli(['token'], { env });
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toMatch(/refreshed \d times within a minute, by this and other meterdata runs/);
    expect(tokenPosts() - posts).toBe(MAX_REFRESHES_PER_MINUTE);
    // a minute later (the record's times moved back) a run refreshes with the stored (latest) refresh token
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    kept.refreshes_sent = kept.refreshes_sent.map((t: string) => new Date(Date.parse(t) - 61_000).toISOString());
    writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(stateOf(sid)).toBe('connected');
  }, 30_000);

  it(`one profile refreshed by runs one after another (each a new count of its own): ${MAX_REFRESHES_PER_MINUTE} a minute for the profile, then AUTH_REFRESH_TOO_OFTEN`, async () => {
    const { env, file, sid } = await signedIn();
    lifetime(1);
    const posts = tokenPosts();
    const codes: number[] = [];
    for (let i = 0; i < MAX_REFRESHES_PER_MINUTE + 2; i++) {
      setAccessExpiry(file);
      const r = await runCli(['token'], { env });
      codes.push(r.code);
      if (r.code !== 0) expect(r.stderr).toMatch(/by this and other meterdata runs/);
    }
    expect(codes).toEqual([...Array(MAX_REFRESHES_PER_MINUTE).fill(0), 5, 5]);
    expect(tokenPosts() - posts).toBe(MAX_REFRESHES_PER_MINUTE);
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.refresh_intent).toBeUndefined();
    expect(rec.refresh_uncertain_since).toBeUndefined();
    expect(stateOf(sid)).toBe('connected');
  }, 60_000);

  it('a list of refresh times meterdata cannot read only restarts the count: the sign-in is kept and refreshed', async () => {
    const { env, file } = await signedIn();
    for (const damaged of ['"yesterday"', '[1, null, "no date", {"a": 1}]', '{"x": 1}']) {
      const rec = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(file, `${JSON.stringify(rec).slice(0, -1)},"refreshes_sent":${damaged}}`, { mode: 0o600 });
      setAccessExpiry(file);
      const r = await runCli(['token'], { env });
      expect(r.code, `${damaged}: ${r.stderr}`).toBe(0);
      const times = JSON.parse(readFileSync(file, 'utf8')).refreshes_sent as string[];
      expect(times).toHaveLength(1);
      expect(Math.abs(Date.parse(times[0]!) - Date.now())).toBeLessThan(30_000);
    }
  }, 60_000);
});
