// The Windows code paths, run on any machine with the platform injected: the folders
// under %APPDATA%/%LOCALAPPDATA%, the Credential Manager's name, and replacing files on
// a file system that refuses to rename over a file another program holds open (Excel).
import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeychainCredentialStore, type EntryLike } from '../../src/auth/credential-store/keychain.js';
import type { StoredRecord } from '../../src/auth/credential-store/types.js';
import { ExitCode } from '../../src/core/errors.js';
import { dirs } from '../../src/core/paths.js';
import { checkReplaceable, FileInUseError, IN_USE_WAITS_MS, renameReplacing, type ReplaceDeps } from '../../src/core/replace.js';
import { AtomicOutput } from '../../src/export/folder/atomic.js';
import { materialize, nativeModulePath } from '../../src/sea/native.js';

const errno = (code: string) => Object.assign(new Error(`${code}: operation not permitted`), { code });

/** A fake rename that fails with `codes` in turn, then succeeds; records the waits. */
function flaky(codes: string[]) {
  const calls: [string, string][] = [];
  const waits: number[] = [];
  const deps: ReplaceDeps = {
    platform: 'win32',
    rename: async (a, b) => {
      calls.push([a, b]);
      const code = codes.shift();
      if (code) throw errno(code);
    },
    sleep: async (ms) => void waits.push(ms),
  };
  return { deps, calls, waits };
}

describe('folders on Windows', () => {
  it('config under %APPDATA%, state and cache under %LOCALAPPDATA%', () => {
    expect(dirs({ APPDATA: 'C:\\Users\\k\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\k\\AppData\\Local', HOME: '/h' }, 'win32')).toEqual({
      config: path.join('C:\\Users\\k\\AppData\\Roaming', 'meterdata'),
      state: path.join('C:\\Users\\k\\AppData\\Local', 'meterdata', 'state'),
      cache: path.join('C:\\Users\\k\\AppData\\Local', 'meterdata', 'cache'),
    });
  });

  it('an empty %APPDATA% or %LOCALAPPDATA% counts as unset (never the working folder)', () => {
    expect(dirs({ APPDATA: '', LOCALAPPDATA: '', HOME: '/home/k' }, 'win32')).toEqual({
      config: path.join('/home/k', 'AppData', 'Roaming', 'meterdata'),
      state: path.join('/home/k', 'AppData', 'Local', 'meterdata', 'state'),
      cache: path.join('/home/k', 'AppData', 'Local', 'meterdata', 'cache'),
    });
  });
});

describe('the keychain on Windows', () => {
  it('is described as the Windows Credential Manager (status names where the sign-in is)', () => {
    const env = { METERDATA_HOME: 'C:\\md' };
    expect(new KeychainCredentialStore(env, { platform: 'win32' }).describe('default')).toBe(
      'system keychain (Windows Credential Manager), service "meterdata", account "default@C:\\md"',
    );
    expect(new KeychainCredentialStore(env, { platform: 'linux' }).describe('default')).toMatch(/\(Secret Service\)/);
    expect(new KeychainCredentialStore(env, { platform: 'darwin' }).describe('default')).toMatch(/\(macOS Keychain\)/);
  });
});

/** An in-memory Windows Credential Manager: like the real one, it refuses a credential over 1280 characters. */
function credentialManager() {
  const store = new Map<string, string>();
  const entry = (account: string): EntryLike => ({
    getPassword: async () => store.get(account) ?? null,
    setPassword: async (text: string) => {
      if (text.length > 1280) throw new Error('Attribute password is longer than platform limit of 2560 bytes');
      store.set(account, text);
    },
    deletePassword: async () => store.delete(account),
  });
  return { store, entry };
}

const longRecord = (rt: string): StoredRecord => ({
  v: 1,
  refresh_token: rt,
  access_token: `eyJ${'a'.repeat(1800)}.${'b'.repeat(400)}`, // a JWT access token
  token_type: 'DPoP',
  dpop_jwk: { kty: 'EC', crv: 'P-256', x: 'x'.repeat(43), y: 'y'.repeat(43), d: 'd'.repeat(43) },
  updated_at: '2026-11-22T10:00:00.000Z',
});

describe('a long sign-in record in the Windows Credential Manager', () => {
  const env = { METERDATA_HOME: 'C:\\md' };

  it('is kept in parts within the 1280-character limit and read back whole; a new record replaces the old parts', async () => {
    const cm = credentialManager();
    const store = new KeychainCredentialStore(env, { platform: 'win32', entry: cm.entry });
    const first = longRecord('rt-one');
    expect(JSON.stringify(first).length).toBeGreaterThan(2000);
    await store.write('default', first);
    expect(await store.read('default')).toEqual(first);
    expect([...cm.store.values()].every((v) => v.length <= 1280)).toBe(true);
    expect(cm.store.size).toBeGreaterThan(2);
    await store.write('default', longRecord('rt-two'));
    expect((await store.read('default'))?.refresh_token).toBe('rt-two');
    const parts = [...cm.store.keys()].filter((k) => k !== 'default@C:\\md');
    expect(parts.length).toBe(Math.ceil(JSON.stringify(longRecord('rt-two')).length / 1200)); // none of the first record's left
    // a short record is one entry again, and no part is left behind
    await store.write('default', { v: 1, refresh_token: 'rt-3', updated_at: '2026-11-22T10:00:00.000Z' });
    expect([...cm.store.keys()]).toEqual(['default@C:\\md']);
    await store.write('default', longRecord('rt-four'));
    expect(await store.remove('default')).toBe(true);
    expect(cm.store.size).toBe(0);
    expect(await store.read('default')).toBeNull();
  });

  it('a part that went missing makes the record damaged (sign in again), never a wrong token', async () => {
    const cm = credentialManager();
    const store = new KeychainCredentialStore(env, { platform: 'win32', entry: cm.entry });
    await store.write('default', longRecord('rt-one'));
    cm.store.delete([...cm.store.keys()].find((k) => k.endsWith('.1'))!);
    await expect(store.read('default')).rejects.toMatchObject({ code: 'AUTH_STORE_DAMAGED', exitCode: ExitCode.NOT_SIGNED_IN });
  });

  it('on other platforms the record stays one entry', async () => {
    const cm = credentialManager();
    const unlimited = (account: string): EntryLike => ({ ...cm.entry(account), setPassword: async (t: string) => void cm.store.set(account, t) });
    const store = new KeychainCredentialStore(env, { platform: 'linux', entry: unlimited });
    await store.write('default', longRecord('rt-one'));
    expect([...cm.store.keys()]).toEqual(['default@C:\\md']);
  });
});

