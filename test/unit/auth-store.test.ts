// Profiles, the file credential store, the refresh lock and single-flight.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/core/atomic-file.js';
import { loadProfiles, resolveProfileName, saveProfile } from '../../src/core/config.js';
import { FileCredentialStore } from '../../src/auth/credential-store/file.js';
import { chooseStoreKind } from '../../src/auth/credential-store/index.js';
import { SingleFlight, withRefreshLock } from '../../src/auth/lock.js';
import { aProfile } from '../helpers/profile.js';

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-store-')) });
const profile = aProfile;

describe('profiles', () => {
  it('resolves the name from --profile, METERDATA_PROFILE, then "default", and refuses odd names', () => {
    expect(resolveProfileName({}, {})).toBe('default');
    expect(resolveProfileName({}, { METERDATA_PROFILE: 'acme' })).toBe('acme');
    expect(resolveProfileName({ profile: 'b' }, { METERDATA_PROFILE: 'acme' })).toBe('b');
    expect(() => resolveProfileName({ profile: '../x' }, {})).toThrow(/not a valid profile name/);
    // Windows drops a trailing dot from a folder's name: a portfolio's <out>/alpha. would be <out>/alpha
    expect(() => resolveProfileName({ profile: 'alpha.' }, {})).toThrow(/not a valid profile name/);
    expect(() => resolveProfileName({ profile: 'a..' }, {})).toThrow(/not a valid profile name/);
    expect(resolveProfileName({ profile: 'alpha.nord' }, {})).toBe('alpha.nord');
    expect(resolveProfileName({ profile: 'a' }, {})).toBe('a');
    expect(resolveProfileName({ profile: 'x'.repeat(64) }, {})).toBe('x'.repeat(64));
    expect(() => resolveProfileName({ profile: 'x'.repeat(65) }, {})).toThrow(/not a valid profile name/);
  });

  it('saves profiles side by side, even from concurrent writers', async () => {
    const env = home();
    await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => saveProfile(env, profile(n))));
    expect(Object.keys(await loadProfiles(env)).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    const file = path.join(env.METERDATA_HOME, 'config', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reports a damaged config file as a usage error naming the file', async () => {
    const env = home();
    mkdirSync(path.join(env.METERDATA_HOME, 'config'), { recursive: true });
    writeFileSync(path.join(env.METERDATA_HOME, 'config', 'config.json'), '{oops');
    await expect(loadProfiles(env)).rejects.toThrow(/config\.json cannot be used: it is not complete JSON/);
  });

  it('chooses the store: flag, then METERDATA_CREDENTIAL_STORE, then the profile, then keychain', () => {
    expect(chooseStoreKind(undefined, {})).toBe('keychain');
    expect(chooseStoreKind(undefined, {}, 'file')).toBe('file');
    expect(chooseStoreKind(undefined, { METERDATA_CREDENTIAL_STORE: 'file' }, 'keychain')).toBe('file');
    expect(chooseStoreKind('keychain', { METERDATA_CREDENTIAL_STORE: 'file' })).toBe('keychain');
    expect(() => chooseStoreKind(undefined, { METERDATA_CREDENTIAL_STORE: 'plain' })).toThrow(/Unknown credential store/);
  });
});

describe('file credential store', () => {
  it('keeps the record in a 0600 file and deletes it', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    expect(await store.read('p')).toBeNull();
    await store.write('p', { v: 1, refresh_token: 'rt-1', updated_at: 'now' });
    const file = store.fileFor('p');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect((await store.read('p'))?.refresh_token).toBe('rt-1');
    expect(store.describe('p')).toMatch(/mode 0600/);
    expect(await store.remove('p')).toBe(true);
    expect(await store.remove('p')).toBe(false);
  });

  it('replaces the record atomically: concurrent readers only ever see a whole record', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    const big = 'x'.repeat(200_000);
    await store.write('p', { v: 1, refresh_token: 'rt-0', access_token: big, updated_at: '0' });
    const seen = new Set<string>();
    const writers = Array.from({ length: 30 }, (_, i) => store.write('p', { v: 1, refresh_token: `rt-${i + 1}`, access_token: big, updated_at: String(i) }));
    const readers = Array.from({ length: 60 }, async () => seen.add((await store.read('p'))!.refresh_token));
    await Promise.all([...writers, ...readers]);
    for (const rt of seen) expect(rt).toMatch(/^rt-\d+$/);
    expect(readdirSync(path.dirname(store.fileFor('p'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(readFileSync(store.fileFor('p'), 'utf8')).refresh_token).toMatch(/^rt-\d+$/);
  });

  it('names a damaged record and the command that replaces it', async () => {
    const env = home();
    const store = new FileCredentialStore(env);
    await store.write('p', { v: 1, refresh_token: 'rt', updated_at: 'x' });
    await writeFileAtomic(store.fileFor('p'), '{"half":', { mode: 0o600 });
    await expect(store.read('p')).rejects.toMatchObject({
      code: 'AUTH_STORE_DAMAGED',
      exitCode: 3,
      hint: expect.stringMatching(/meterdata login --profile p/),
    });
  });
});

describe('refresh lock and single-flight', () => {
  it('serialises holders of the same profile lock', async () => {
    const env = home();
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        withRefreshLock(env, 'p', async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setTimeout(r, 20));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
  });

  it('shares one run between concurrent callers of the same key', async () => {
    const sf = new SingleFlight<number>();
    let calls = 0;
    const fn = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return calls;
    };
    const results = await Promise.all([sf.run('k', fn), sf.run('k', fn), sf.run('k', fn)]);
    expect(results).toEqual([1, 1, 1]);
    expect(await sf.run('k', fn)).toBe(2);
  });
});
