// The refresh's guarantees, observed from outside: last refresh is a real refresh, /whoami
// runs after the lock is released, a token is never used before it is saved, 429s are
// retried and nothing else is, the 60 s margin. A counting proxy sits in front of the sandbox.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { loadProfile } from '../../src/core/config.js';
import { openStore, type CredentialStore, type StoredRecord } from '../../src/auth/credential-store/index.js';
import { withRefreshLock } from '../../src/auth/lock.js';
import { readSpent, spentBy, spentFile } from '../../src/auth/spent-tokens.js';
import { Session } from '../../src/auth/session.js';
import { InterruptedError } from '../../src/core/errors.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-safety-');

/** Signed in at the sandbox, then pointed at the proxy (issuer and API), file store. */
async function signedIn(): Promise<{ env: NodeJS.ProcessEnv; file: string }> {
  return at.signedIn();
}

const expiresIn = (file: string, ms: number) => setAccessExpiry(file, ms);
/** The margin is the smaller of 60 s and half the token's lifetime (from updated_at): make the stored token an hour-long one. */
function issuedAnHourAgo(file: string) {
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...rec, updated_at: new Date(Date.now() - 3600_000).toISOString() }), { mode: 0o600 });
}

const lastRefresh = async (env: NodeJS.ProcessEnv) => (await loadProfile(env, 'default'))!.last_refresh_at!;
const tokenPosts = () => at.proxy.count('POST', '/oauth/token');

describe('status "Last refresh"', () => {
  it('moves only when tokens are issued: not on status, later after a real refresh', async () => {
    const { env, file } = await signedIn();
    const atLogin = await lastRefresh(env);
    expect(Date.parse(atLogin)).toBeGreaterThan(Date.now() - 60_000);
    await new Promise((r) => setTimeout(r, 30));
    for (let i = 0; i < 2; i++) {
      const st = await runCli(['status'], { env });
      expect(st.code, st.stdout).toBe(0);
      expect(st.stdout).toContain(`Last refresh:    ${atLogin}`);
      expect(await lastRefresh(env)).toBe(atLogin);
    }
    expiresIn(file, -1000);
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(0);
    const afterRefresh = await lastRefresh(env);
    expect(Date.parse(afterRefresh)).toBeGreaterThan(Date.parse(atLogin));
    for (let i = 0; i < 2; i++) {
      expect((await runCli(['status'], { env })).code).toBe(0);
      expect(await lastRefresh(env)).toBe(afterRefresh);
    }
  });
});

describe('/whoami after a refresh', () => {
  it('runs after the refresh lock is released: a slow /whoami does not hold other processes', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let whoamiSeen = false;
    at.proxy.intercept = async (r) => {
      if (r.path === '/v1/whoami') {
        whoamiSeen = true;
        await held;
      }
      return undefined;
    };
    const tok = runCli(['token'], { env });
    for (let i = 0; i < 200 && !whoamiSeen; i++) await new Promise((r) => setTimeout(r, 25));
    expect(whoamiSeen).toBe(true);
    const got = await Promise.race([
      withRefreshLock(env, 'default', async () => 'lock free'),
      new Promise((r) => setTimeout(() => r('lock still held'), 3000)),
    ]);
    release();
    expect(got).toBe('lock free');
    const r = await tok;
    expect(r.code, r.stderr).toBe(0);
  });

  it('the warning after a failing /whoami shows the server’s text (a trace id) with its control characters escaped', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const body = JSON.stringify({ type: 'https://errors.example/service-unavailable', status: 503, trace_id: 'abc\u001b]0;owned\u0007\u001b[2J\u202e' });
    at.proxy.intercept = async (r) =>
      r.path === '/v1/whoami' ? { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '0' }, body } : undefined;
    const tok = await runCli(['token'], { env });
    at.proxy.intercept = undefined;
    expect(tok.code, tok.stderr).toBe(5); // the token, unchecked, is not printed (round 29)
    expect(tok.stderr).toContain('abc\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{202e}');
    expect(tok.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });

  // Round 29: the token printed here was never checked against the profile's landlord, and it stayed stored for the
  // next `token` to print; now the new refresh token is kept, the access token is neither printed nor kept.
  it('a failing /whoami after a successful refresh keeps the new refresh token and warns; `token` prints nothing (exit 5) and the next run refreshes and checks', async () => {
    const { env, file } = await signedIn();
    const old = expiresIn(file, -1000);
    at.proxy.intercept = async (r) =>
      r.path === '/v1/whoami'
        ? {
            status: 503,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
            body: '{"type":"https://errors.example/service-unavailable","status":503}',
          }
        : undefined;
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(5);
    expect(tok.stdout).toBe('');
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.refresh_token).not.toBe(old.refresh_token);
    expect(rec.access_token).toBeUndefined();
    expect(tok.stderr).toMatch(
      /Warning: the access token was refreshed, but checking the connection \(\/whoami\) failed: .* It is not kept for the next command/,
    );
    at.proxy.intercept = undefined;
    const posts = tokenPosts();
    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(tokenPosts()).toBe(posts + 1);
    expect(next.stdout.trim()).toBe(JSON.parse(readFileSync(file, 'utf8')).access_token);
  }, 30_000);
});

