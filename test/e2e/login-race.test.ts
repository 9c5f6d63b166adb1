// The built binary: eight processes refreshing one connection at once, and refreshes
// killed at random points. The sandbox's reuse detection is the judge: presenting a
// rotated refresh token (or two refreshes with one token) revokes the whole connection.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, deliver, followToRedirect, runLive, spawnCli } from '../helpers/browser.js';

let sb: Sandbox;
beforeAll(async () => {
  assertBuilt();
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 });
});
afterAll(async () => sb?.close());

async function signedIn(env: NodeJS.ProcessEnv): Promise<string> {
  const before = new Set(sb.admin.connections().map((c) => c.sid));
  const run = runLive(['login', '--no-browser', '--auth-url', sb.url], env);
  await deliver(await followToRedirect(await run.url));
  const r = await run.done;
  expect(r.code, r.stderr).toBe(0);
  return sb.admin.connections().find((c) => !before.has(c.sid))!.sid;
}

const storeFile = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'state', 'credentials', 'default.json');

function expireLocally(env: NodeJS.ProcessEnv) {
  const rec = JSON.parse(readFileSync(storeFile(env), 'utf8'));
  rec.access_expires_at = new Date(Date.now() - 1000).toISOString();
  writeFileSync(storeFile(env), JSON.stringify(rec), { mode: 0o600 });
  return rec as { access_token: string; refresh_token: string };
}

const whoami = (token: string) => fetch(`${sb.apiBase}/whoami`, { headers: { authorization: `Bearer ${token}` } });

describe('parallel processes share one refresh', () => {
  it('8 `meterdata token` processes started together make exactly one refresh and keep the connection', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-race-')), METERDATA_CREDENTIAL_STORE: 'file' };
    const sid = await signedIn(env);
    const old = expireLocally(env);
    const runs = Array.from({ length: 8 }, () => spawnCli(['token'], env));
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const tokens = new Set(results.map((r) => r.stdout.trim()));
    // one refresh: every process printed the same new token
    expect(tokens.size).toBe(1);
    const [token] = [...tokens];
    expect(token).not.toBe(old.access_token);
    const rec = JSON.parse(readFileSync(storeFile(env), 'utf8'));
    expect(rec.access_token).toBe(token);
    expect(rec.refresh_token).not.toBe(old.refresh_token);
    // the judge: no reuse was detected, the connection lives and the token works
    expect(sb.admin.connections().find((c) => c.sid === sid)?.state).toBe('connected');
    expect((await whoami(token!)).status).toBe(200);
    for (const r of results) expect(r.stderr).not.toContain(rec.refresh_token);
  }, 60_000);
});

describe('a refresh killed at random points', () => {
  it('leaves a usable store: the next run works, or (rotated-but-unanswered window) says to log in again', async () => {
    const outcomes: string[] = [];
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-kill-')), METERDATA_CREDENTIAL_STORE: 'file' };
    await signedIn(env);
    // delays spread over process start-up, lock, token request and persist
    for (const delay of [60, 150, 250, 350, 450, 600]) {
      expireLocally(env);
      const victim = spawnCli(['token'], env);
      await new Promise((r) => setTimeout(r, delay));
      victim.child.kill('SIGKILL');
      await victim.done;
      // the record is always whole
      const rec = JSON.parse(readFileSync(storeFile(env), 'utf8'));
      expect(typeof rec.refresh_token).toBe('string');
      const next = await spawnCli(['token'], env).done;
      if (next.code === 0) {
        outcomes.push(`${delay}ms: usable`);
        expect((await whoami(next.stdout.trim())).status).toBe(200);
      } else {
        outcomes.push(`${delay}ms: login needed`);
        expect(next.code).toBe(3);
        expect(next.stderr).toMatch(/revoked or expired/);
        expect(next.stderr).toMatch(/meterdata login/);
        await signedIn(env);
      }
    }
    console.log(`kill outcomes: ${outcomes.join(', ')}`);
    expect(outcomes).toHaveLength(6);
  }, 240_000);
});
