// A login where config.json has no room for its profile (round 37c F1: past about 2,300 profiles a login rewrote the
// file beyond the 1 MiB meterdata reads back, and every later command refused it; round 39 F2/F3: refused after the
// new sign-in was stored, the replaced connection was left alive without a word).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginLive } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22' }, 'md-login-config-full-');

/**
 * config.json filled with copies of the default profile to about `bytes`: indented, as meterdata writes it, or compact
 * (as another tool may), which an indented rewrite makes far larger.
 */
function fill(env: NodeJS.ProcessEnv, bytes: number, indent?: number): Buffer {
  const file = path.join(env.METERDATA_HOME!, 'config', 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { name: string }> };
  const size = () => JSON.stringify(config, null, indent).length;
  const empty = size();
  config.profiles.p0 = { ...config.profiles.default!, name: 'p0' };
  const entry = size() - empty;
  for (let i = 0; i < Math.floor(bytes / entry); i++) config.profiles[`p${i}`] = { ...config.profiles.default!, name: `p${i}` };
  writeFileSync(file, `${JSON.stringify(config, null, indent)}\n`);
  return readFileSync(file);
}

const loginArgs = (at: { proxy: { url: string }; sb: { apiBase: string } }) => [
  'login',
  '--no-browser',
  '--auth-url',
  at.proxy.url,
  '--base-url',
  at.sb.apiBase,
  '--lang',
  'en',
];

describe('login where config.json has no room for the profile', () => {
  it('is refused before the browser step: exit 2 CONFIG_FULL, no new connection, the old one and the file untouched', async () => {
    const { env, sid } = await at.signedIn();
    const before = fill(env, 0.97 * 2 ** 20, 2);
    expect(before.length).toBeLessThan(2 ** 20);
    const connections = at.sb.admin.connections().length;
    const r = await runCli([...loginArgs(at), '--profile', 'extra'], { env, signal: AbortSignal.timeout(10_000) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/The settings were not changed: .*config\.json would grow beyond 1 MiB, more than meterdata reads back\./);
    expect([at.sb.admin.connections().length, at.stateOf(sid)]).toEqual([connections, 'connected']);
    expect(readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json')).equals(before)).toBe(true);
    const st = await runCli(['status', '--profile', 'default'], { env });
    expect(st.code, st.stderr + st.stdout).toBe(0);
  }, 60_000);

  it('filled by another process after the code was redeemed: refused, the replaced connection revoked and said so', async () => {
    const { env, sid } = await at.signedIn();
    let filled: Buffer | undefined;
    at.proxy.rewrite = (r, body) => {
      if (r.method === 'POST' && r.path.startsWith('/oauth/token')) filled = fill(env, 0.99 * 2 ** 20);
      return body;
    };
    const r = await loginLive(loginArgs(at), env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/would grow beyond 1 MiB/);
    expect(r.stderr).toMatch(/previous connection was revoked at the server/);
    expect(at.stateOf(sid)).toBe('revoked');
    expect(readFileSync(path.join(env.METERDATA_HOME!, 'config', 'config.json')).equals(filled!)).toBe(true);
  }, 60_000);

  it('a new profile’s sign-in refused there is ended again at the server and not kept', async () => {
    const { env } = await at.signedIn();
    const before = new Set(at.sb.admin.connections().map((c) => c.sid));
    at.proxy.rewrite = (r, body) => {
      if (r.method === 'POST' && r.path.startsWith('/oauth/token')) fill(env, 0.99 * 2 ** 20);
      return body;
    };
    const r = await loginLive([...loginArgs(at), '--profile', 'extra'], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/The new sign-in was ended again at the server, as config\.json could not take its profile; nothing of it is kept\./);
    const fresh = at.sb.admin.connections().filter((c) => !before.has(c.sid));
    expect(fresh.map((c) => c.state)).toEqual(['revoked']);
    expect(existsSync(path.join(env.METERDATA_HOME!, 'state', 'credentials', 'extra.json'))).toBe(false);
  }, 60_000);
});
