// Refresh, and every way a connection ends, in-process against the sandbox (file store).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { openConnection } from '../../src/auth/connection.js';
import { runCli } from '../helpers/run-cli.js';
import { setAccessExpiry, signedIn as signedInFixture } from '../helpers/signed-in.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22' });
});
afterAll(async () => sb?.close());

const live = () => sb.admin.connections().filter((c) => c.state !== 'revoked');

async function signedIn(): Promise<{ env: NodeJS.ProcessEnv; sid: string; tenant: string; file: string }> {
  const { env, sid, file } = await signedInFixture({ at: sb, login: [], credentialStore: 'file', homePrefix: 'md-refresh-' });
  return { env, sid, tenant: sb.admin.connections().find((c) => c.sid === sid)!.tenant_id, file };
}

const expireLocally = (file: string) => setAccessExpiry(file);

function noSecrets(outputs: string[], secrets: string[]) {
  for (const o of outputs) for (const s of secrets) expect(o.includes(s), 'a token leaked into output').toBe(false);
}

describe('refresh', () => {
  it('refreshes an access token close to expiry, rotates the refresh token and reconciles /whoami', async () => {
    const { env, file } = await signedIn();
    const old = expireLocally(file);
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(0);
    const now = JSON.parse(readFileSync(file, 'utf8'));
    expect(tok.stdout.trim()).toBe(now.access_token);
    expect(now.access_token).not.toBe(old.access_token);
    expect(now.refresh_token).not.toBe(old.refresh_token);
    const profile = JSON.parse(readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json'), 'utf8')).profiles.default;
    expect(Date.parse(profile.last_refresh_at)).toBeGreaterThan(Date.now() - 60_000);
    const st = await runCli(['status'], { env });
    expect(st.code, st.stdout).toBe(0);
    noSecrets([tok.stderr, st.stdout, st.stderr], [old.refresh_token, now.refresh_token, old.access_token]);
  });

  it('a refresh whose time cannot be noted in config.json (its lock is held by a stray file) warns once and goes on with the saved tokens', async () => {
    const { env, file } = await signedIn();
    const old = expireLocally(file);
    const config = path.join(env.METERDATA_HOME!, 'config', 'config.json');
    const before = readFileSync(config, 'utf8');
    writeFileSync(`${config}.lock`, 'not a lock folder');
    const tok = await runCli(['token'], { env });
    expect(tok.code, tok.stderr).toBe(0);
    const now = JSON.parse(readFileSync(file, 'utf8'));
    expect(tok.stdout.trim()).toBe(now.access_token);
    expect(now.refresh_token).not.toBe(old.refresh_token);
    expect(tok.stderr.match(/the time of the refresh could not be noted in config\.json/g)).toHaveLength(1);
    // the /whoami after it answered: its facts are what config.json could not note, not a failed check
    expect(tok.stderr.match(/its tenant and property scope could not be noted in config\.json/g)).toHaveLength(1);
    expect(tok.stderr).not.toContain('checking the connection (/whoami) failed');
    expect(readFileSync(config, 'utf8')).toBe(before);
    expect(live().some((c) => c.state === 'revoked')).toBe(false);
  });

  it('after a 401, concurrent callers in one process share one refresh; a replaced token is not refreshed again', async () => {
    const { env, file } = await signedIn();
    const conn = await openConnection({ env });
    let refreshes = 0;
    conn.session!.onRefresh = () => refreshes++;
    const rejected = await conn.credentials.currentToken();
    await Promise.all(Array.from({ length: 5 }, () => conn.credentials.refreshAfterRejection(rejected)));
    expect(refreshes).toBe(1);
    await conn.credentials.refreshAfterRejection(rejected);
    expect(refreshes).toBe(1);
    const fresh = await conn.credentials.currentToken();
    expect(fresh).not.toBe(rejected);
    expect(JSON.parse(readFileSync(file, 'utf8')).access_token).toBe(fresh);
    const h = await conn.credentials.headersFor('GET', `${sb.apiBase}/whoami`);
    expect(h.authorization).toBe(`Bearer ${fresh}`);
    expect((await fetch(`${sb.apiBase}/whoami`, { headers: h })).status).toBe(200);
  });

  it('a second process that finds the token already refreshed uses it instead of refreshing', async () => {
    const { env, file } = await signedIn();
    const a = await openConnection({ env });
    const b = await openConnection({ env });
    const rejected = await a.credentials.currentToken();
    await a.credentials.refreshAfterRejection(rejected);
    let refreshes = 0;
    b.session!.onRefresh = () => refreshes++;
    await b.credentials.refreshAfterRejection(rejected);
    expect(refreshes).toBe(0);
    expect(await b.credentials.currentToken()).toBe(JSON.parse(readFileSync(file, 'utf8')).access_token);
    expect(live().some((c) => c.state === 'revoked')).toBe(false);
  });
});

describe('ended connections give the not-signed-in message and exit 3', () => {
  const ended = async (env: NodeJS.ProcessEnv, file: string) => {
    const secrets = expireLocally(file);
    const st = await runCli(['status'], { env });
    const tok = await runCli(['token'], { env });
    expect(st.code, st.stdout + st.stderr).toBe(3);
    expect(tok.code, tok.stderr).toBe(3);
    expect(tok.stdout).toBe('');
    expect(tok.stderr).toMatch(/revoked or expired|no longer accepts/);
    expect(tok.stderr).toMatch(/meterdata login/);
    expect(tok.stderr).not.toMatch(/\n\s+at /); // no stack
    noSecrets([st.stdout, st.stderr, tok.stderr], [secrets.refresh_token, secrets.access_token]);
    return { st, tok };
  };

  it('revoked at the server (RFC 7009 by another copy)', async () => {
    const { env, file } = await signedIn();
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    const res = await fetch(`${sb.url}/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: rec.refresh_token, client_id: 'sandbox-demo-client' }),
    });
    expect(res.status).toBe(200);
    await ended(env, file);
  });

  it('disconnected by the landlord in the portal', async () => {
    const { env, file, sid } = await signedIn();
    expect(await sb.admin.disconnect(sid)).toBe(true);
    await ended(env, file);
  });

  it('idle for 91 days', async () => {
    const { env, file } = await signedIn();
    sb.clock.advance(91 * 24 * 3600 * 1000);
    try {
      await ended(env, file);
    } finally {
      sb.clock.advance(-91 * 24 * 3600 * 1000);
    }
  });

  it("landlord's API access ended (status fails even with a locally valid token)", async () => {
    const { env, file, tenant } = await signedIn();
    await sb.admin.endAccess(tenant);
    try {
      const st = await runCli(['status', '--json'], { env });
      expect(st.code).toBe(3);
      expect(JSON.parse(st.stdout)).toMatchObject({ signed_in: true, working: false, problem: { code: 'AUTH_CONNECTION_ENDED' } });
      await ended(env, file);
    } finally {
      sb.admin.enableAccess(tenant);
    }
  });

  it('never signed in', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-none-')) };
    const tok = await runCli(['token', '--profile', 'acme'], { env });
    expect(tok.code).toBe(3);
    expect(tok.stderr).toMatch(/Profile "acme" is not signed in/);
    expect(tok.stderr).toMatch(/meterdata login --profile acme/);
  });

  it('METERDATA_ACCESS_TOKEN overrides the store and is printed as is', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-static-')), METERDATA_ACCESS_TOKEN: 'static-token', METERDATA_BASE_URL: sb.apiBase };
    const tok = await runCli(['token'], { env });
    expect(tok.stdout).toBe('static-token\n');
    const st = await runCli(['status'], { env });
    expect(st.code).toBe(3);
  });
});
