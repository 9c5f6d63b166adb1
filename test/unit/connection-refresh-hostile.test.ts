// The connection against a hostile server around a token refresh (issue 14):
// - the /whoami after a refresh answering with another landlord: the run stops (exit 4)
//   before reading anything more with that token, and the profile keeps its tenant;
// - a server that rejects every token it just issued: each rejection used to cost a refresh
//   (a token request and an urgent /whoami ahead of the queue) for every request of the run;
//   now a handful in ten minutes ends the run (exit 5).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REJECTED_REFRESHES } from '../../src/auth/session.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';
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

/** The `nth` /v1 request from now is answered 401 (a refresh follows); every /whoami after it names another tenant. */
function otherTenantAfterRefresh(nth: number): () => number {
  let n = 0;
  let after = 0;
  at.proxy.intercept = async (r): Promise<{ status: number; headers: Record<string, string>; body: string } | undefined> => {
    if (!r.path.startsWith('/v1/')) return undefined;
    n++;
    if (n === nth)
      return {
        status: 401,
        headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer error="invalid_token"' },
        body: JSON.stringify({ type: 'https://developer.example/errors/#invalid-token', title: 'invalid token', status: 401 }),
      };
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
