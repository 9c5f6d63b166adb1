// What login refuses: a forged answer (iss/state) before redemption, servers without
// S256 or the iss parameter, missing presets, plain http; and the pasted-URL path.
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { deliver, followToRedirect, loginLive, runLive } from '../helpers/browser.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22' });
});
afterAll(async () => sb?.close());

const freshEnv = (): NodeJS.ProcessEnv => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-checks-')), METERDATA_CREDENTIAL_STORE: 'file' });

describe('a forged sign-in answer is refused before the code is redeemed, and the wait goes on', () => {
  it.each([
    ['state', (u: URL) => u.searchParams.set('state', 'forged-state'), /state mismatch/],
    ['iss', (u: URL) => u.searchParams.set('iss', 'http://127.0.0.1:1'), /names a different server/],
    ['missing iss', (u: URL) => u.searchParams.delete('iss'), /carries no issuer/],
    ['neither code nor error', (u: URL) => u.searchParams.delete('code'), /neither a code nor an error/],
  ])('%s', async (_what, tamper, message) => {
    const env = freshEnv();
    const before = new Set(sb.admin.connections().map((c) => c.sid));
    const run = runLive(['login', '--no-browser', '--auth-url', sb.url], env);
    const redirect = await followToRedirect(await run.url);
    const conn = sb.admin.connections().find((c) => !before.has(c.sid))!;
    expect(conn.state).toBe('consented');
    const forged = new URL(redirect);
    tamper(forged);
    const page = await deliver(forged);
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/still waiting/);
    // the forged answer's code was not redeemed: the grant is still only consented
    expect(sb.admin.connections().find((c) => c.sid === conn.sid)!.state).toBe('consented');
    // the real answer still completes the sign-in
    const real = await deliver(redirect);
    expect(real.status).toBe(200);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Ignored a sign-in answer: .*Still waiting/);
    // redeemed exactly once: a second redemption of the code would have revoked the grant
    expect(sb.admin.connections().find((c) => c.sid === conn.sid)!.state).toBe('connected');
    expect((await runCli(['status'], { env })).code).toBe(0);
  });

  it('a forged answer’s text reaches the terminal with its bidi and C1 controls escaped', async () => {
    const env = freshEnv();
    const run = runLive(['login', '--no-browser', '--timeout', '2', '--auth-url', sb.url], env);
    const redirect = await followToRedirect(await run.url);
    redirect.searchParams.set('iss', 'https://evil.example/\u202etxt.exe\u009b2J');
    expect((await deliver(redirect)).status).toBe(400);
    const r = await run.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Ignored a sign-in answer: The sign-in answer names a different server (https://evil.example/\\u{202e}txt.exe\\u{9b}2J)');
    expect(r.stderr).not.toMatch(/[\u0080-\u009f\u202e]/);
  });

  it('only forged answers: the code is never redeemed and login ends at the timeout (exit 3)', async () => {
    const env = freshEnv();
    const before = new Set(sb.admin.connections().map((c) => c.sid));
    const run = runLive(['login', '--no-browser', '--timeout', '2', '--auth-url', sb.url], env);
    const redirect = await followToRedirect(await run.url);
    const conn = sb.admin.connections().find((c) => !before.has(c.sid))!;
    redirect.searchParams.set('state', 'forged-state');
    expect((await deliver(redirect)).status).toBe(400);
    const r = await run.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/state mismatch/);
    expect(r.stderr).toMatch(/No sign-in answer arrived within 2 seconds/);
    expect(sb.admin.connections().find((c) => c.sid === conn.sid)!.state).toBe('consented');
  });
});

