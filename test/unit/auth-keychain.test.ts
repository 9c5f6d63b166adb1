// The keychain store against a real Secret Service (gnome-keyring on a private D-Bus).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKeyringTools, requireKeyringTools, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { KeychainCredentialStore, KeychainUnavailableError } from '../../src/auth/credential-store/keychain.js';
import type { StoredRecord } from '../../src/auth/credential-store/types.js';

const record = (rt: string): StoredRecord => ({ v: 1, refresh_token: rt, access_token: `at-${rt}`, updated_at: new Date().toISOString() });

describe('keychain credential store', () => {
  let ks: KeyringSession | undefined;
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
  beforeAll(async () => {
    if (hasKeyringTools()) {
      ks = await startKeyringSession();
      // the native module reads the bus address from this process's environment
      process.env.DBUS_SESSION_BUS_ADDRESS = ks.env.DBUS_SESSION_BUS_ADDRESS;
    }
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    await ks?.stop();
  });

  it('writes, reads and deletes a record in the Secret Service', async (ctx) => {
    requireKeyringTools(ctx, 'the keychain store is tested against a real Secret Service');
    const store = new KeychainCredentialStore({ METERDATA_HOME: '/tmp/md-unit-home' });
    expect(await store.read('default')).toBeNull();
    await store.write('default', record('rt-one'));
    expect((await store.read('default'))?.refresh_token).toBe('rt-one');
    // visible to other Secret Service clients under service/account attributes
    const found = ks!.secretTool(['lookup', 'service', 'meterdata', 'username', 'default@/tmp/md-unit-home']);
    expect(JSON.parse(found).refresh_token).toBe('rt-one');
    await store.write('default', record('rt-two'));
    expect((await store.read('default'))?.refresh_token).toBe('rt-two');
    expect(await store.remove('default')).toBe(true);
    expect(await store.remove('default')).toBe(false);
    expect(await store.read('default')).toBeNull();
  });
});

describe('keychain call timeout', () => {
  class Probe extends KeychainCredentialStore {
    run<T>(op: (signal: AbortSignal) => Promise<T>) {
      return this.call('read', op);
    }
  }

  it('a keychain that never answers ends as "locked or unavailable" (exit 5) after the timeout, and the call is aborted', async () => {
    const store = new Probe({ METERDATA_KEYCHAIN_TIMEOUT_MS: '50' });
    let aborted = false;
    const err = await store.run((signal) => new Promise<never>(() => signal.addEventListener('abort', () => (aborted = true)))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as Error).message).toMatch(/no answer within 50 ms while trying to read the sign-in/);
    expect((err as KeychainUnavailableError).exitCode).toBe(5);
    expect(aborted).toBe(true);
  });

  it('a failing keychain call is reported as unavailable, never as "not signed in"', async () => {
    const store = new Probe({});
    const err = await store.run(() => Promise.reject(new Error('Platform secure storage failure: locked collection'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as Error).message).toMatch(/locked collection/);
    expect((err as KeychainUnavailableError).hint).toMatch(/--credential-store file/);
  });
});
