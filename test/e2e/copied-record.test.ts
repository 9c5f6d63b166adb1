// One sign-in record under two profiles (profiles.default copied to profiles.beta in config.json
// and credentials/default.json copied to beta.json: "duplicate the landlord", or a restored
// backup), and a record that is a symbolic link to another's. The built binary against the
// sandbox behind a counting proxy; the sandbox's reuse detection is the judge: presenting a
// rotated refresh token revokes the landlord's whole connection.
import { copyFileSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProfileFields } from '../../src/core/config.js';
import { assertBuilt, deliver, followToRedirect, spawnCli } from '../helpers/browser.js';
import { ROOT } from '../helpers/bin.js';
import { hasKeyringTools, requireKeyringTools, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { sandboxBehindProxy, setAccessExpiry, storeFile } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0, units: 10 }, 'md-copied-');
beforeAll(() => assertBuilt());

/** A home whose default profile is signed in, and a profile beta made by hand from it: its config entry, and its record copied (or linked). */
async function withBeta(record: 'copy' | 'link') {
  const { env, sid } = await at.signedIn();
  const cfgFile = path.join(env.METERDATA_HOME!, 'config', 'config.json');
  const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
  cfg.profiles.beta = { ...cfg.profiles.default, name: 'beta' };
  writeFileSync(cfgFile, JSON.stringify(cfg, null, 2), { mode: 0o600 });
  if (record === 'copy') copyFileSync(storeFile(env, 'default'), storeFile(env, 'beta'));
  else symlinkSync(storeFile(env, 'default'), storeFile(env, 'beta'));
  return { env, sid };
}

const run = (args: string[], env: NodeJS.ProcessEnv) => spawnCli(args, env).done;
/** `meterdata login --profile X` (the fix the message names) at the sandbox, where the profile then points too (so login revokes what it replaces); its result. */
async function login(profile: string, env: NodeJS.ProcessEnv) {
  await setProfileFields(env, profile, { auth_url: at.sb.url, base_url: at.sb.apiBase });
  const child = spawnCli(['login', '--no-browser', '--profile', profile, '--auth-url', at.sb.url], env);
  await deliver(await followToRedirect(await child.url));
  return child.done;
}

const stored = (env: NodeJS.ProcessEnv, profile: string) => JSON.parse(readFileSync(storeFile(env, profile), 'utf8')) as Record<string, unknown>;

describe('a sign-in record copied to a second profile', () => {
  it('beta refreshes; default then sends nothing (exit 3, naming beta and the fix), the connection stays connected, beta keeps working', async () => {
    const { env, sid } = await withBeta('copy');
    setAccessExpiry(storeFile(env, 'beta'));
    const b = await run(['export', '--year', '2025', '--profile', 'beta', '--format', 'csv', '--out', path.join(env.METERDATA_HOME!, 'b')], env);
    expect(b.code, b.stderr).toBe(0);
    const afterBeta = at.tokenPosts();

    setAccessExpiry(storeFile(env, 'default'));
    const a = await run(['export', '--year', '2025', '--format', 'csv', '--out', path.join(env.METERDATA_HOME!, 'a')], env);
    expect(a.code).toBe(3);
    expect(a.stderr).toMatch(/already sent at .* by the profile "beta"/);
    expect(a.stderr).toContain('meterdata login');
    expect(a.stderr).not.toMatch(/\n\s+at /);
    expect(at.tokenPosts()).toBe(afterBeta);
    expect(at.stateOf(sid)).toBe('connected');
    // marked as an answer lost after sending is: later runs refuse at once, with the same sentence
    expect(stored(env, 'default').refresh_uncertain_since).toEqual(expect.any(String));
    const again = await run(['token'], env);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/by the profile "beta"/);

    setAccessExpiry(storeFile(env, 'beta'));
    const b2 = await run(['token', '--profile', 'beta'], env);
    expect(b2.code, b2.stderr).toBe(0);
    expect(at.tokenPosts()).toBe(afterBeta + 1);
    expect(at.stateOf(sid)).toBe('connected');

    // the fix the message names: default signs in anew; beta's connection is not revoked on the way
    const relogin = await login('default', env);
    expect(relogin.code, relogin.stderr).toBe(0);
    expect(relogin.stderr + relogin.stdout).toMatch(/not revoked at the server \(it is the connection of the profile "beta" too/);
    expect(at.stateOf(sid)).toBe('connected');
    setAccessExpiry(storeFile(env, 'beta'));
    expect((await run(['token', '--profile', 'beta'], env)).code).toBe(0);
    setAccessExpiry(storeFile(env, 'default'));
    expect((await run(['token'], env)).code).toBe(0);
  }, 240_000);

  for (const when of ['after beta refreshed', 'before either refreshed'] as const) {
    it(`logout of the copy ${when} deletes it without revoking the connection beta still uses, and says so`, async () => {
      const { env, sid } = await withBeta('copy');
      if (when === 'after beta refreshed') {
        setAccessExpiry(storeFile(env, 'beta'));
        expect((await run(['token', '--profile', 'beta'], env)).code).toBe(0);
      }
      const out = await run(['logout'], env);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr).toMatch(/NOT revoked at the server \(it is the connection of the profile "beta" too/);
      expect(at.stateOf(sid)).toBe('connected');
      setAccessExpiry(storeFile(env, 'beta'));
      expect((await run(['token', '--profile', 'beta'], env)).code).toBe(0);
    }, 240_000);
  }

  it('status tells the truth: the copy whose token beta already sent is not working (exit 3), though its access token still reads /whoami', async () => {
    const { env, sid } = await withBeta('copy');
    setAccessExpiry(storeFile(env, 'beta'));
    expect((await run(['token', '--profile', 'beta'], env)).code).toBe(0);
    const st = await run(['status'], env);
    expect(st.code).toBe(3);
    expect(st.stdout).toMatch(/by the profile "beta"/);
    const json = JSON.parse((await run(['status', '--json'], env)).stdout) as { working: boolean; problem: { code: string } };
    expect(json).toMatchObject({ working: false, problem: { code: 'AUTH_REFRESH_SPENT' } });
    expect((await run(['status', '--profile', 'beta'], env)).code).toBe(0);
    expect(at.stateOf(sid)).toBe('connected');
  }, 240_000);

  it('both profiles refreshing at once: one refresh is sent, the other run exits 3 without one, within a bounded time', async () => {
    const { env, sid } = await withBeta('copy');
    setAccessExpiry(storeFile(env, 'default'));
    setAccessExpiry(storeFile(env, 'beta'));
    const before = at.tokenPosts();
    const t0 = performance.now();
    const results = await Promise.all([run(['token'], env), run(['token', '--profile', 'beta'], env)]);
    const ms = performance.now() - t0;
    expect(results.map((r) => r.code).sort()).toEqual([0, 3]);
    const loser = results.find((r) => r.code === 3)!;
    expect(loser.stderr).toMatch(/already sent at .* by the profile "(beta|default)"/);
    expect(at.tokenPosts()).toBe(before + 1);
    expect(at.stateOf(sid)).toBe('connected');
    // no wait for a lock held across the other's refresh: both end within the time of one refresh and start-up
    expect(ms).toBeLessThan(60_000);
  }, 240_000);
});

