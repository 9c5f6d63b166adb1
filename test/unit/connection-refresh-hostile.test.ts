// The connection against a hostile server around a token refresh (issue 14):
// - the /whoami after a refresh answering with another landlord: the run stops (exit 4)
//   before reading anything more with that token, and the profile keeps its tenant;
// - a server that rejects every token it just issued: each rejection used to cost a refresh
//   (a token request and an urgent /whoami ahead of the queue) for every request of the run;
//   now a handful in ten minutes ends the run (exit 5).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REJECTED_REFRESHES } from '../../src/auth/refresh-budget.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';
import { findEnglish } from '../helpers/catalogues.js';

const at = sandboxBehindProxy(
  { autoConsent: true, admin: true, clock: '2026-11-22', units: 60, oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 },
  'md-refresh-hostile-',
);

const OTHER = {
  tenant_id: '0b7e1c52-3f4d-4c1a-9d7e-5a6b7c8d9e0f',
  tenant_name: 'Fremdverwaltung GmbH',
  client_id: 'x',
  granted_scopes: ['read:units', 'read:devices', 'read:readings'],
  property_scope: 'all',
};

/** A 401 that makes the client refresh its token. */
const INVALID_TOKEN = {
  status: 401,
  headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_token"' },
  body: JSON.stringify({ type: 'https://developer.example/errors/#invalid-token', title: 'invalid token', status: 401 }),
};

/** The `nth` /v1 request from now is answered 401 (a refresh follows); every /whoami after it names another tenant. */
function otherTenantAfterRefresh(nth: number): () => number {
  let n = 0;
  let after = 0;
  at.proxy.intercept = async (r): Promise<{ status: number; headers: Record<string, string>; body: string } | undefined> => {
    if (!r.path.startsWith('/v1/')) return undefined;
    n++;
    if (n === nth) return INVALID_TOKEN;
    if (n > nth) after++;
    if (n > nth && r.path === '/v1/whoami') return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) };
    return undefined;
  };
  return () => after;
}

/** The first request of every /v1 path other than /whoami is answered 401 invalid-token: each refreshes, each retry passes. */
function rejectFirstOfEachPath(): void {
  const seen = new Set<string>();
  at.proxy.intercept = async (r) => {
    if (!r.path.startsWith('/v1/') || r.path === '/v1/whoami' || seen.has(r.path)) return undefined;
    seen.add(r.path);
    return {
      status: 401,
      headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_token"' },
      body: JSON.stringify({ type: 'https://developer.example/errors/#invalid-token', title: 'invalid token', status: 401 }),
    };
  };
}

async function signedIn(): Promise<NodeJS.ProcessEnv> {
  return (await at.signedIn()).env;
}