describe('persist before use', () => {
  /** The file store, with writes refused when `refuse` says so. */
  async function storeRefusing(env: NodeJS.ProcessEnv, refuse: (rec: StoredRecord) => boolean) {
    const profile = (await loadProfile(env, 'default'))!;
    const real = openStore('file', env);
    const failing: CredentialStore = {
      kind: real.kind,
      describe: (p) => real.describe(p),
      read: (p) => real.read(p),
      remove: (p) => real.remove(p),
      write: async (p, rec) => {
        if (refuse(rec)) throw new Error('no space left on device');
        return real.write(p, rec);
      },
    };
    return { profile, session: new Session(profile, failing, (await real.read('default'))!, env) };
  }

  it('a store that cannot save the new tokens: no API request carries them, exit 3 (the rotated token is gone: sign in again, not try later), the message says what happened', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const { profile, session } = await storeRefusing(env, (rec) => !rec.refresh_intent);
    const posts = tokenPosts();
    const v1Before = at.proxy.requests.filter((r) => r.path.startsWith('/v1/')).length;
    const api = createApiClient({ baseUrl: profile.base_url, credentials: session.credentials() });
    const err = await api.whoami().catch((e: unknown) => e);
    await api.close();
    expect(tokenPosts()).toBe(posts + 1); // the server did answer with new tokens
    expect(at.proxy.requests.filter((r) => r.path.startsWith('/v1/')).length).toBe(v1Before);
    expect(err).toMatchObject({ code: 'AUTH_TOKENS_NOT_SAVED', exitCode: 3 });
    expect((err as Error).message).toMatch(/issued new tokens, but they could not be saved \(no space left on device\); they were not used/);
    // the intent stays: the next run does not present the rotated token, it says sign in again
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
  });

  it('a store that cannot record the intent: no refresh is sent, exit 5', async () => {
    const { env, file } = await signedIn();
    const before = expiresIn(file, -1000);
    const { profile, session } = await storeRefusing(env, () => true);
    const posts = tokenPosts();
    const api = createApiClient({ baseUrl: profile.base_url, credentials: session.credentials() });
    const err = await api.whoami().catch((e: unknown) => e);
    await api.close();
    expect(tokenPosts()).toBe(posts);
    expect(err).toMatchObject({ code: 'AUTH_STORE_WRITE_FAILED', exitCode: 5 });
    expect((err as Error).message).toMatch(/no refresh was sent/);
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).toBe(before.refresh_token);
  });
});

