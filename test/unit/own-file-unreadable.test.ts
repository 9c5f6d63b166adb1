// config.json or a sign-in record another user owns (a `sudo meterdata login`, files left 0600 root's) cannot be
// read. Every command said "A file meterdata keeps could not be written … Free space on that disk", exit 1
// (round 26). It says the file cannot be read and how to give it back: exit 2 for config.json, 3 for a sign-in.
// Tests run as root, whom file modes do not stop, so the refusal comes from a mocked open.
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const denied = vi.hoisted(() => ({ suffix: '' }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const openSync = ((file: string, ...rest: unknown[]) => {
    if (denied.suffix && String(file).endsWith(denied.suffix))
      throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES', syscall: 'open', path: file });
    return (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  return { ...fs, default: { ...fs, openSync }, openSync };
});

const { readConfig } = await import('../../src/core/config.js');
const { FileCredentialStore } = await import('../../src/auth/credential-store/file.js');
const { setLanguage } = await import('../../src/i18n/index.js');
const { readSpent } = await import('../../src/auth/spent-tokens.js');
const { runCli } = await import('../helpers/run-cli.js');

afterEach(() => {
  denied.suffix = '';
  setLanguage('en');
});

function home(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'md-unreadable-'));
  mkdirSync(path.join(dir, 'config'), { recursive: true });
  writeFileSync(path.join(dir, 'config', 'config.json'), '{"profiles":{}}');
  return { METERDATA_HOME: dir };
}

describe("a file of meterdata's that cannot be read", () => {
  it('config.json: CONFIG_INVALID, exit 2, "cannot be read (permission denied …)", the hint to give it back', async () => {
    const env = home();
    denied.suffix = 'config.json';
    const e = (await readConfig(env).catch((err: unknown) => err)) as { code: string; exitCode: number; message: string; hint: string };
    expect([e.code, e.exitCode]).toEqual(['CONFIG_INVALID', 2]);
    expect(e.message).toMatch(
      /config\.json cannot be used: it cannot be read \(permission denied: it may belong to another user, for instance after `sudo meterdata login`\)/,
    );
    expect(e.hint).toBe('Give the file back to this user (chown), or run meterdata as the user it belongs to.');
    expect(e.message).not.toMatch(/written|free space/i);
    setLanguage('de');
    const de = (await readConfig(env).catch((err: unknown) => err)) as { message: string; hint: string };
    expect(de.message).toMatch(/sie ist nicht lesbar \(keine Berechtigung/);
    expect(de.hint).toMatch(/^Bitte geben Sie die Datei diesem Benutzer zurück/);
  });

  it('a sign-in record: AUTH_STORE_DAMAGED, exit 3, "cannot be read", not "damaged", the hint to give it back or sign in as this user', async () => {
    const env = home();
    const dir = path.join(env.METERDATA_HOME!, 'state', 'credentials');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'alpha.json'), '{}', { mode: 0o600 });
    denied.suffix = 'alpha.json';
    const store = new FileCredentialStore(env);
    const e = (await store.read('alpha').catch((err: unknown) => err)) as { code: string; exitCode: number; message: string; hint: string };
    expect([e.code, e.exitCode]).toEqual(['AUTH_STORE_DAMAGED', 3]);
    expect(e.message).toMatch(/alpha\.json cannot be used: it cannot be read \(permission denied/);
    expect(e.message).not.toMatch(/damaged/);
    // round 26: it said "is damaged" and "Run `meterdata login` to replace it (`meterdata logout` deletes it)"
    expect(e.hint).toBe(
      'Give the file back to this user (chown), or sign in again as this user with `meterdata login --profile alpha` (it replaces the file).',
    );
    setLanguage('de');
    const de = (await store.read('alpha').catch((err: unknown) => err)) as { message: string; hint: string };
    expect(de.message).toMatch(/alpha\.json ist nicht verwendbar: sie ist nicht lesbar \(keine Berechtigung/);
    expect(de.hint).toMatch(
      /^Bitte geben Sie die Datei diesem Benutzer zurück \(chown\) oder melden Sie sich als dieser Benutzer mit `meterdata login --profile alpha` neu an/,
    );
  });

  it('the list of refresh tokens already sent: AUTH_SPENT_LIST_DAMAGED, exit 5, "cannot be used", not "damaged", the hint to give it back', () => {
    const env = home();
    mkdirSync(path.join(env.METERDATA_HOME!, 'state'), { recursive: true });
    writeFileSync(path.join(env.METERDATA_HOME!, 'state', 'refresh-tokens-spent.json'), '{"v":1,"spent":[]}', { mode: 0o600 });
    denied.suffix = 'refresh-tokens-spent.json';
    const e = (() => {
      try {
        return readSpent(env);
      } catch (err) {
        return err;
      }
    })() as { code: string; exitCode: number; message: string; hint: string };
    expect([e.code, e.exitCode]).toEqual(['AUTH_SPENT_LIST_DAMAGED', 5]);
    expect(e.message).toMatch(/refresh-tokens-spent\.json, cannot be used: it cannot be read \(permission denied/);
    // round 26: "is damaged: …", hint "Correct the file, or move it away"
    expect(e.message).not.toMatch(/damaged/);
    expect(e.hint).toBe('Give the file back to this user (chown), or run meterdata as the user it belongs to.');
  });
});

describe('logout of a sign-in record this user may not read', () => {
  const withRecord = () => {
    const env = home();
    writeFileSync(
      path.join(env.METERDATA_HOME!, 'config', 'config.json'),
      JSON.stringify({
        profiles: {
          alpha: {
            name: 'alpha',
            auth_url: 'https://auth.example.test',
            base_url: 'https://api.example.test/v1',
            resource: 'https://api.example.test',
            client_id: 'meterdata',
            client_auth: 'none',
            dpop: false,
            scopes: ['read:units'],
            credential_store: 'file',
          },
        },
      }),
    );
    const dir = path.join(env.METERDATA_HOME!, 'state', 'credentials');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'alpha.json');
    writeFileSync(file, '{}', { mode: 0o600 });
    return { env: { ...env, METERDATA_CREDENTIAL_STORE: 'file' }, file };
  };

  it('keeps it (its connection may be live), exit 3, saying how to revoke it; not "damaged"', async () => {
    const { env, file } = withRecord();
    denied.suffix = 'alpha.json';
    const r = await runCli(['logout', '--profile', 'alpha'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/Profile "alpha" was not signed out: .*alpha\.json cannot be used: it cannot be read \(permission denied/);
    expect(r.stderr).toMatch(
      /Give the file back to this user \(chown\) and run `meterdata logout --profile alpha` again.*`meterdata logout --profile alpha --local-only` deletes it without revoking/s,
    );
    expect(r.stderr).not.toMatch(/damaged/);
    expect(existsSync(file)).toBe(true);
  });

  it('--local-only deletes it, saying it could not be read and nothing was revoked', async () => {
    const { env, file } = withRecord();
    denied.suffix = 'alpha.json';
    const r = await runCli(['logout', '--profile', 'alpha', '--local-only'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Signed out profile "alpha" \(--local-only\): its stored sign-in could not be read, so nothing was revoked at the server/);
    expect(existsSync(file)).toBe(false);
  });
});