describe("a sign-in record that is a symbolic link to another profile's", () => {
  it('is refused on read (exit 3, naming the link), left as it is, and the connection it points to keeps working', async () => {
    const { env, sid } = await withBeta('link');
    setAccessExpiry(storeFile(env, 'default'));
    const before = at.tokenPosts();
    const b = await run(['token', '--profile', 'beta'], env);
    expect(b.code).toBe(3);
    expect(b.stderr).toContain(`${storeFile(env, 'beta')} is a symbolic link`);
    expect(b.stderr).toContain('meterdata login --profile beta');
    expect(at.tokenPosts()).toBe(before);
    expect(lstatSync(storeFile(env, 'beta')).isSymbolicLink()).toBe(true);
    const a = await run(['token'], env);
    expect(a.code, a.stderr).toBe(0);
    expect(at.tokenPosts()).toBe(before + 1);
    expect(at.stateOf(sid)).toBe('connected');
    expect((await run(['status', '--profile', 'beta'], env)).code).toBe(3);
  }, 240_000);
});

describe('a keychain sign-in copied to a second profile', () => {
  let ks: KeyringSession | undefined;
  beforeAll(async () => {
    if (hasKeyringTools()) ks = await startKeyringSession();
  });
  afterAll(async () => ks?.stop());

  /** Writes `rec` as the keychain entry of `profile` (what a person copying the entry with a keychain tool does), access token expired. */
  const putEntry = (env: NodeJS.ProcessEnv, profile: string, rec: Record<string, unknown>) => {
    const text = JSON.stringify({ ...rec, access_expires_at: new Date(Date.now() - 1000).toISOString() });
    const script = `const { AsyncEntry } = require('@napi-rs/keyring');
      new AsyncEntry('meterdata', process.argv[1], { linux: { store: 'secret-service' } }).setPassword(process.argv[2]).catch((e) => { console.error(e); process.exit(1); });`;
    execFileSync(process.execPath, ['-e', script, `${profile}@${env.METERDATA_HOME}`, text], { env: { PATH: process.env.PATH, ...env }, cwd: ROOT });
  };

  it('beta refreshes; default then sends nothing (exit 3, naming beta), the connection stays connected', async (ctx) => {
    requireKeyringTools(ctx, 'the keychain store runs against a real Secret Service');
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-copied-kc-'));
    const env = { ...ks!.env, METERDATA_HOME: home };
    const before = new Set(at.sb.admin.connections().map((c) => c.sid));
    const signIn = spawnCli(['login', '--no-browser', '--auth-url', at.sb.url], env);
    await deliver(await followToRedirect(await signIn.url));
    expect((await signIn.done).code).toBe(0);
    const sid = at.sb.admin.connections().find((c) => !before.has(c.sid))!.sid;
    const cfgFile = path.join(home, 'config', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    cfg.profiles.beta = { ...cfg.profiles.default, name: 'beta' };
    writeFileSync(cfgFile, JSON.stringify(cfg, null, 2), { mode: 0o600 });
    const rec = JSON.parse(ks!.secretTool(['lookup', 'service', 'meterdata', 'username', `default@${home}`])) as Record<string, unknown>;
    putEntry(env, 'beta', rec);

    const b = await run(['token', '--profile', 'beta'], env);
    expect(b.code, b.stderr).toBe(0);
    putEntry(env, 'default', rec);
    const a = await run(['token'], env);
    expect(a.code).toBe(3);
    expect(a.stderr).toMatch(/already sent at .* by the profile "beta"/);
    expect(at.stateOf(sid)).toBe('connected');
    const b2 = await run(['token', '--profile', 'beta'], env);
    expect(b2.code, b2.stderr).toBe(0);
    expect(at.stateOf(sid)).toBe('connected');
  }, 240_000);
});