describe('--no-browser', () => {
  it('accepts the redirected URL pasted on stdin, after ignoring a forged one', async () => {
    const env = freshEnv();
    const run = runLive(['login', '--no-browser', '--auth-url', sb.url], env);
    const redirect = await followToRedirect(await run.url);
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'forged-state');
    run.stdin.write('not a url\n');
    run.stdin.write(`${forged.href}\n`);
    run.stdin.write(`${redirect.href}\n`);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/paste the address/);
    expect(r.stderr).toMatch(/Ignored a sign-in answer: .*state mismatch/);
    expect((await runCli(['status'], { env })).code).toBe(0);
  });

  // Round 43 F3: `login < /dev/zero` ended in a stack trace (readline joined the line without end until the string
  // was too long for V8). A line beyond any address is dropped, and the sign-in goes on.
  it('a pasted line of 600 MB without end is dropped, and the address pasted after it signs in', async () => {
    const env = freshEnv();
    const run = runLive(['login', '--no-browser', '--auth-url', sb.url], env);
    const redirect = await followToRedirect(await run.url);
    const chunk = '\0'.repeat(8 << 20);
    for (let i = 0; i < 75; i++) if (!run.stdin.write(chunk)) await once(run.stdin, 'drain');
    run.stdin.write(`\n${redirect.href}\n`);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('never starts $BROWSER (and without --no-browser it does, so this test can fail)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-browser-'));
    const marker = path.join(dir, 'started');
    const script = path.join(dir, 'browser.sh');
    // written aside and renamed, so the marker never exists before it holds the whole URL
    writeFileSync(script, `#!/bin/sh\necho "$1" > "${marker}.tmp" && mv "${marker}.tmp" "${marker}"\n`, { mode: 0o755 });
    const env = { ...freshEnv(), BROWSER: script, PATH: process.env.PATH };
    expect((await loginLive(['login', '--no-browser', '--auth-url', sb.url], env)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(marker)).toBe(false);
    const loud = runLive(['login', '--auth-url', sb.url], { ...env, METERDATA_HOME: freshEnv().METERDATA_HOME });
    const url = await loud.url;
    for (let i = 0; i < 50 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(marker, 'utf8').trim()).toBe(url);
    await deliver(await followToRedirect(url));
    expect((await loud.done).code).toBe(0);
  });
});

describe('interrupting login', () => {
  it('Ctrl-C ends the wait with a plain message, exit 130, and closes the loopback port', async () => {
    const env = freshEnv();
    const stop = new AbortController();
    const run = runLive(['login', '--no-browser', '--auth-url', sb.url], env, { signal: stop.signal });
    const redirectUri = new URL(new URL(await run.url).searchParams.get('redirect_uri')!);
    stop.abort(new Error('interrupted'));
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Sign-in interrupted; nothing was changed/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    await expect(fetch(redirectUri)).rejects.toThrow();
  });
});

