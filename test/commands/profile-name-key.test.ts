// A profile in config.json whose stored "name" is not the key it is listed under (an entry
// copied by hand) or not a valid name ("../../x"): every command refuses it with exit 2
// naming the entry to correct, before any token is read or any request is sent.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFile } from '../../src/core/config.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, storeFile } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-profile-key-');

/** `default` signed in; `entries` (key -> stored name) are copies of it under other keys. */
async function copiedProfiles(entries: Record<string, string>) {
  const { env } = await at.signedIn();
  const file = configFile(env);
  const config = JSON.parse(readFileSync(file, 'utf8'));
  for (const [key, name] of Object.entries(entries)) config.profiles[key] = { ...config.profiles.default, name };
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  const sid = at.sb.admin.connections().at(-1)!.sid;
  return { env, file, sid };
}

const stateOf = (sid: string) => at.sb.admin.connections().find((c) => c.sid === sid)?.state;

describe('a profile whose stored name is not its key', () => {
  it.each([
    ['export', ['export', '--year', '2025', '--metric', 'water_cold']],
    ['status', ['status']],
    ['logout', ['logout']],
    ['token', ['token']],
  ])('%s --profile gamma (a copy of default): exit 2 naming the entry, nothing sent, nothing revoked', async (_what, args) => {
    const { env, file, sid } = await copiedProfiles({ gamma: 'default' });
    const out = path.join(env.METERDATA_HOME!, 'out');
    const seen = at.proxy.requests.length;
    const r = await runCli([...args, '--profile', 'gamma', ...(args[0] === 'export' ? ['--out', out] : [])], { env, cwd: env.METERDATA_HOME });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`The profile "gamma" in ${file} cannot be used: its "name" is "default", not the name it is listed under.`);
    expect(r.stderr).toContain('Set "name" in profiles.gamma to "gamma"');
    expect(r.stdout).not.toMatch(/connected|eyJ/);
    expect(at.proxy.requests.length).toBe(seen);
    expect(existsSync(out)).toBe(false);
    expect(stateOf(sid)).toBe('connected');
    // the original is untouched and still works
    expect(existsSync(storeFile(env))).toBe(true);
    expect((await runCli(['status'], { env })).code).toBe(0);
  });

  it('a stored name that climbs out of the credential store is refused before its tokens are read', async () => {
    const { env, file } = await copiedProfiles({ escaped: '../../../escaped' });
    // a record where that name would lead: read by the old code
    const outside = path.join(path.dirname(storeFile(env)), '../../../escaped.json');
    mkdirSync(path.dirname(outside), { recursive: true });
    writeFileSync(outside, readFileSync(storeFile(env)), { mode: 0o600 });
    for (const cmd of ['token', 'status']) {
      const r = await runCli([cmd, '--profile', 'escaped'], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`The profile "escaped" in ${file} cannot be used: its "name" is "../../../escaped"`);
      expect(r.stdout).toBe('');
    }
  });

  it('an entry whose key is not a valid profile name stops `export --all-profiles` and `status --all` names it', async () => {
    const { env, file } = await copiedProfiles({ '../up': '../up' });
    const out = path.join(env.METERDATA_HOME!, 'out');
    const r = await runCli(['export', '--all-profiles', '--year', '2025', '--out', out], { env, cwd: env.METERDATA_HOME });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`The profile entry "../up" in ${file} cannot be used: its name is not a valid profile name.`);
    expect(r.stderr).toContain('Rename or remove the entry profiles."../up"');
    const st = await runCli(['status', '--all'], { env });
    expect(st.stdout + st.stderr).toContain('"../up"');
  });

  // Round 26: <out>\con is the console on Windows, credentials\nul.json a device on Windows 10 and older.
  it.each(['con', 'NUL', 'aux', 'prn', 'com1', 'LPT9', 'nul.x', 'con.txt'])(
    'a Windows device name, %s: refused as --profile (exit 2, PROFILE_NAME_INVALID) and as an entry of config.json',
    async (name) => {
      const { env, file } = await copiedProfiles({ [name]: name });
      const seen = at.proxy.requests.length;
      for (const cmd of [['status'], ['logout'], ['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'o')]]) {
        const r = await runCli([...cmd, '--profile', name], { env, cwd: env.METERDATA_HOME });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(`"${name}" is not a valid profile name.`);
        expect(r.stderr).toContain('not a Windows device name such as con, nul');
      }
      const all = await runCli(['export', '--all-profiles', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'all')], {
        env,
        cwd: env.METERDATA_HOME,
      });
      expect(all.code, all.stderr).toBe(2);
      expect(all.stderr).toContain(`The profile entry "${name}" in ${file} cannot be used: its name is not a valid profile name.`);
      expect(at.proxy.requests.length).toBe(seen);
    },
  );

  it('names that only begin like a device stay valid: console, nullable, com10, lpt0, auxiliary', async () => {
    const { env } = await copiedProfiles({});
    for (const name of ['console', 'nullable', 'com10', 'lpt0', 'auxiliary', 'prnt']) {
      const r = await runCli(['status', '--profile', name], { env });
      expect(r.stderr).not.toContain('is not a valid profile name');
    }
  });

  it('German: the entry and the fix in the German words', async () => {
    const { env } = await copiedProfiles({ gamma: 'default' });
    const r = await runCli(['token', '--profile', 'gamma', '--lang', 'de'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sein „name“ ist „default“, nicht der Name, unter dem es eingetragen ist');
    expect(r.stderr).toContain('Bitte setzen Sie „name“ in profiles.gamma auf „gamma“');
  });
});

// Windows and macOS ignore case in file names (the credentials file Default.json is default.json,
// a portfolio's <out>/Default is <out>/default) and Windows's credential manager in its entries.
describe('profile names that differ only in case', () => {
  it('login --profile Default next to default: exit 2 before any request, the sign-in of default untouched', async () => {
    const { env, file } = await copiedProfiles({});
    const record = readFileSync(storeFile(env), 'utf8');
    const seen = at.proxy.requests.length;
    const r = await runCli(['login', '--no-browser', '--auth-url', at.sb.url, '--profile', 'Default', '--timeout', '2'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`The profile name "Default" differs from the profile "default" in ${file} only in upper and lower case`);
    expect(r.stderr).toContain('Use --profile default');
    expect(at.proxy.requests.length).toBe(seen);
    expect(readFileSync(storeFile(env), 'utf8')).toBe(record);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['default']);
    const de = await runCli(['token', '--profile', 'DEFAULT', '--lang', 'de'], { env });
    expect(de.code).toBe(2);
    expect(de.stderr).toContain('unterscheidet sich vom Profil „default“');
  });

  it('two entries default and Default: every command and `export --all-profiles` refuse them, exit 2', async () => {
    const { env, file } = await copiedProfiles({ Default: 'Default' });
    const out = path.join(env.METERDATA_HOME!, 'out');
    const seen = at.proxy.requests.length;
    const all = await runCli(['export', '--all-profiles', '--year', '2025', '--out', out], { env, cwd: env.METERDATA_HOME });
    expect(all.code, all.stderr).toBe(2);
    expect(all.stderr).toContain(`The profiles "default" and "Default" in ${file} differ only in upper and lower case`);
    for (const profile of ['default', 'Default']) {
      const r = await runCli(['token', '--profile', profile], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('Remove one of the two entries from that file');
      expect(r.stdout).toBe('');
    }
    expect(at.proxy.requests.length).toBe(seen);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a profile copied in config.json with its name corrected, without credentials of its own', () => {
  it("status --profile gamma says it is not signed in and shows none of the copy's connection (before: its tenant and token expiry)", async () => {
    const { env } = await copiedProfiles({ gamma: 'gamma' });
    const r = await runCli(['status', '--profile', 'gamma'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/Profile "gamma": not signed in/);
    expect(r.stdout).toMatch(/Run `meterdata login --profile gamma`/);
    expect(r.stdout).not.toMatch(/Access token:|Last refresh:|Tenant:|expires/);
    const j = JSON.parse((await runCli(['status', '--profile', 'gamma', '--json'], { env })).stdout);
    expect(j).toMatchObject({ signed_in: false, problem: { code: 'AUTH_NOT_SIGNED_IN' } });
    expect(j).not.toHaveProperty('access_expires_at');
    expect(j).not.toHaveProperty('tenant_id');
    // the original still shows its own
    expect((await runCli(['status'], { env })).stdout).toMatch(/Access token: +expires/);
  });
});
