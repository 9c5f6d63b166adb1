// config.json and the stored sign-in, damaged or edited by hand: one clear error naming the
// file, the field and the fix, in both languages; nothing overwritten, nothing secret quoted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFile, loadProfile, loadProfiles, saveProfile, setProfileFields, type Profile } from '../../src/core/config.js';
import { FileCredentialStore } from '../../src/auth/credential-store/file.js';
import { KeychainCredentialStore, type EntryLike } from '../../src/auth/credential-store/keychain.js';
import { setLanguage } from '../../src/i18n/index.js';
import { runCli } from '../helpers/run-cli.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-files-')), METERDATA_CREDENTIAL_STORE: 'file' });
const profile = (name: string): Profile => ({
  name,
  auth_url: 'https://auth.example.com',
  base_url: 'https://api.example.com/v1',
  resource: 'https://api.example.com',
  client_id: 'erp_1',
  client_auth: 'none',
  dpop: false,
  scopes: ['read:units'],
  credential_store: 'file',
});

function writeConfig(env: NodeJS.ProcessEnv, content: unknown): string {
  const file = configFile(env);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o600 });
  return file;
}

describe('config.json, damaged', () => {
  it.each([
    ['cut off', '{"profiles": {"default": {"name": "def', /cannot be used: it is not complete JSON \(cut off, or edited by hand\)\./],
    ['empty', '', /cannot be used: it is empty\./],
    ['a list', '[]', /cannot be used: it does not hold a JSON object\./],
    ['a preset of the wrong type', { presets: { sandbox: { auth_url: 42 } } }, /cannot be used: "presets\.sandbox\.auth_url" must be text, not 42\./],
    ['profiles not an object', { profiles: 'default' }, /cannot be used: "profiles" must be an object, not "default"\./],
  ])('%s: exit 2 naming the file and what is wrong, and the file is left as it was', async (_what, content, message) => {
    const env = home();
    const file = writeConfig(env, content);
    const before = readFileSync(file, 'utf8');
    const err = await loadProfiles(env).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONFIG_INVALID', exitCode: 2, hint: expect.stringMatching(/Correct the file/) });
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(message);
    await expect(saveProfile(env, profile('other'))).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    ['a wrong type', { dpop: 'yes' }, /"dpop" must be true or false, not "yes"/],
    ['a value outside the list', { client_auth: 'password' }, /"client_auth" must be one of "none", "client_secret_basic", "private_key_jwt", not "password"/],
    ['a missing field', { client_id: undefined }, /"client_id" is missing/],
    ['a property scope that is neither "all" nor a list', { property_scope: 'some' }, /"property_scope" must be one of "all", a list, not "some"/],
  ])('a profile with %s is named with its field and the fix; the other profiles still work', async (_what, change, message) => {
    const env = home();
    writeConfig(env, { profiles: { good: profile('good'), bad: { ...profile('bad'), ...change } } });
    const err = await loadProfile(env, 'bad').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONFIG_PROFILE_INVALID', exitCode: 2, hint: expect.stringContaining('meterdata login --profile bad') });
    expect((err as Error).message).toMatch(/^The profile "bad" in .*config\.json cannot be used: /);
    expect((err as Error).message).toMatch(message);
    expect((await loadProfile(env, 'good'))?.client_id).toBe('erp_1');
    await expect(loadProfiles(env)).rejects.toMatchObject({ code: 'CONFIG_PROFILE_INVALID' });
  });

  it('keeps fields it does not know (a newer meterdata wrote them) through an update', async () => {
    const env = home();
    const file = writeConfig(env, { comment: 'by hand', profiles: { default: { ...profile('default'), color: 'blue' } } });
    expect(await loadProfile(env, 'default')).toMatchObject({ client_id: 'erp_1', color: 'blue' });
    await setProfileFields(env, 'default', { tenant_id: 't-1' });
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.comment).toBe('by hand');
    expect(after.profiles.default).toMatchObject({ color: 'blue', tenant_id: 't-1' });
  });

  it('says it in German, with no English phrase', async () => {
    const env = home();
    writeConfig(env, { profiles: { default: { ...profile('default'), scopes: 'read:units' } } });
    setLanguage('de');
    const err = (await loadProfile(env, 'default').catch((e: unknown) => e)) as Error & { hint: string };
    expect(err.message).toMatch(/^Das Profil „default“ in .*config\.json ist nicht verwendbar: „scopes“ muss eine Liste sein, nicht "read:units"\.$/);
    expect(err.hint).toMatch(/^Bitte korrigieren Sie das Feld/);
    expect(await findEnglish(`${err.message}\n${err.hint}`)).toEqual([]);
  });

  it('is one line and a hint on stderr, exit 2, no stack trace, in both languages', async () => {
    const env = home();
    writeConfig(env, '{"profiles": ');
    const en = await runCli(['status'], { env });
    expect(en.code).toBe(2);
    expect(en.stderr).toMatch(
      /^meterdata: The configuration file .*config\.json cannot be used: it is not complete JSON \(cut off, or edited by hand\)\.\n  Correct the file/,
    );
    expect(en.stderr.trim().split('\n')).toHaveLength(2);
    const de = await runCli(['status'], { env: { ...env, LANG: 'de_DE.UTF-8' } });
    expect(de.code).toBe(2);
    expect(de.stderr).toMatch(/^meterdata: Die Konfigurationsdatei .*config\.json ist nicht verwendbar: sie enthält kein vollständiges JSON/);
    expect(de.stderr).not.toMatch(/\n\s+at /);
    expect(await findEnglish(de.stderr)).toEqual([]);
  });
});