const profileOf = (env: NodeJS.ProcessEnv) => JSON.parse(readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json'), 'utf8')).profiles.default;

describe('a refreshed token whose /whoami names another landlord', () => {
  it('stops the export with exit 4; the profile keeps its tenant; no workbook is written', async () => {
    const env = await signedIn();
    const before = profileOf(env);
    expect(before.tenant_id).toBeTruthy();
    const out = path.join(env.METERDATA_HOME!, 'out');
    const after = otherTenantAfterRefresh(4);
    const r = await runCli(['export', '--year', '2025', '--out', out, '--quiet', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('After the token refresh the API names another tenant ("Fremdverwaltung GmbH"');
    expect(r.stderr).toContain('meterdata login');
    // Nothing but the /whoami itself (and its one repeat by the client's own check) went out with that token.
    expect(after()).toBeLessThanOrEqual(2);
    expect(profileOf(env).tenant_id).toBe(before.tenant_id);
    expect(() => readFileSync(path.join(out, 'billing.xlsx'))).toThrow();
  });

  it('says so in German', async () => {
    const env = await signedIn();
    otherTenantAfterRefresh(4);
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--quiet'], { env: { ...env, LANG: 'de_DE.UTF-8' } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('Nach der Erneuerung des Tokens nennt die Schnittstelle einen anderen Mandanten („Fremdverwaltung GmbH“');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });
});

/** Every /whoami names another tenant: the token stored under the profile is another landlord's (a refresh answer that handed one out). */
function otherTenantStored(): () => string[] {
  const paths: string[] = [];
  at.proxy.intercept = async (r) => {
    if (!r.path.startsWith('/v1/')) return undefined;
    paths.push(r.path);
    if (r.path === '/v1/whoami') return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) };
    return undefined;
  };
  return () => paths;
}

/** The `nth` /v1 request is answered 401 (a refresh follows); the next `failing` /whoami answer 503, every later one names another tenant. */
function otherTenantAfterFailedCheck(nth: number, failing: number): () => string[] {
  const after: string[] = [];
  let n = 0;
  let whoamis = 0;
  at.proxy.intercept = async (r): Promise<{ status: number; headers: Record<string, string>; body: string } | undefined> => {
    if (!r.path.startsWith('/v1/')) return undefined;
    n++;
    if (n === nth) return INVALID_TOKEN;
    if (n < nth) return undefined;
    after.push(r.path);
    if (r.path !== '/v1/whoami') return undefined;
    if (++whoamis <= failing)
      return {
        status: 503,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
        body: JSON.stringify({ type: 'https://developer.example/errors/#unavailable', title: 'unavailable', status: 503 }),
      };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) };
  };
  return () => after;
}

// Round 26: the check ran only on a refresh's own /whoami. The other landlord's token stayed stored, and the next
// run (or the same run, where the refresh's check failed) exported that landlord into this profile's folder, and
// status wrote the other tenant into the profile, so the check could never fire again.
describe("a stored token whose /whoami names another landlord than the profile's", () => {
  it('export reads nothing else (exit 4), writes nothing, and the profile keeps its tenant', async () => {
    const env = await signedIn();
    const before = profileOf(env);
    const out = path.join(env.METERDATA_HOME!, 'out');
    const paths = otherTenantStored();
    const r = await runCli(['export', '--year', '2025', '--out', out, '--quiet', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      `The API names another tenant ("Fremdverwaltung GmbH") than the one profile default was signed in to ("${before.tenant_name}"); nothing is read`,
    );
    expect(r.stderr).toContain('meterdata login');
    expect(paths().filter((p) => p !== '/v1/whoami')).toEqual([]);
    expect(profileOf(env).tenant_id).toBe(before.tenant_id);
    expect(() => readFileSync(path.join(out, 'billing.csv'))).toThrow();
  });

  it('uvi refuses it the same way, status names it as the problem (not working); the profile stays as it was', async () => {
    const env = await signedIn();
    const before = profileOf(env);
    otherTenantStored();
    const uvi = await runCli(['uvi', '--month', '2025-11', '--out', path.join(env.METERDATA_HOME!, 'uvi'), '--quiet', '--lang', 'en'], { env });
    expect(uvi.code, uvi.stderr).toBe(4);
    const status = await runCli(['status', '--lang', 'en'], { env });
    expect(status.code, status.stderr).toBe(3); // status: a profile not working is exit 3, its problem named
    expect(`${status.stdout}${status.stderr}`).toContain('Fremdverwaltung GmbH');
    // its tenant and scope as they were (uvi dropped the token, so status refreshed: only the refresh's time moved)
    const { last_refresh_at: _a, access_expires_at: _b, ...now } = profileOf(env);
    const { last_refresh_at: _c, access_expires_at: _d, ...was } = before;
    expect(now).toEqual(was);
  });

  it.each([
    ['mid-run (a 401)', 4],
    ['at the start (the stored access token expired)', 0],
  ])("a refresh %s whose own check failed (503s) does not let the same run read the other landlord's data", async (_when, nth) => {
    const { env, file } = await at.signedIn();
    if (nth === 0) setAccessExpiry(file);
    const before = profileOf(env);
    const out = path.join(env.METERDATA_HOME!, 'out');
    otherTenantAfterFailedCheck(nth, 6);
    const r = await runCli(['export', '--year', '2025', '--out', out, '--quiet', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('another tenant ("Fremdverwaltung GmbH"');
    expect(profileOf(env).tenant_id).toBe(before.tenant_id);
    expect(() => readFileSync(path.join(out, 'billing.csv'))).toThrow();
  });

  it('says so in German', async () => {
    const env = await signedIn();
    otherTenantStored();
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--quiet'], { env: { ...env, LANG: 'de_DE.UTF-8' } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('Die Schnittstelle nennt einen anderen Mandanten („Fremdverwaltung GmbH“) als den, bei dem das Profil default angemeldet wurde');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });
});

describe('a server that rejects every token right after issuing it', () => {
  it(`ends the run (exit 5) after ${MAX_REJECTED_REFRESHES} refreshes, not one refresh per request`, async () => {
    const env = await signedIn();
    const tokens = at.proxy.count('POST', '/oauth/token');
    rejectFirstOfEachPath();
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--quiet', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      `The API rejected ${MAX_REJECTED_REFRESHES + 1} access tokens within 10 minutes, each right after a refresh; no further refresh is sent.`,
    );
    expect(r.stderr).toContain('meterdata status');
    expect(at.proxy.count('POST', '/oauth/token') - tokens).toBe(MAX_REJECTED_REFRESHES);
  });

  it('says so in German', async () => {
    const env = await signedIn();
    rejectFirstOfEachPath();
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--quiet'], { env: { ...env, LANG: 'de_DE.UTF-8' } });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('Die Schnittstelle hat innerhalb von 10 Minuten 6 Zugriffstoken abgelehnt');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });
});

const configFileOf = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'config', 'config.json');
function editProfile(env: NodeJS.ProcessEnv, edit: (p: Record<string, unknown>) => void): void {
  const config = JSON.parse(readFileSync(configFileOf(env), 'utf8'));
  edit(config.profiles.default);
  writeFileSync(configFileOf(env), JSON.stringify(config));
}

// Round 27: a login whose /whoami failed (or was stopped) kept its sign-in but no tenant, and a profile without a
// tenant accepted any: a refresh handing out another landlord's token exported that landlord and wrote it in.
describe('a stored sign-in whose profile has no tenant (a login that never learnt it)', () => {
  it('export, uvi, status and token read nothing with it (exit 3, AUTH_LOGIN_INCOMPLETE) and write no tenant in', async () => {
    const env = await signedIn();
    const before = profileOf(env);
    editProfile(env, (p) => {
      delete p.tenant_id;
      delete p.tenant_name;
    });
    const paths = otherTenantStored();
    const out = path.join(env.METERDATA_HOME!, 'out');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--json', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'AUTH_LOGIN_INCOMPLETE', hint: 'Run `meterdata login` again.' });
    expect(r.stderr).toContain('The sign-in of profile default was never completed');
    const uvi = await runCli(['uvi', '--month', '2025-11', '--out', path.join(env.METERDATA_HOME!, 'uvi'), '--quiet'], { env });
    expect(uvi.code, uvi.stderr).toBe(3);
    const status = await runCli(['status', '--lang', 'en'], { env });
    expect(status.code).toBe(3);
    // round 28: `token` asks no /whoami, and printed the token
    const token = await runCli(['token', '--lang', 'en'], { env });
    expect([token.code, token.stdout], token.stderr).toEqual([3, '']);
    expect(token.stderr).toContain('The sign-in of profile default was never completed');
    expect(paths().filter((p) => p !== '/v1/whoami')).toEqual([]);
    expect(profileOf(env).tenant_id).toBeUndefined();
    expect(() => readFileSync(path.join(out, 'billing.csv'))).toThrow();
    at.proxy.intercept = undefined;
    expect(before.tenant_id).toBeTruthy();
  });
});

describe('the profile’s tenant id in another case', () => {
  it('is the same tenant (ids compared as the API client compares them): exit 0', async () => {
    const env = await signedIn();
    editProfile(env, (p) => void (p.tenant_id = String(p.tenant_id).toUpperCase()));
    const r = await runCli(['status', '--lang', 'en'], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('another tenant of the same name is told with both ids, not the same name twice', async () => {
    const env = await signedIn();
    const before = profileOf(env);
    at.proxy.intercept = async (r) =>
      r.path === '/v1/whoami'
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...OTHER, tenant_name: before.tenant_name }) }
        : undefined;
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--quiet', '--lang', 'en'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      `("${before.tenant_name}, ${OTHER.tenant_id}") than the one profile default was signed in to ("${before.tenant_name}, ${before.tenant_id}")`,
    );
  });
});

describe('a refresh answer carrying another landlord’s access token, then `meterdata token`', () => {
  it('the refresh stops (exit 4) and the token is not kept: `token` refreshes again rather than print it', async () => {
    const { env, file } = await at.signedIn();
    setAccessExpiry(file);
    let otherToken = '';
    at.proxy.intercept = async (r) => {
      if (r.path !== '/v1/whoami') return undefined;
      otherToken = (r.authorization ?? '').replace(/^Bearer /, '');
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) };
    };
    const first = await runCli(['token'], { env });
    expect(first.code, first.stderr).toBe(4);
    expect(otherToken).not.toBe('');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.access_token).toBeUndefined();
    const second = await runCli(['token'], { env });
    expect(second.stdout).not.toContain(otherToken);
    expect(second.code, second.stderr).toBe(4);
  });
});

// Round 29: the refresh's own /whoami failing (503) left the new token stored and printed by `token` with exit 0,
// unchecked; and a stored token that a command's first /whoami found to be another landlord's stayed stored, so the
// next `token` printed it.
describe('a refreshed token whose landlord could not be checked, or a stored one found to be another landlord’s', () => {
  const unavailable = { status: 503, headers: { 'content-type': 'text/plain' }, body: 'down' };

  it('`token` does not print a token whose /whoami failed (exit 5), nor keep it; the next `token` refreshes and checks again', async () => {
    const { env, file } = await at.signedIn();
    setAccessExpiry(file);
    let whoamis = 0;
    at.proxy.intercept = async (r) => (r.path === '/v1/whoami' && ++whoamis > 0 ? unavailable : undefined);
    const posts = at.tokenPosts();
    const first = await runCli(['token'], { env });
    expect(first.code, first.stderr).toBe(5);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/whether it belongs to this profile's landlord could not be checked \(\/whoami failed: .*\); it is not printed/);
    expect(at.tokenPosts()).toBe(posts + 1);
    expect(JSON.parse(readFileSync(file, 'utf8')).access_token).toBeUndefined();
    // the API back: refreshed again, checked, printed
    at.proxy.intercept = undefined;
    const second = await runCli(['token'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(at.tokenPosts()).toBe(posts + 2);
    expect(second.stdout.trim()).toBe(JSON.parse(readFileSync(file, 'utf8')).access_token);
  }, 60_000);

  it('export refusing a stored token as another landlord’s (exit 4) drops it: the next `token` refreshes rather than print it', async () => {
    const { env, file } = await at.signedIn();
    const stored = JSON.parse(readFileSync(file, 'utf8')).access_token as string;
    at.proxy.intercept = async (r) =>
      r.path === '/v1/whoami' ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) } : undefined;
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'o'), '--quiet'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(readFileSync(file, 'utf8')).access_token).toBeUndefined();
    const posts = at.tokenPosts();
    const tok = await runCli(['token'], { env });
    expect(tok.stdout).not.toContain(stored);
    expect(at.tokenPosts()).toBe(posts + 1);
  }, 60_000);

  // Round 32a F5: only a 5xx, a timeout or a broken body dropped the token; a 401, 403 or 404 answer to the refreshed
  // token's /whoami left it stored, and the next `token` printed it with exit 0, unchecked. A single 401 also said
  // "the connection ended, sign in again", and the next run worked without a sign-in.
  it.each([
    ['401', INVALID_TOKEN, 5, /the API refused it at once \(HTTP 401 on \/whoami\); it is not kept/],
    ['403', { status: 403, headers: { 'content-type': 'text/plain' }, body: 'no' }, 3, /.+/],
    ['404', { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no' }, 5, /.+/],
  ])(
    'a %s to the refreshed token’s /whoami: not kept, never printed; the next `token` refreshes, checks and prints',
    async (_name, answer, exit, words) => {
      const { env, file } = await at.signedIn();
      setAccessExpiry(file);
      let whoamis = 0;
      at.proxy.intercept = async (r) => (r.path === '/v1/whoami' && ++whoamis === 1 ? answer : undefined);
      const posts = at.tokenPosts();
      const first = await runCli(['token'], { env });
      expect([first.code, first.stdout]).toEqual([exit, '']);
      expect(first.stderr).toMatch(words);
      expect(first.stderr).not.toMatch(/no longer accepts this connection/);
      expect(JSON.parse(readFileSync(file, 'utf8')).access_token).toBeUndefined();
      const second = await runCli(['token'], { env });
      expect(second.code, second.stderr).toBe(0);
      expect(at.tokenPosts()).toBe(posts + 2);
      expect(second.stdout.trim()).toBe(JSON.parse(readFileSync(file, 'utf8')).access_token);
    },
    60_000,
  );
});
