// One connection, one budget (issue 14): every request of a run, the /whoami of a refresh
// included, takes a slot of the connection's one pacer; a refresh reads /whoami once for
// both the profile and the withdrawn-access check; and the processes of one profile share
// the rate window, so `status` right before `export` costs the export no 429.
// Against the sandbox behind a proxy that can answer for it (a 401 mid-run, a rate limit).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConnection } from '../../src/auth/connection.js';
import { collectProperty, propertiesInScope } from '../../src/api/walk.js';
import { sharedWindowFile } from '../../src/api/shared-window.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry, storeFile } from '../helpers/signed-in.js';
import { findEnglish } from '../helpers/catalogues.js';

const at = sandboxBehindProxy(
  { autoConsent: true, admin: true, clock: '2026-11-22', units: 20, oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 },
  'md-conn-',
);

async function signedIn(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return (await at.signedIn(extra)).env;
}

const v1 = () => at.proxy.requests.filter((r) => r.path.startsWith('/v1/')).length;
const whoamis = () => at.proxy.count('GET', '/v1/whoami');
const problem = (status: number, code: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/problem+json', ...headers },
  body: JSON.stringify({ type: `https://developer.example/errors/#${code}`, title: code, status }),
});

/**
 * The proxy answers the `nth` /v1 request from now with 401 invalid-token, so the client
 * refreshes mid-run; returns how many /whoami requests came after that answer.
 */
function rejectOnce(nth: number): () => number {
  let n = 0;
  let after = 0;
  at.proxy.intercept = async (r) => {
    if (!r.path.startsWith('/v1/')) return undefined;
    if (++n === nth) return problem(401, 'invalid-token', { 'www-authenticate': 'Bearer error="invalid_token"' });
    if (n > nth && r.path === '/v1/whoami') after++;
    return undefined;
  };
  return () => after;
}

describe('one connection, one budget', () => {
  it('one refresh during an export reads /whoami exactly once (profile reconcile and withdrawn-access check share it)', async () => {
    const env = await signedIn();
    const out = path.join(env.METERDATA_HOME!, 'out');
    const before = whoamis();
    const tokens = at.proxy.count('POST', '/oauth/token');
    const afterRefresh = rejectOnce(3);
    const r = await runCli(['export', '--year', '2025', '--out', out, '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(at.proxy.count('POST', '/oauth/token') - tokens).toBe(1);
    // The export reads /whoami once at its start (the tenant), and once more for the refreshed token.
    expect(afterRefresh()).toBe(1);
    expect(whoamis() - before).toBe(2);
    // The one /whoami still reached the profile.
    const profile = JSON.parse(readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json'), 'utf8')).profiles.default;
    expect(Date.parse(profile.last_refresh_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(profile.tenant_id).toBeTruthy();
  });

  it('every request of a run, the /whoami of a refresh included, takes a slot of the one pacer', async () => {
    const env = await signedIn();
    const conn = await openConnection({ env });
    let grants = 0;
    const budget = conn.scheduler.budget;
    const take = budget.take.bind(budget);
    budget.take = (now: number) => {
      grants++;
      take(now);
    };
    const sent = v1();
    const before = whoamis();
    const afterRefresh = rejectOnce(2);
    const api = conn.api();
    try {
      const [property] = await propertiesInScope(api, []);
      await collectProperty(api, property!, { range: { from: '2025-01-01', to: '2025-12-31' }, metrics: [] });
    } finally {
      await api.close();
      await conn.close();
    }
    expect(afterRefresh()).toBe(1);
    expect(whoamis() - before).toBe(1);
    expect(v1() - sent).toBeGreaterThan(10);
    expect(grants).toBe(v1() - sent);
  });
});

describe('the rate window shared by the processes of one profile', () => {
  // A "minute" of 2 s and a limit of 20 so the test takes seconds; the proxy counts like the
  // service (per connection, sliding window) and answers 429 beyond it.
  const WINDOW_MS = 2000;
  const LIMIT = 20;
  const hooks = { METERDATA_TEST_HOOKS: '1', METERDATA_TEST_RATE_WINDOW_MS: String(WINDOW_MS), METERDATA_TEST_RATE_BURST: String(LIMIT / 2) };

  function limitAtProxy(): { rejected: () => number } {
    const arrivals: number[] = [];
    let rejected = 0;
    at.proxy.intercept = async (r) => {
      if (!r.path.startsWith('/v1/')) return undefined;
      const now = performance.now();
      const recent = arrivals.filter((t) => t > now - WINDOW_MS);
      arrivals.push(now);
      if (recent.length < LIMIT) return undefined;
      rejected++;
      return problem(429, 'too-many-requests', { 'retry-after': '1' });
    };
    return { rejected: () => rejected };
  }

  it('`status` then `export` back to back: the export counts the status requests and meets no 429', async () => {
    const env = await signedIn(hooks);
    const limit = limitAtProxy();
    const st = await runCli(['status'], { env });
    expect(st.code, st.stdout + st.stderr).toBe(0);
    const left = JSON.parse(readFileSync(sharedWindowFile(env, 'default'), 'utf8')).starts;
    expect(left.length).toBeGreaterThan(0);
    const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--rate-limit', String(LIMIT), '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).requests).toBeGreaterThan(LIMIT);
    expect(limit.rejected()).toBe(0);
  });
});

describe('the refresh subscriber in German', () => {
  it('a /whoami that fails after a saved refresh is a German warning, and `token` refuses in German', async () => {
    const env = await signedIn();
    setAccessExpiry(storeFile(env));
    at.proxy.intercept = async (r) => (r.path === '/v1/whoami' ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' } : undefined);
    const r = await runCli(['token', '--lang', 'de'], { env });
    expect(r.code, r.stderr).toBe(5); // the token, unchecked, is not printed (round 29)
    expect(r.stderr).toContain(
      'Warnung: Das Zugriffstoken wurde erneuert, die Prüfung der Verbindung (/whoami) ist aber fehlgeschlagen: Der Messdienst hat auf GET /v1/whoami eine Antwort gesendet, die den API-Vertrag verletzt: tenant_id fehlt.',
    );
    expect(r.stderr).toContain('es konnte aber nicht geprüft werden, ob es zum Vermieter dieses Profils gehört');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });
});
