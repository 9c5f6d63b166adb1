import type { CredentialStoreKind } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';
import { FileCredentialStore } from './file.js';
import { KeychainCredentialStore } from './keychain.js';
import type { CredentialStore } from './types.js';
import { storeTexts as t } from './texts.js';

export type { CredentialStore, StoredRecord } from './types.js';

export function openStore(kind: CredentialStoreKind, env: NodeJS.ProcessEnv): CredentialStore {
  return kind === 'file' ? new FileCredentialStore(env) : new KeychainCredentialStore(env);
}

/** --credential-store, else METERDATA_CREDENTIAL_STORE, else the profile's, else the keychain. */
export function chooseStoreKind(flag: unknown, env: NodeJS.ProcessEnv, fallback?: CredentialStoreKind): CredentialStoreKind {
  const value = (typeof flag === 'string' && flag) || env.METERDATA_CREDENTIAL_STORE || fallback || 'keychain';
  if (value !== 'keychain' && value !== 'file') {
    throw new UsageError(t.unknownStore({ value }), t.unknownStoreHint, 'USAGE_CREDENTIAL_STORE');
  }
  return value;
}
