// config.json near the 1 MiB meterdata reads back (round 37c F1: past about 2,300 profiles a login rewrote the file
// beyond it, and every later command refused it; round 39 F2/F3: refused after the new sign-in was stored, the replaced
// connection was left alive without a word; round 40a: status called a working connection not working, a logout that
// had signed out said nothing was changed, a login whose /whoami facts did not fit said the same).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { loginLive } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22' }, 'md-login-config-full-');
const MiB = 1 << 20;
const configOf = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'config', 'config.json');

/**
 * config.json filled with profiles not signed in to exactly `bytes`, written compactly (as a tool may write it; too
 * large to indent, meterdata writes it so too): `room` bytes are left for whatever comes next.
 */
function fill(env: NodeJS.ProcessEnv, room: number): Buffer {
  const config = JSON.parse(readFileSync(configOf(env), 'utf8')) as { profiles: Record<string, { name: string; tenant_name?: string }> };
  const filler = (i: number) => ({ ...config.profiles.default!, name: `p${i}`, tenant_name: '' });
  const target = MiB - room;
  const entry = JSON.stringify({ p99999: filler(99999) }).length - 1; // `"p99999":{…},`, the longest name
  const count = Math.floor((target - JSON.stringify(config).length - 4096) / entry);
  for (let i = 0; i < count; i++) config.profiles[`p${i}`] = filler(i);
  config.profiles.pad = { ...filler(0), name: 'pad' };
  config.profiles.pad.tenant_name = 'x'.repeat(target - (JSON.stringify(config).length + 1));
  writeFileSync(configOf(env), `${JSON.stringify(config)}\n`);
  const written = readFileSync(configOf(env));
  expect(written.length).toBe(target);
  return written;
}

