// config.json and the stored sign-in (issues 11, 14): hostile files and
// names. Each case here misled the user or crashed with a stack trace before.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileCredentialStore } from '../../src/auth/credential-store/file.js';
import { stillInFlight } from '../../src/auth/refresh-intent.js';
import { configFile, loadProfile, removeProfileFields, setProfileFields, type Profile } from '../../src/core/config.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';

afterEach(() => setLanguage('en'));

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-config-files-')), METERDATA_CREDENTIAL_STORE: 'file' });
const profile = (name: string): Profile => ({
  name,
  auth_url: 'http://127.0.0.1:9',
  base_url: 'http://127.0.0.1:9/v1',
  resource: 'http://127.0.0.1:9',
  client_id: 'erp_1',
  client_auth: 'none',
  dpop: false,
  scopes: ['read:units'],
  credential_store: 'file',
});

function writeConfig(env: NodeJS.ProcessEnv, content: string): void {
  const file = configFile(env);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content, { mode: 0o600 });
}

describe('a profile named like a property of every object', () => {
  // "constructor" and "toString" are valid profile names; a lookup without hasOwn found
  // Object.prototype's function and called the profile damaged (exit 2).
  it.each(['constructor', 'toString', 'hasOwnProperty'])('"%s" that was never signed in is "not signed in" (exit 3), not a damaged profile', async (name) => {
    const env = home();
    writeConfig(env, JSON.stringify({ profiles: { default: profile('default') } }));
    expect(await loadProfile(env, name)).toBeUndefined();
    const r = await runCli(['status', '--profile', name], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout + r.stderr).not.toMatch(/cannot be used|damaged/);
  });

  it('setting or removing fields of such a profile writes nothing for it', async () => {
    const env = home();
    writeConfig(env, JSON.stringify({ profiles: { default: profile('default') } }));
    await setProfileFields(env, 'constructor', { last_refresh_at: '2026-01-01T00:00:00Z' });
    await removeProfileFields(env, 'toString', ['last_refresh_at']);
    expect(Object.keys(JSON.parse(readFileSync(configFile(env), 'utf8')).profiles)).toEqual(['default']);
  });
});