describe('replacing a file another program holds open', () => {
  it('Windows: a rename refused while the target is open is retried until it goes through', async () => {
    const f = flaky(['EPERM', 'EBUSY', 'EACCES']);
    await renameReplacing('a.tmp', 'a', f.deps);
    expect(f.calls).toHaveLength(4);
    expect(f.waits).toEqual(IN_USE_WAITS_MS.slice(0, 3));
  });

  it('Windows: a target that stays open ends in one error naming the file and the fix, after a bounded wait', async () => {
    const f = flaky(Array(100).fill('EPERM'));
    const e = await renameReplacing('x.partial', 'C:\\out\\billing.xlsx', f.deps).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FileInUseError);
    expect((e as FileInUseError).message).toBe('Cannot replace C:\\out\\billing.xlsx: another program has it open.');
    expect((e as FileInUseError).hint).toMatch(/^Close .*billing\.xlsx \(in Excel or wherever it is open\) and run the same command again\.$/);
    expect((e as FileInUseError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(f.calls).toHaveLength(IN_USE_WAITS_MS.length + 1);
    expect(f.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(7000);
  });

  it('Windows: other errors (a missing source) are not retried', async () => {
    const f = flaky(['ENOENT']);
    await expect(renameReplacing('gone', 'a', f.deps)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(f.calls).toHaveLength(1);
  });

  it('elsewhere a rename replaces an open file, so an error passes through at once', async () => {
    const f = flaky(['EPERM']);
    await expect(renameReplacing('a.tmp', 'a', { ...f.deps, platform: 'linux' })).rejects.toMatchObject({ code: 'EPERM' });
    expect(f.waits).toEqual([]);
  });

  it('Windows: checkReplaceable passes missing files and refuses one that stays open', async () => {
    const open = new Set(['C:\\out\\billing.xlsx']);
    const deps: ReplaceDeps = {
      platform: 'win32',
      openForWrite: async (file) => {
        if (open.has(file)) throw errno('EBUSY');
        throw errno('ENOENT');
      },
      sleep: async () => undefined,
    };
    await checkReplaceable(['C:\\out\\billing.csv'], deps);
    await expect(checkReplaceable(['C:\\out\\billing.csv', 'C:\\out\\billing.xlsx'], deps)).rejects.toBeInstanceOf(FileInUseError);
  });

  it('Windows: an export whose billing.xlsx is open in Excel replaces none of the previous files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-win-commit-'));
    for (const n of ['billing.csv', 'billing.xlsx', 'meterdata-manifest.json']) await writeFile(path.join(dir, n), `old ${n}`);
    const inExcel = path.join(dir, 'billing.xlsx');
    const out = new AtomicOutput(dir, {
      platform: 'win32',
      openForWrite: async (file) => {
        if (file === inExcel) throw errno('EBUSY');
      },
      sleep: async () => undefined,
    });
    for (const n of ['billing.csv', 'billing.xlsx', 'meterdata-manifest.json']) {
      const f = await out.create(n);
      await f.write(`new ${n}`);
      await out.closeFile(f);
    }
    await expect(out.commit('meterdata-manifest.json')).rejects.toBeInstanceOf(FileInUseError);
    for (const n of ['billing.csv', 'billing.xlsx', 'meterdata-manifest.json']) expect(await readFile(path.join(dir, n), 'utf8')).toBe(`old ${n}`);
    await out.abort();
    expect((await readdir(dir)).sort()).toEqual(['billing.csv', 'billing.xlsx', 'meterdata-manifest.json']);
  });
});

describe("the single executable's native module file", () => {
  const bytes = new Uint8Array(Buffer.from('\x7fELF fake native module'));

  it('is named after its content, per platform, in the cache folder', () => {
    const p = nativeModulePath('keyring', bytes, 'C:\\cache', 'win32');
    expect(path.dirname(p)).toBe(path.join('C:\\cache', 'native'));
    expect(path.basename(p)).toMatch(/^keyring-win32-[0-9a-f]{16}\.node$/);
    expect(nativeModulePath('keyring', new Uint8Array([1]), 'C:\\cache', 'win32')).not.toBe(p);
  });

  it('is written once, kept while identical, and replaced when anything else is under its name', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-native-'));
    const file = nativeModulePath('keyring', bytes, dir, 'linux');
    materialize(bytes, file);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    const first = statSync(file);
    materialize(bytes, file);
    expect(statSync(file).ino).toBe(first.ino); // identical: not rewritten (a loaded DLL cannot be replaced on Windows)
    writeFileSync(file, 'planted');
    materialize(bytes, file);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o700);
  });

  it('a FIFO planted under its name is replaced at once, never read (its reader would wait for a writer)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-native-'));
    const file = nativeModulePath('keyring', bytes, dir, 'linux');
    mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
    materialize(bytes, file);
    expect(statSync(file).isFile()).toBe(true);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  }, 10_000);
});