/** The default profile's entry without what /whoami noted (as a login's first write leaves it): its facts then add to the file. */
function withoutFacts(env: NodeJS.ProcessEnv): void {
  const config = JSON.parse(readFileSync(configOf(env), 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
  for (const k of ['tenant_id', 'tenant_name', 'client_id_seen', 'granted_scopes', 'property_scope', 'property_names', 'access_expires_at'])
    delete config.profiles.default![k];
  writeFileSync(configOf(env), JSON.stringify(config, null, 2));
}

const loginArgs = ['login', '--no-browser', '--base-url', '', '--auth-url', '', '--lang', 'en'];
const args = (more: string[] = []) => loginArgs.map((a, i) => (i === 3 ? at.sb.apiBase : i === 5 ? at.proxy.url : a)).concat(more);
const onPost = (prefix: string, then: () => void) =>
  (at.proxy.rewrite = (r, body) => {
    if (r.path.startsWith(prefix)) then();
    return body;
  });

describe('login where config.json has no room for the profile', () => {
  it('is refused before the browser step: exit 2 CONFIG_FULL, no new connection, the old one and the file untouched', async () => {
    const { env, sid } = await at.signedIn();
    const before = fill(env, 32 * 1024);
    const connections = at.sb.admin.connections().length;
    const r = await runCli(args(['--profile', 'extra']), { env, signal: AbortSignal.timeout(10_000) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/Nothing was changed: .*config\.json has too little room left for a sign-in \(meterdata reads it up to 1 MiB\)\./);
    expect([at.sb.admin.connections().length, at.stateOf(sid)]).toEqual([connections, 'connected']);
    expect(readFileSync(configOf(env)).equals(before)).toBe(true);
    const st = await runCli(['status', '--profile', 'default'], { env });
    expect(st.code, st.stderr + st.stdout).toBe(0);
  }, 60_000);

  it('filled by another process before /whoami’s facts are noted: refused truly, the replaced connection revoked and said so', async () => {
    const { env, sid } = await at.signedIn();
    withoutFacts(env);
    onPost('/oauth/token', () => fill(env, 10));
    const r = await loginLive(args(), env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /The new sign-in is stored, but config\.json cannot take its details \(it would grow beyond 1 MiB, more than meterdata reads back\); `meterdata status` shows whether the profile can be used\./,
    );
    expect(r.stderr).not.toMatch(/The settings were not changed/);
    expect(r.stderr).toMatch(/previous connection was revoked at the server/);
    expect(at.stateOf(sid)).toBe('revoked');
  }, 60_000);

  it('a new profile’s sign-in refused there is ended again at the server and not kept', async () => {
    const { env } = await at.signedIn();
    const before = new Set(at.sb.admin.connections().map((c) => c.sid));
    onPost('/oauth/token', () => fill(env, 10));
    const r = await loginLive(args(['--profile', 'extra']), env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/The new sign-in was ended again at the server, as config\.json could not take its profile; nothing of it is kept\./);
    const fresh = at.sb.admin.connections().filter((c) => !before.has(c.sid));
    expect(fresh.map((c) => c.state)).toEqual(['revoked']);
    expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
  }, 60_000);

  it.each([
    ['stopped as the refusal comes (round 41 M3)', false],
    ['stopped while that sign-in’s revocation is awaited (round 41 L3)', true],
  ])(
    'a new profile’s sign-in refused there, %s: 130, nothing of it kept, told once',
    async (_name, duringRevocation) => {
      const { env } = await at.signedIn();
      const before = new Set(at.sb.admin.connections().map((c) => c.sid));
      const stop = new AbortController();
      const ctrlC = () => stop.abort(new InterruptedError('Interrupted by SIGINT.'));
      onPost('/oauth/token', () => (fill(env, 10), duringRevocation || ctrlC()));
      at.proxy.intercept = async (r) => {
        if (!r.path.startsWith('/oauth/revoke')) return undefined;
        ctrlC();
        await new Promise((w) => setTimeout(w, 3000));
        return { status: 503, body: '' };
      };
      const revocations = at.proxy.count('POST', '/oauth/revoke');
      const r = await loginLive(args(['--profile', 'extra']), env, { signal: stop.signal });
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(
        new RegExp(
          `Sign-in interrupted: nothing of the new sign-in is kept, and the connection it opened ${duringRevocation ? 'may still be open' : 'is still open'}\\.`,
        ),
      );
      expect(r.stderr).not.toMatch(/could not be ended|after the new sign-in was stored/);
      expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
      // nothing is sent after the stop: a revocation only where it was already on its way
      expect(at.sb.admin.connections().filter((c) => !before.has(c.sid)).length).toBe(1);
      expect(at.proxy.count('POST', '/oauth/revoke') - revocations).toBe(duringRevocation ? 1 : 0);
    },
    60_000,
  );

  it('stopped while the replaced connection’s revocation is awaited after the refusal: the stored sign-in said, never “nothing was half-written”', async () => {
    const { env } = await at.signedIn();
    const stop = new AbortController();
    withoutFacts(env);
    onPost('/oauth/token', () => fill(env, 10));
    at.proxy.intercept = async (r) => {
      if (!r.path.startsWith('/oauth/revoke')) return undefined;
      stop.abort(new InterruptedError('Interrupted by SIGINT.'));
      await new Promise((w) => setTimeout(w, 3000));
      return { status: 503, body: '' };
    };
    const r = await loginLive(args(), env, { signal: stop.signal });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/Sign-in interrupted after the new sign-in was stored, before the service confirmed it\./);
    expect(r.stderr).not.toMatch(/Nothing was half-written/);
  }, 60_000);
});

describe('login of a profile the file names, signed out, refused after the code was redeemed', () => {
  it('says its new sign-in is stored, not only that the settings were not changed (round 41 L4)', async () => {
    const { env } = await at.signedIn();
    expect((await runCli(['logout'], { env })).code).toBe(0);
    onPost('/oauth/token', () => fill(env, 10));
    const r = await loginLive(args(), env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/The new sign-in is stored, but config\.json cannot take its details/);
  }, 60_000);
});

describe('login of a profile the file names whose first write is refused otherwise', () => {
  it('a lock that is a plain file: says its new sign-in is stored (round 42 L2)', async () => {
    const { env } = await at.signedIn();
    expect((await runCli(['logout'], { env })).code).toBe(0);
    onPost('/oauth/token', () => writeFileSync(`${configOf(env)}.lock`, ''));
    const r = await loginLive(args(), env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/The new sign-in is stored, but config\.json could not be changed: The lock .* cannot be used/);
  }, 60_000);
});

describe('other commands with config.json full', () => {
  it('status: a connection that works is working, and the facts not noted are a warning', async () => {
    const { env } = await at.signedIn();
    fill(env, 10);
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/v1/whoami') ? JSON.stringify({ ...JSON.parse(body), tenant_name: 'N'.repeat(1000) }) : body);
    const st = await runCli(['status', '--profile', 'default', '--json'], { env });
    expect(st.code, st.stderr).toBe(0);
    expect(JSON.parse(st.stdout)).toMatchObject({ working: true });
    expect(st.stderr).toMatch(/^Warning: the connection was checked \(\/whoami\), but its tenant and property scope could not be noted in config\.json: /);
  }, 60_000);

  it('status after a refresh on a full file: one warning for the one /whoami (round 41 L1)', async () => {
    const { env } = await at.refreshDue(5000);
    fill(env, 10);
    at.proxy.rewrite = (r, body) => (r.path.startsWith('/v1/whoami') ? JSON.stringify({ ...JSON.parse(body), tenant_name: 'N'.repeat(1000) }) : body);
    const st = await runCli(['status', '--profile', 'default'], { env });
    expect(st.code, st.stderr).toBe(0);
    expect(st.stderr.match(/tenant and property scope could not be noted in config\.json/g), st.stderr).toHaveLength(1);
  }, 60_000);

  it('logout where config.json will not take the removal at all (its lock a plain file): signed out, said so, a warning', async () => {
    const { env, sid, file } = await at.signedIn();
    writeFileSync(`${configOf(env)}.lock`, '');
    const out = await runCli(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/^Warning: the connection's tenant and Properties could not be removed from config\.json: /);
    expect(out.stderr).toMatch(/Signed out profile "default": connection revoked/);
    expect([at.stateOf(sid), existsSync(file)]).toEqual(['revoked', false]);
  }, 60_000);

  it('logout signs out and says so (its removal is written compact)', async () => {
    const { env, sid, file } = await at.signedIn();
    fill(env, 10);
    const out = await runCli(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect([at.stateOf(sid), existsSync(file)]).toEqual(['revoked', false]);
  }, 60_000);
});
