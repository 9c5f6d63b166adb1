// A refresh whose answer is lost after the request left (no answer in time, an answer cut off)
// is treated like a dropped connection: the record is marked, the person is told to sign in
// again (exit 3), and the token is never sent again, so the server never sees a rotated token
// and the connection is not revoked by meterdata's doing. The intent is recorded before sending.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { createServer as createNet, type AddressInfo, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-lost-');

const signedIn = () => at.refreshDue(700);

const { tokenPosts, stateOf } = at;

describe('an answer lost after sending', () => {
  it.each([
    ['timed out (the server rotated, its answer never came)', 'stall' as const, /no answer in time/],
    ['cut off (the server rotated, half its answer came)', 'cut' as const, /arrived cut off or unreadable/],
  ])(
    '%s: exit 3 "sign in again", the record marked, the token never sent again, the connection not revoked',
    async (_name, mode, reason) => {
      const { env, rec, sid, stored } = await signedIn();
      at.proxy.lose = (r) => (r.path === '/oauth/token' ? mode : undefined);
      const posts = tokenPosts();
      const r = await runCli(['token'], { env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/answer of the sign-in server was lost while trying to refresh the access token/);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
      expect(r.stderr).not.toMatch(/try again later/i);
      expect(r.stderr).not.toContain(rec.refresh_token);
      expect(tokenPosts()).toBe(posts + 1);
      const marked = stored();
      expect(marked.refresh_token).toBe(rec.refresh_token);
      expect(marked.refresh_uncertain_since).toBeTruthy();
      expect(marked.refresh_intent).toBeUndefined();

      at.proxy.lose = undefined;
      const next = await runCli(['token'], { env });
      expect(next.code).toBe(3);
      expect(next.stderr).toMatch(/was lost or could not be used/);
      expect(next.stderr).toMatch(/meterdata login/);
      expect(tokenPosts()).toBe(posts + 1); // never re-sent
      expect(stateOf(sid)).toBe('connected'); // so the server had no reason to revoke it
    },
    20_000,
  );
});

describe('never sent', () => {
  it('a TLS handshake that fails (the token endpoint is no TLS server): exit 5, the record untouched, the next run refreshes', async () => {
    const { env, rec, stored } = await signedIn();
    const before = stored();
    // The metadata names https on the proxy's own (plain http) port: the handshake fails, no request leaves.
    at.proxy.rewrite = (r, body) =>
      r.path.startsWith('/.well-known/') ? body.replace(`"${at.proxy.url}/oauth/token"`, `"${at.proxy.url.replace('http:', 'https:')}/oauth/token"`) : body;
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/Cannot reach the sign-in server to refresh the access token \(.*SSL/);
    expect(r.stderr).not.toMatch(/was lost/);
    expect(tokenPosts()).toBe(posts);
    expect(stored()).toEqual(before);

    at.proxy.rewrite = undefined;
    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(stored().refresh_token).not.toBe(rec.refresh_token);
  });
});

// Round 26: a reset before the TLS handshake ended, and a port fetch never connects to, were taken as lost answers.
describe('never sent, by the kind of failure', () => {
  it.each([
    ['an https endpoint resetting every new connection', 'reset'],
    ['a plain-http endpoint on loopback resetting every new connection at accept', 'reset-http'],
    ["a port fetch refuses to connect to ('bad port')", 'bad-port'],
  ])('%s: exit 5, the record untouched, the next run refreshes', async (_what, kind) => {
    const { env, rec, stored } = await signedIn();
    const before = stored();
    let target = 'https://127.0.0.1:6000/oauth/token';
    let server: Server | null = null;
    if (kind !== 'bad-port') {
      server = createNet((s) => s.resetAndDestroy());
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      target = `${kind === 'reset' ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
    }
    try {
      at.proxy.rewrite = (r, body) => (r.path.startsWith('/.well-known/') ? body.replace(`"${at.proxy.url}/oauth/token"`, `"${target}"`) : body);
      const posts = tokenPosts();
      const r = await runCli(['token'], { env });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/Cannot reach the sign-in server to refresh the access token/);
      expect(r.stderr).not.toMatch(/was lost/);
      expect(tokenPosts()).toBe(posts);
      expect(stored()).toEqual(before);
    } finally {
      at.proxy.rewrite = undefined;
      if (server) await new Promise((r) => server!.close(r));
    }
    const next = await runCli(['token'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(stored().refresh_token).not.toBe(rec.refresh_token);
  });
});

describe('a 200 that cannot be kept', () => {
  it('without a new refresh token (the server rotated, the new one is missing): exit 3, marked, the old token never sent again', async () => {
    const { env, rec, sid, stored } = await signedIn();
    at.proxy.rewrite = (r, body) => {
      if (r.path !== '/oauth/token') return body;
      const { refresh_token: _dropped, ...rest } = JSON.parse(body) as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/carried no new refresh token/);
    expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
    expect(stored().refresh_uncertain_since).toBeTruthy();
    expect(stored().refresh_intent).toBeUndefined();

    expect(stored().refresh_token).toBe(rec.refresh_token); // rotated by the server: sending it would end the connection

    at.proxy.rewrite = undefined;
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
    expect(stateOf(sid)).toBe('connected');
  });
});

describe('a 200 whose fields openid-client refuses', () => {
  it.each([
    ['an empty refresh token', { refresh_token: '' }, /cannot be used: its refresh token is empty\./],
    ['a refresh token null', { refresh_token: null }, /cannot be used: its refresh token is missing or not text\./],
    ['no token type', { token_type: undefined }, /cannot be used: its token type is missing or not text\./],
  ])('%s: says what was wrong once (not "OAUTH_INVALID_RESPONSE: OAUTH_INVALID_RESPONSE"), exit 3, marked, never re-sent', async (_name, change, reason) => {
    const { env, rec, sid, stored } = await signedIn();
    at.proxy.rewrite = (r, body) => (r.path === '/oauth/token' ? JSON.stringify({ ...(JSON.parse(body) as object), ...change }) : body);
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toMatch(/OAUTH_INVALID_RESPONSE|cut off or unreadable/);
    expect(stored().refresh_uncertain_since).toBeTruthy();
    expect(stored().refresh_token).toBe(rec.refresh_token);
    at.proxy.rewrite = undefined;
    expect((await runCli(['token'], { env })).code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
    expect(stateOf(sid)).toBe('connected');
  });
});

describe('the refresh intent', () => {
  it('is in the store, with this process, while the request is on its way; gone after success', async () => {
    const { env, stored } = await signedIn();
    let during: Record<string, unknown> | undefined;
    at.proxy.intercept = async (r) => {
      if (r.path === '/oauth/token') during = stored();
      return undefined;
    };
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(during?.refresh_intent).toMatchObject({ pid: process.pid, host: os.hostname() });
    expect(stored().refresh_intent).toBeUndefined();
    expect(stored().access_token).toBe(r.stdout.trim());
  });

  it('left behind by a process that ended: never sent again; marked, exit 3', async () => {
    const { env, file, rec, sid, stored } = await signedIn();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(file, JSON.stringify({ ...rec, refresh_intent: { at: new Date().toISOString(), pid: dead.pid, host: os.hostname() } }), { mode: 0o600 });
    const posts = tokenPosts();
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/sent by a process that ended before saving its answer/);
    expect(r.stderr).toMatch(/meterdata login/);
    expect(tokenPosts()).toBe(posts);
    expect(stored().refresh_uncertain_since).toBeTruthy();
    expect(stateOf(sid)).toBe('connected');
  });

  it('left behind by a process that ended: status says what the next refresh will do (not working, exit 3, sign in), sends nothing, writes nothing', async () => {
    const { env, file, sid, stored } = await signedIn();
    // an access token /whoami still takes: before, status called the record working (exit 0)
    const rec = setAccessExpiry(file, 3_600_000);
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    const withIntent = { ...rec, refresh_intent: { at: new Date().toISOString(), pid: dead.pid, host: os.hostname() } };
    writeFileSync(file, JSON.stringify(withIntent), { mode: 0o600 });
    const posts = tokenPosts();
    const st = await runCli(['status', '--lang', 'en'], { env });
    expect(st.code, st.stdout + st.stderr).toBe(3);
    expect(st.stdout).toMatch(/sent by a process that ended before saving its answer/);
    expect(st.stdout).toMatch(/Run `meterdata login`/);
    const json = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ signed_in: true, working: false, problem: { code: 'AUTH_REFRESH_UNCERTAIN' } });
    expect(tokenPosts()).toBe(posts);
    expect(stored()).toEqual(withIntent);
    // and the next refresh does what status said
    setAccessExpiry(file);
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/sent by a process that ended before saving its answer/);
    expect(stateOf(sid)).toBe('connected');
  });

  it('of a process still running: status says working (a refresh under way is no finding)', async () => {
    const { env, file } = await signedIn();
    const rec = setAccessExpiry(file, 3_600_000);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(file, JSON.stringify({ ...rec, refresh_intent: { at: new Date().toISOString(), pid: holder.pid, host: os.hostname() } }), { mode: 0o600 });
      const st = await runCli(['status', '--json'], { env });
      expect(st.code, st.stdout + st.stderr).toBe(0);
      expect(JSON.parse(st.stdout)).toMatchObject({ working: true });
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('of a process still running (stalled past the lock): not sent, exit 5 naming it, the record untouched', async () => {
    const { env, file, rec, stored } = await signedIn();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const withIntent = { ...rec, refresh_intent: { at: new Date().toISOString(), pid: holder.pid, host: os.hostname() } };
      writeFileSync(file, JSON.stringify(withIntent), { mode: 0o600 });
      const posts = tokenPosts();
      const r = await runCli(['token'], { env });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(new RegExp(`Another meterdata process \\(pid ${holder.pid}\\) started a refresh`));
      expect(tokenPosts()).toBe(posts);
      expect(stored()).toEqual(withIntent);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