const RT = 'rt-secret-0123456789';
const record = {
  v: 1,
  refresh_token: RT,
  access_token: 'at-secret',
  access_expires_at: '2026-11-22T10:00:00.000Z',
  token_type: 'Bearer',
  updated_at: '2026-11-22T09:00:00.000Z',
};

describe('the stored sign-in, damaged', () => {
  it.each([
    ['cut off', JSON.stringify(record).slice(0, 40), /is damaged: it is not complete JSON/],
    ['without its refresh token', JSON.stringify({ ...record, refresh_token: undefined }), /is damaged: "refresh_token" is missing\./],
    ['with an empty refresh token', JSON.stringify({ ...record, refresh_token: '' }), /is damaged: "refresh_token" must be a text that is not empty\./],
    [
      'with an intent whose pid is no number',
      JSON.stringify({ ...record, refresh_intent: { at: '2026-11-22T09:00:00.000Z', pid: '4711', host: 'h' } }),
      /is damaged: "refresh_intent\.pid" must be a number\./,
    ],
    [
      'with an intent whose time is no time',
      JSON.stringify({ ...record, refresh_intent: { at: 'yesterday', pid: 4711, host: 'h' } }),
      /"refresh_intent\.at" must be a date and time/,
    ],
    ['with a token type it does not know', JSON.stringify({ ...record, token_type: 'MAC' }), /"token_type" must be one of "Bearer", "DPoP"\./],
    ['of another version', JSON.stringify({ ...record, v: 2 }), /"v" must be one of 1\./],
  ])('%s: exit 3 naming the file, the field and login; no secret quoted', async (_what, text, message) => {
    const env = home();
    const store = new FileCredentialStore(env);
    mkdirSync(path.dirname(store.fileFor('p')), { recursive: true });
    writeFileSync(store.fileFor('p'), text, { mode: 0o600 });
    const err = (await store.read('p').catch((e: unknown) => e)) as Error & { hint: string };
    expect(err).toMatchObject({ code: 'AUTH_STORE_DAMAGED', exitCode: 3 });
    expect(err.message).toContain(store.fileFor('p'));
    expect(err.message).toMatch(message);
    expect(err.hint).toBe('Run `meterdata login --profile p` to replace it (`meterdata logout --profile p` deletes it).');
    expect(`${err.message}${err.hint}`).not.toMatch(/secret|4711|MAC/);
  });

  it('keeps fields it does not know when the record is read and written back', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    mkdirSync(path.dirname(store.fileFor('p')), { recursive: true });
    writeFileSync(store.fileFor('p'), JSON.stringify({ ...record, future_field: { a: 1 } }), { mode: 0o600 });
    const rec = (await store.read('p'))!;
    await store.write('p', { ...rec, access_token: 'at-2' });
    expect(JSON.parse(readFileSync(store.fileFor('p'), 'utf8'))).toMatchObject({ refresh_token: RT, access_token: 'at-2', future_field: { a: 1 } });
  });

  it('writes a record it read back unchanged byte for byte (the key order is kept)', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    mkdirSync(path.dirname(store.fileFor('p')), { recursive: true });
    const { updated_at, ...rest } = record;
    const text = JSON.stringify({ updated_at, extra: 1, ...rest });
    writeFileSync(store.fileFor('p'), text, { mode: 0o600 });
    await store.write('p', (await store.read('p'))!);
    expect(readFileSync(store.fileFor('p'), 'utf8')).toBe(text);
  });

  it("the keychain's payload is checked the same way, and said in German", async () => {
    const entry = (): EntryLike => ({
      getPassword: async () => JSON.stringify({ ...record, dpop_jwk: { kty: 'RSA' } }),
      setPassword: async () => undefined,
      deletePassword: async () => true,
    });
    const store = new KeychainCredentialStore({}, { platform: 'linux', entry });
    await expect(store.read('default')).rejects.toMatchObject({
      code: 'AUTH_STORE_DAMAGED',
      message: 'The sign-in stored in the keychain is damaged: "dpop_jwk.kty" must be one of "EC".',
      hint: 'Run `meterdata login` to replace it (`meterdata logout` deletes it).',
    });
    setLanguage('de');
    const err = (await store.read('default').catch((e: unknown) => e)) as Error & { hint: string };
    expect(err.message).toBe('Die im Schlüsselbund gespeicherte Anmeldung ist beschädigt: „dpop_jwk.kty“ muss einer der Werte "EC" sein.');
    expect(err.hint).toBe('Führen Sie `meterdata login` aus, um sie zu ersetzen (`meterdata logout` löscht sie).');
    expect(await findEnglish(`${err.message}\n${err.hint}`)).toEqual([]);
  });
});

