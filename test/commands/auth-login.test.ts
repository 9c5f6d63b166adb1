// login / status / token / logout in-process against the sandbox over real HTTP (file store).
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { loginLive } from '../helpers/browser.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22' });
});
afterAll(async () => sb?.close());

function freshEnv(): NodeJS.ProcessEnv {
  return { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-auth-')), METERDATA_CREDENTIAL_STORE: 'file' };
}

async function signIn(env: NodeJS.ProcessEnv, extra: string[] = []) {
  return loginLive(['login', '--no-browser', '--auth-url', sb.url, ...extra], env);
}

describe('login against the sandbox (auto consent, file store)', () => {
  it('signs in, prints who is connected, and status/token work', async () => {
    const env = freshEnv();
    const r = await signIn(env);
    expect(r.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+$/m);
    expect(r.code, r.stderr).toBe(0);
    expect(r.page.status).toBe(200);
    expect(r.stdout).toMatch(/Connected profile "default" to /);
    expect(r.stdout).toMatch(/Property scope: +all Properties/);
    expect(r.stdout).toMatch(/Token stored in: file .*credentials\/default\.json \(mode 0600\)/);

    const file = path.join(env.METERDATA_HOME!, 'state', 'credentials', 'default.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.refresh_token).toBeTruthy();
    const config = readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json'), 'utf8');
    expect(config).not.toContain(rec.refresh_token);
    expect(config).not.toContain(rec.access_token);
    expect(JSON.parse(config).profiles.default).toMatchObject({
      client_id: 'sandbox-demo-client',
      resource: sb.url,
      base_url: `${sb.url}/v1`,
      property_scope: 'all',
    });

    const st = await runCli(['status', '--json'], { env });
    expect(st.code, st.stderr).toBe(0);
    const json = JSON.parse(st.stdout);
    expect(json).toMatchObject({
      working: true,
      property_scope: 'all',
      granted_scopes: expect.arrayContaining(['read:units', 'read:devices', 'read:readings']),
    });

    const tok = await runCli(['token'], { env });
    expect(tok.code).toBe(0);
    expect(tok.stdout.trim()).toBe(rec.access_token);
    for (const out of [r.stdout, r.stderr, st.stdout, st.stderr]) {
      expect(out).not.toContain(rec.refresh_token);
      expect(out).not.toContain(rec.access_token);
    }
    // no stray temp files from the atomic writes
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('narrower --scope is requested and reflected', async () => {
    const env = freshEnv();
    const r = await signIn(env, ['--scope', 'read:units read:readings', '--profile', 'narrow']);
    expect(r.code, r.stderr).toBe(0);
    const st = await runCli(['status', '--json', '--profile', 'narrow'], { env });
    expect(JSON.parse(st.stdout).granted_scopes.sort()).toEqual(['read:readings', 'read:units']);
  });

  it('logout revokes at the server and deletes the record; status then exits 3', async () => {
    const env = freshEnv();
    expect((await signIn(env)).code).toBe(0);
    const before = sb.admin.connections().filter((c) => c.state !== 'revoked').length;
    const out = await runCli(['logout'], { env });
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/revoked at the server; local sign-in deleted/);
    expect(sb.admin.connections().filter((c) => c.state !== 'revoked').length).toBe(before - 1);
    const st = await runCli(['status'], { env });
    expect(st.code).toBe(3);
    expect(st.stdout).toMatch(/not signed in/);
    expect(st.stdout).toMatch(/meterdata login/);
  });
});

describe('signing in again', () => {
  it('replaces the connection: the old one is revoked at the server, the new one works', async () => {
    const env = freshEnv();
    const before = new Set(sb.admin.connections().map((c) => c.sid));
    expect((await signIn(env)).code).toBe(0);
    const first = sb.admin.connections().find((c) => !before.has(c.sid))!;
    const again = await signIn(env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/previous connection was revoked at the server/);
    expect(sb.admin.connections().find((c) => c.sid === first.sid)!.state).toBe('revoked');
    expect((await runCli(['status'], { env })).code).toBe(0);
  });
});

describe('logout when the server cannot be reached', () => {
  it('still deletes the local record and says the connection was NOT revoked', async () => {
    const env = freshEnv();
    expect((await signIn(env, ['--scope', 'read:units'])).code).toBe(0);
    const configPath = path.join(env.METERDATA_HOME!, 'config', 'config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    config.profiles.default.auth_url = 'http://127.0.0.1:9';
    writeFileSync(configPath, JSON.stringify(config));
    const out = await runCli(['logout'], { env });
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/NOT revoked at the server \(.+\); the landlord can disconnect it in the portal/);
    expect(out.stderr).toMatch(/local sign-in deleted/);
    expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'default.json'))).toBe(false);
    // the settings stay, so signing in again needs no flags and keeps the narrower scope
    config.profiles.default.auth_url = sb.url;
    writeFileSync(configPath, JSON.stringify(config));
    const again = await loginLive(['login', '--no-browser'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Scopes: +read:units\n/);
  });
});

// Round 32 F2: a profile named like a month (or the portfolio's summary or manifest) was signed in, and every later
// `--all-profiles` of every landlord was refused as a whole for it.
describe('login under a name meterdata gives its own files and folders', () => {
  it.each(['2026-09', 'Portfolio-Summary.csv', 'meterdata-manifest.json'])('%s: refused (exit 2) before anything is asked or stored', async (name) => {
    const env = freshEnv();
    const before = sb.admin.connections().length;
    const r = await runCli(['login', '--no-browser', '--auth-url', sb.url, '--profile', name], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`"${name}" is a name meterdata gives its own files and folders`);
    expect(r.stderr).toMatch(/Sign in under another name/);
    expect(sb.admin.connections().length).toBe(before);
    expect(existsSync(path.join(env.METERDATA_HOME!, 'config', 'config.json'))).toBe(false);
  });
});