describe('token endpoint answers', () => {
  const tooMany = {
    status: 429,
    headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
    body: '{"type":"https://errors.example/too-many-requests","status":429}',
  };

  it('a 429 is retried after Retry-After (the refresh token was not used), then the refresh succeeds', async () => {
    const { env, file } = await signedIn();
    const old = expiresIn(file, -1000);
    let refused = 0;
    at.proxy.intercept = async (r) => (r.path === '/oauth/token' && refused++ < 2 ? tooMany : undefined);
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(0);
    expect(tokenPosts()).toBe(posts + 3);
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).not.toBe(old.refresh_token);
  }, 20_000);

  it('a 429 that does not stop: bounded retries, exit 5, the store untouched', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    at.proxy.intercept = async (r) => (r.path === '/oauth/token' ? tooMany : undefined);
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.code).toBe(5);
    expect(tok.stderr).toMatch(/rate-limiting requests \(HTTP 429\)/);
    expect(tokenPosts()).toBe(posts + 4);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 20_000);

  it("its 429 waits count against the connection's total of Retry-After pauses: past it RATE_LIMIT_BUDGET_SPENT, exit 5, the store untouched", async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    at.proxy.intercept = async (r) => (r.path === '/oauth/token' ? tooMany : undefined);
    const posts = tokenPosts();
    // a total of 1.5 s: the first 1 s wait fits, the second does not (without the total: 3 waits, 4 posts)
    const tok = await runCli(['token'], { env: { ...env, METERDATA_TEST_HOOKS: '1', METERDATA_TEST_RETRY_AFTER_TOTAL_MS: '1500' } });
    expect(tok.code, tok.stderr).toBe(5);
    expect(tok.stderr).toMatch(
      /has had this run wait 1 second within the last hour \(HTTP 429, Retry-After\) and now asks for 1 second more before the next request to POST http:\/\/[^ ]+\/oauth\/token/,
    );
    expect(tokenPosts()).toBe(posts + 2);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 20_000);

  it('a 429 sent only after a slow attempt: the attempt counts against the total though Retry-After is 0 (RATE_LIMIT_BUDGET_SPENT, exit 5, the store untouched)', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    at.proxy.intercept = async (r) => {
      if (r.path !== '/oauth/token') return undefined;
      await new Promise((ok) => setTimeout(ok, 1_000));
      return { ...tooMany, headers: { ...tooMany.headers, 'retry-after': '0' } };
    };
    const posts = tokenPosts();
    // a total of 1.5 s: the first refused attempt (1 s) fits, the second does not (counting only Retry-After: 4 posts, "rate-limiting requests")
    const tok = await runCli(['token'], { env: { ...env, METERDATA_TEST_HOOKS: '1', METERDATA_TEST_RETRY_AFTER_TOTAL_MS: '1500' } });
    expect(tok.code, tok.stderr).toBe(5);
    expect(tok.stderr).toMatch(
      /has had this run wait 1 second within the last hour \(HTTP 429, Retry-After\) and now asks for .* more before the next request to POST http:\/\/[^ ]+\/oauth\/token/,
    );
    expect(tokenPosts()).toBe(posts + 2);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 20_000);

  it('a 429 asking for more than 30 s: not waited, exit 5 saying when to run again, the store untouched', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    at.proxy.intercept = async (r) => (r.path === '/oauth/token' ? { ...tooMany, headers: { ...tooMany.headers, 'retry-after': '1000000000' } } : undefined);
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.code).toBe(5);
    expect(tok.stderr).toMatch(/asked to wait \d+ days before the next token request/);
    expect(tok.stderr).toMatch(/Run the command again after \d{4}-\d\d-\d\dT/);
    expect(tokenPosts()).toBe(posts + 1);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('Ctrl-C while waiting out a 429: exit 130 at once, nothing sent again, no refresh intent left behind', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    const ctrlC = new AbortController();
    at.proxy.intercept = async (r) => {
      if (r.path !== '/oauth/token') return undefined;
      setTimeout(() => ctrlC.abort(new InterruptedError('Interrupted by SIGINT.')), 100);
      return { ...tooMany, headers: { ...tooMany.headers, 'retry-after': '2' } };
    };
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env, signal: ctrlC.signal });
    expect(tok.code, tok.stderr).toBe(130);
    expect(tok.stderr).toMatch(/Interrupted by SIGINT/);
    expect(tokenPosts()).toBe(posts + 1);
    // no intent: the next run may refresh (the token was turned away, never used)
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 20_000);

  /** `token` started with the token endpoint's first answer a 429 (Retry-After 2 s); returned once that answer went out. */
  async function tokenRunIn429Wait(env: NodeJS.ProcessEnv) {
    let served = 0;
    at.proxy.intercept = async (r) => {
      if (r.path !== '/oauth/token' || served++ > 0) return undefined;
      return { ...tooMany, headers: { ...tooMany.headers, 'retry-after': '2' } };
    };
    const run = runCli(['token'], { env });
    const deadline = Date.now() + 10_000;
    while (served === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return { run };
  }

  // Round 26: the intent written before the first attempt stayed through the 429 waits (up to 3 × 30 s), so a run
  // killed there (SIGKILL, an OOM kill, a container stopped) left a record the next run refused as possibly
  // rotated, for a token the server had turned away unused: a sign-in lost for nothing.
  it('while a 429 is waited out, neither the intent nor the claim of the token stands (a kill then loses nothing); both are back for the next attempt', async () => {
    const { env, file } = await signedIn();
    const old = expiresIn(file, -1000);
    const posts = tokenPosts();
    const { run } = await tokenRunIn429Wait(env);
    await new Promise((r) => setTimeout(r, 700));
    const midWait = JSON.parse(readFileSync(file, 'utf8')) as StoredRecord;
    const claimed = spentBy(env, old.refresh_token);
    const tok = await run;
    expect(tok.code, tok.stderr).toBe(0);
    expect(tokenPosts()).toBe(posts + 2);
    expect(midWait.refresh_token).toBe(old.refresh_token);
    expect(midWait.refresh_intent).toBeUndefined();
    expect(midWait.refresh_uncertain_since).toBeUndefined();
    expect(claimed).toBeUndefined();
    // the attempt after the wait claimed it again: the spent list names it now, as after every refresh
    expect(spentBy(env, old.refresh_token)).toBeDefined();
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).not.toBe(old.refresh_token);
  }, 20_000);

  // Round 27 (F9): where the claim could not be given back for the wait (the list's lock held by a stuck process), the
  // record lost its intent but the list kept the claim, and the next run refused the never-used token (exit 3). The
  // lock is a file here: refused at once, as a stuck holder's lock is after a minute's wait.
  it("a claim that cannot be given back during a 429's wait: the record names it, the next run takes it over and refreshes; a backup naming it does not", async () => {
    const { env, file, sid } = await at.signedIn();
    const old = expiresIn(file, -1000);
    const lock = `${spentFile(env)}.lock`;
    let served = 0;
    at.proxy.intercept = async (r) => {
      if (r.path !== '/oauth/token' || served++ > 0) return undefined;
      writeFileSync(lock, 'held');
      return tooMany;
    };
    const posts = tokenPosts();
    const stuck = await runCli(['token'], { env });
    expect(stuck.code, stuck.stderr).toBe(5);
    expect(tokenPosts()).toBe(posts + 1);
    const named = JSON.parse(readFileSync(file, 'utf8')) as StoredRecord;
    expect([named.refresh_intent, named.refresh_uncertain_since, named.refresh_token]).toEqual([undefined, undefined, old.refresh_token]);
    expect(named.refresh_claim_unused).toBe(spentBy(env, old.refresh_token)?.c);
    rmSync(lock);

    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(tokenPosts()).toBe(posts + 2);
    expect(at.stateOf(sid)).toBe('connected');
    // one entry for the token: the taken-over claim was replaced, under a new id
    expect(readSpent(env).filter((e) => e.h === spentBy(env, old.refresh_token)?.h)).toHaveLength(1);
    expect(spentBy(env, old.refresh_token)?.c).not.toBe(named.refresh_claim_unused);

    // the record of the wait put back (a backup): its token was sent since, so it is refused, never sent
    writeFileSync(file, JSON.stringify(named), { mode: 0o600 });
    const restored = await runCli(['token'], { env });
    expect(restored.code, restored.stderr).toBe(3);
    expect(tokenPosts()).toBe(posts + 2);
    expect(at.stateOf(sid)).toBe('connected');
  }, 30_000);

  // Round 27: logout took no lock, so a refresh waiting out a 429 (or whose answer was on its way) wrote the deleted
  // record back after the logout and sent the revoked token again.
  it('logout while another run waits out a 429: it waits for that refresh, then revokes and deletes what it left; nothing is written back', async () => {
    const { env, file, sid } = await at.signedIn();
    expiresIn(file, -1000);
    const posts = tokenPosts();
    const { run } = await tokenRunIn429Wait(env);
    const logout = await runCli(['logout'], { env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toMatch(/connection revoked at the server; local sign-in deleted/);
    const tok = await run;
    // its /whoami comes after the lock is given back, so the logout's revocation may come first (under load): then the
    // new token is refused there and not kept; either way nothing is written back
    if (tok.code !== 0) expect(tok.stderr).toMatch(/the API refused it at once \(HTTP 401 on \/whoami\); it is not kept/);
    expect(tokenPosts()).toBe(posts + 2);
    expect(existsSync(file)).toBe(false);
    expect(at.stateOf(sid)).toBe('revoked');
  }, 30_000);

  // Round 26: an older refresh token of this connection given back as the new one was stored with exit 0, and the
  // next run refused it, blaming an earlier run or a backup.
  it('a refresh answer naming as the new refresh token one already sent: exit 3 at once, the record marked, never sent', async () => {
    const { env, file } = await signedIn();
    const first = expiresIn(file, -1000);
    expect((await runCli(['token'], { env })).code).toBe(0); // first.refresh_token is spent now
    expiresIn(file, -1000);
    at.proxy.rewrite = (r, body) => (r.path === '/oauth/token' ? JSON.stringify({ ...JSON.parse(body), refresh_token: first.refresh_token }) : body);
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(3);
    expect(tok.stderr).toMatch(/it gave back as the new refresh token one that was already sent for a refresh \(at /);
    expect(tokenPosts()).toBe(posts + 1);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredRecord;
    expect(stored.refresh_uncertain_since).toBeDefined();
    at.proxy.rewrite = undefined;
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
  }, 20_000);

  it("Ctrl-C while waiting for another process's refresh lock: exit 130 at once, no refresh sent, the record untouched", async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    const before = readFileSync(file, 'utf8');
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // another process's refresh, 4 s long (without the abort ending the wait, the run refreshed right after it)
    const holder = withRefreshLock(env, 'default', async () => {
      locked();
      await new Promise((r) => setTimeout(r, 4000));
    });
    await isLocked;
    const ctrlC = new AbortController();
    setTimeout(() => ctrlC.abort(new InterruptedError('Interrupted by SIGTERM.')), 300);
    const posts = tokenPosts();
    const started = Date.now();
    const tok = await runCli(['token'], { env, signal: ctrlC.signal });
    const took = Date.now() - started;
    await holder;
    expect(tok.code, tok.stderr).toBe(130);
    expect(tokenPosts()).toBe(posts);
    expect(took).toBeLessThan(3000);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 20_000);

  it('a 5xx is not retried, and the token is never sent again (the server may have rotated it before failing)', async () => {
    const { env, file } = await signedIn();
    expiresIn(file, -1000);
    at.proxy.intercept = async (r) => (r.path === '/oauth/token' ? { status: 503, body: '{"error":"temporarily_unavailable"}' } : undefined);
    const posts = tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(3);
    expect(tok.stderr).toMatch(/failed with HTTP 503 after the request reached it/);
    expect(tokenPosts()).toBe(posts + 1);
    at.proxy.intercept = undefined;
    expect((await runCli(['token'], { env })).code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
  });
});

describe('the 60 s margin', () => {
  it('an hour-long token expiring in 30 s is refreshed before use; one with 2 minutes left is not', async () => {
    const { env, file } = await signedIn();
    issuedAnHourAgo(file);
    const soon = expiresIn(file, 30_000);
    let posts = tokenPosts();
    const a = await runCli(['token'], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(tokenPosts()).toBe(posts + 1);
    expect(a.stdout.trim()).not.toBe(soon.access_token);
    issuedAnHourAgo(file);
    const later = expiresIn(file, 120_000);
    posts = tokenPosts();
    const b = await runCli(['token'], { env });
    expect(b.stdout.trim()).toBe(later.access_token);
    expect(tokenPosts()).toBe(posts);
  });
});

describe('METERDATA_ACCESS_TOKEN', () => {
  it('`token` prints it without any profile or METERDATA_BASE_URL', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-override-')), METERDATA_ACCESS_TOKEN: 'static-token' };
    const tok = await runCli(['token', '--profile', 'nowhere'], { env });
    expect(tok.code, tok.stderr).toBe(0);
    expect(tok.stdout).toBe('static-token\n');
    expect(tok.stderr).toBe('');
  });
});