describe('a file nested deeper than any meterdata wrote', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  // Parsing such a file works; writing it back (extra fields are kept) overflowed the stack: exit 1, a stack trace.
  it('config.json: one line naming the file, before anything is written, in both languages', async () => {
    const env = home();
    const text = JSON.stringify({ profiles: { default: { ...profile('default'), note: 'X' } } }).replace('"X"', deep(20_000));
    writeConfig(env, text);
    await expect(setProfileFields(env, 'default', { last_refresh_at: '2026-01-01T00:00:00Z' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      exitCode: 2,
      message: `The configuration file ${configFile(env)} cannot be used: it is nested deeper than 64 levels (not a file meterdata wrote).`,
    });
    expect(readFileSync(configFile(env), 'utf8')).toBe(text);
    const r = await runCli(['status', '--lang', 'de'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tiefer als 64 Ebenen verschachtelt');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await findEnglish(r.stderr)).toEqual([]);
  });

  it('the stored sign-in: damaged (exit 3), not a crash when it is written back', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    mkdirSync(path.dirname(store.fileFor('default')), { recursive: true });
    writeFileSync(store.fileFor('default'), `{"v":1,"refresh_token":"r","updated_at":"x","extra":${deep(20_000)}}`, { mode: 0o600 });
    await expect(store.read('default')).rejects.toMatchObject({ code: 'AUTH_STORE_DAMAGED', exitCode: 3 });
  });

  it('brackets inside texts do not count, and a file at the bound is read', async () => {
    const env = home();
    writeConfig(env, JSON.stringify({ profiles: { default: { ...profile('default'), client_id: '[{'.repeat(100), note: JSON.parse(deep(61)) } } }));
    expect((await loadProfile(env, 'default'))!.client_id).toBe('[{'.repeat(100));
  });
});

describe('the stored sign-in, edited or restored by hand', () => {
  function stored(env: NodeJS.ProcessEnv, record: unknown, mode = 0o600): FileCredentialStore {
    const store = new FileCredentialStore(env);
    mkdirSync(path.dirname(store.fileFor('default')), { recursive: true });
    writeFileSync(store.fileFor('default'), JSON.stringify(record), { mode });
    return store;
  }
  const record = { v: 1, refresh_token: 'r', updated_at: '2026-01-01T00:00:00Z' };

  it('status of a record that cannot be read shows no token expiry or last refresh from config.json (text and --json)', async () => {
    const env = home();
    writeConfig(
      env,
      JSON.stringify({
        profiles: {
          default: {
            ...profile('default'),
            tenant_name: 'Nordlicht',
            tenant_id: 't',
            access_expires_at: '2026-01-01T01:00:00Z',
            last_refresh_at: '2026-01-01T00:00:00Z',
          },
        },
      }),
    );
    stored(env, { v: 1, refresh_token: 7 });
    const j = await runCli(['status', '--json'], { env });
    expect(j.code).toBe(3);
    const report = JSON.parse(j.stdout);
    expect(report.problem.code).toBe('AUTH_STORE_DAMAGED');
    expect(report).not.toHaveProperty('access_expires_at');
    expect(report).not.toHaveProperty('last_refresh_at');
    expect(report.signed_in).toBe(false);
    const r = await runCli(['status'], { env });
    expect(r.stdout).not.toMatch(/Access token|Last refresh|2026-01-01/);
    expect(r.stdout).toMatch(/damaged/);
  });

  // kill(0, 0) and kill(-1, 0) succeed (a process group, every process): such an intent read as a refresh in flight.
  it.each([0, -1, 1e20])('an intent whose pid is %s is damaged (exit 3), not a refresh in flight', async (pid) => {
    const store = stored(home(), { ...record, refresh_intent: { at: new Date().toISOString(), pid, host: os.hostname() } });
    await expect(store.read('default')).rejects.toMatchObject({ code: 'AUTH_STORE_DAMAGED', exitCode: 3 });
  });

  it('an intent dated ahead of this clock is not in flight (it refused every run until that date), a fresh one is', () => {
    const intent = (at: number) => ({ at: new Date(at).toISOString(), pid: process.ppid, host: os.hostname() });
    const now = Date.now();
    expect(stillInFlight(intent(now + 86_400_000), now)).toBe(false);
    expect(stillInFlight(intent(now - 1000), now)).toBe(true);
    expect(stillInFlight(intent(now + 5000), now)).toBe(true);
  });

  it('a record readable by others is made 0600 when read, as status says it is', async () => {
    const store = stored(home(), record, 0o644);
    expect((await store.read('default'))!.refresh_token).toBe('r');
    expect(statSync(store.fileFor('default')).mode & 0o777).toBe(0o600);
  });
});

// METERDATA_HOME, or the config folder in it, a plain file: status and export --json said "unexpected failure
// (this is a bug)" with a stack trace (ENOTDIR), exit 1. Now the config error's one line naming the file in the way.
describe('a file where meterdata keeps a folder', () => {
  it.each([
    ['METERDATA_HOME', (env: { METERDATA_HOME: string }) => (env.METERDATA_HOME = path.join(env.METERDATA_HOME, 'home'))],
    ['the config folder', (env: { METERDATA_HOME: string }) => path.join(env.METERDATA_HOME, 'config')],
  ])('%s: status and export --json exit 2 with one line naming it and the fix, in both languages', async (_, blocker) => {
    const env = home();
    const at = blocker(env);
    writeFileSync(at, 'not a folder');
    const status = await runCli(['status'], { env });
    expect([status.code, status.stderr.split('\n')[0]]).toEqual([
      2,
      `meterdata: The configuration file ${configFile(env)} cannot be used: ${at} is a file, not a folder.`,
    ]);
    expect(status.stderr).toContain(`Move or rename ${at}`);
    expect(status.stderr).not.toMatch(/\n\s+at |this is a bug/);
    const json = await runCli(['export', '--year', '2025', '--json', '--out', path.join(os.tmpdir(), 'md-never-written')], { env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'CONFIG_INVALID' } });
    const de = await runCli(['status', '--lang', 'de'], { env });
    expect(de.stderr).toContain(`${at} ist eine Datei, kein Ordner`);
    expect(await findEnglish(de.stderr)).toEqual([]);
  });
});