describe('a keychain that cannot be used', () => {
  it('says so in German, naming the file store as the way out (exit 5)', async () => {
    const entry = (): EntryLike => ({
      getPassword: async () => Promise.reject(new Error('org.freedesktop.DBus.Error.ServiceUnknown')),
      setPassword: async () => undefined,
      deletePassword: async () => true,
    });
    setLanguage('de');
    const err = (await new KeychainCredentialStore({}, { platform: 'linux', entry }).read('default').catch((e: unknown) => e)) as Error & { hint: string };
    expect(err).toMatchObject({ code: 'AUTH_KEYCHAIN_UNAVAILABLE', exitCode: 5 });
    expect(err.message).toBe(
      'Der Schlüsselbund des Systems ist gesperrt oder nicht erreichbar (Lesen der Anmeldung: org.freedesktop.DBus.Error.ServiceUnknown).',
    );
    expect(err.hint).toMatch(/^Entsperren Sie den Schlüsselbund .* `meterdata login --credential-store file` \(oder METERDATA_CREDENTIAL_STORE=file\)\.$/);
    expect(await findEnglish(`${err.message}\n${err.hint}`)).toEqual([]);
  });
});

describe('config.json and the stored sign-in replaced by what is no file of ours', () => {
  // a FIFO without a writer blocked the read forever; /dev/zero or a huge file filled the memory
  const replace = (file: string, what: 'fifo' | 'huge' | 'folder') => {
    mkdirSync(path.dirname(file), { recursive: true });
    if (what === 'fifo') execFileSync('mkfifo', [file]);
    else if (what === 'folder') mkdirSync(file);
    else writeFileSync(file, Buffer.alloc((1 << 20) + 1, 0x20));
  };
  const problem = { fifo: /it is not a plain file \(a pipe or a device\?\)/, huge: /it is larger than 1 MiB/, folder: /it is a folder/ };

  it.each(['fifo', 'huge', 'folder'] as const)(
    'config.json as a %s: exit 2 at once, naming the file and the fix',
    async (what) => {
      const env = home();
      replace(configFile(env), what);
      const r = await runCli(['status'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^meterdata: The configuration file .*config\.json cannot be used: /);
      expect(r.stderr).toMatch(problem[what]);
      expect(r.stderr.trim().split('\n')).toHaveLength(2);
      const de = await runCli(['status', '--lang', 'de'], { env });
      expect(de.stderr).toMatch(/ist nicht verwendbar: sie (ist keine gewöhnliche Datei|ist größer als 1 MiB|ist ein Ordner)/);
    },
    10_000,
  );

  it.each(['fifo', 'huge', 'folder'] as const)(
    'the stored sign-in as a %s: AUTH_STORE_DAMAGED naming the file and login',
    async (what) => {
      const env = home();
      const store = new FileCredentialStore(env);
      replace(store.fileFor('p'), what);
      const err = (await store.read('p').catch((e: unknown) => e)) as Error & { hint: string };
      expect(err).toMatchObject({ code: 'AUTH_STORE_DAMAGED', exitCode: 3 });
      expect(err.message).toContain(store.fileFor('p'));
      expect(err.message).toMatch(problem[what]);
    },
    10_000,
  );
});