describe('server and settings checks', () => {
  let fake: http.Server;
  let fakeUrl: string;
  beforeAll(async () => {
    const good = { code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true };
    // RFC 8414 path insertion: /.well-known/oauth-authorization-server/<variant> describes issuer <fake>/<variant>
    const variants: Record<string, Record<string, unknown>> = {
      '': { code_challenge_methods_supported: ['plain'] },
      '/no-s256': { code_challenge_methods_supported: ['plain'], authorization_response_iss_parameter_supported: true },
      '/no-iss': { code_challenge_methods_supported: ['S256'] },
      // a loopback issuer whose endpoints point elsewhere: the sign-in page, the code or the refresh token would leave the machine
      '/auth-off-host': { ...good, authorization_endpoint: 'http://login.example.net/authorize' },
      '/auth-https-off-host': { ...good, authorization_endpoint: 'https://login.example.net/authorize' },
      '/auth-javascript': { ...good, authorization_endpoint: 'javascript:alert(1)' },
      '/token-off-host': { ...good, token_endpoint: 'http://192.0.2.7/token' },
      '/revoke-localhost': { ...good, revocation_endpoint: 'http://localhost:9/revoke' },
    };
    fake = http.createServer((req, res) => {
      const prefix = '/.well-known/oauth-authorization-server';
      const variant = req.url?.startsWith(prefix) ? variants[req.url.slice(prefix.length)] : undefined;
      if (variant) {
        const issuer = `${fakeUrl}${req.url!.slice(prefix.length)}`;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/oauth/authorize`, token_endpoint: `${issuer}/oauth/token`, ...variant }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => fake.close(() => r())));

  it('refuses a server without S256 and the iss parameter, before printing any URL', async () => {
    const r = await runCli(['login', '--no-browser', '--auth-url', fakeUrl], { env: freshEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not advertise PKCE with S256 and the iss parameter/);
    expect(r.stderr).not.toMatch(/oauth\/authorize/);
  });

  it.each([
    ['no-s256', /does not advertise PKCE with S256;/],
    ['no-iss', /does not advertise the iss parameter in authorization responses \(RFC 9207\);/],
  ])('refuses a server lacking only one of them (%s)', async (variant, message) => {
    const r = await runCli(['login', '--no-browser', '--auth-url', `${fakeUrl}/${variant}`], { env: freshEnv() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/oauth\/authorize/);
  });

  it.each([
    ['auth-off-host', 'authorization_endpoint', 'http://login.example.net/authorize'],
    ['auth-https-off-host', 'authorization_endpoint', 'https://login.example.net/authorize'],
    ['auth-javascript', 'authorization_endpoint', 'javascript:alert(1)'],
    ['token-off-host', 'token_endpoint', 'http://192.0.2.7/token'],
    ['revoke-localhost', 'revocation_endpoint', 'http://localhost:9/revoke'],
  ])('refuses a loopback server whose metadata points off its host or off https (%s): usage error, no URL printed', async (variant, field, value) => {
    const r = await runCli(['login', '--no-browser', '--auth-url', `${fakeUrl}/${variant}`], { env: freshEnv() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`names "${value}" as its ${field}; meterdata only uses https endpoints, on 127.0.0.1 for a local server.`);
    expect(r.stderr).not.toMatch(/example\.net\/authorize\?/);
  });

  // Round 27: it said "This sign-in replaces it", redeemed the code, then failed (EISDIR, "a bug"): the tokens lost.
  it('a folder where the sign-in is kept: refused before any address is printed (exit 2), the folder kept', async () => {
    const env = freshEnv();
    const record = path.join(env.METERDATA_HOME!, 'state', 'credentials', 'delta.json');
    mkdirSync(path.join(record, 'kept'), { recursive: true });
    const r = await runCli(['login', '--no-browser', '--profile', 'delta', '--auth-url', sb.url], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${record} is a folder, where meterdata keeps this profile's sign-in`);
    expect(r.stderr).not.toMatch(/https?:\/\/\S+\/authorize|this is a bug/);
    expect(existsSync(path.join(record, 'kept'))).toBe(true);
  });

  it('an unreachable server is "unavailable" (exit 5) and names the URL', async () => {
    const r = await runCli(['login', '--no-browser', '--auth-url', 'http://127.0.0.1:9'], { env: freshEnv() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/Cannot read the sign-in server's metadata at http:\/\/127\.0\.0\.1:9/);
  });

  it('--env production without configured URLs is a usage error naming how to set them', async () => {
    const r = await runCli(['login', '--env', 'production'], { env: freshEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No URLs are configured for --env production/);
    expect(r.stderr).toMatch(/"presets"/);
    expect(r.stderr).toMatch(/config\.json/);
  });

  it('--env sandbox takes the URLs from the presets section and the demo client by default', async () => {
    const env = freshEnv();
    mkdirSync(path.join(env.METERDATA_HOME!, 'config'), { recursive: true });
    writeFileSync(
      path.join(env.METERDATA_HOME!, 'config', 'config.json'),
      JSON.stringify({ presets: { sandbox: { auth_url: sb.url, base_url: sb.apiBase } } }),
    );
    const r = await loginLive(['login', '--no-browser', '--env', 'sandbox', '--profile', 'sbx'], env);
    expect(r.code, r.stderr).toBe(0);
    const st = JSON.parse((await runCli(['status', '--json', '--all'], { env })).stdout);
    expect(st).toEqual([expect.objectContaining({ profile: 'sbx', auth_url: sb.url, base_url: sb.apiBase, client_id: 'sandbox-demo-client', working: true })]);
  });

  it('refuses plain http for a non-loopback server, and needs to know where to sign in', async () => {
    const a = await runCli(['login', '--auth-url', 'http://auth.example.com'], { env: freshEnv() });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/must use https/);
    const b = await runCli(['login'], { env: freshEnv() });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/does not know where to sign in/);
    const c = await runCli(['login', '--auth-url', 'https://auth.example.com'], { env: freshEnv() });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/--client-id/);
  });
});
