import type { JWK } from 'jose';

/** What the credential store keeps for one profile. Every field is a secret or sits next to one. */
export interface StoredRecord {
  v: 1;
  refresh_token: string;
  /** Cached so that parallel processes share one refresh. */
  access_token?: string;
  /** ISO date-time, local clock. */
  access_expires_at?: string;
  token_type?: 'Bearer' | 'DPoP';
  /** Private ES256 key the tokens are bound to (DPoP connections only). */
  dpop_jwk?: JWK;
  /** client_secret_basic only, when it came from stdin or the environment at login. */
  client_secret?: string;
  scope?: string;
  /** Set when a refresh request was sent and its answer was lost: the refresh token may be rotated. */
  refresh_uncertain_since?: string;
  /** Written (durably) before a refresh request is sent, removed with its outcome (src/auth/refresh-intent.ts). */
  refresh_intent?: { at: string; pid: number; host: string };
  updated_at: string;
}

export interface CredentialStore {
  readonly kind: 'keychain' | 'file';
  /** Where the record lives, for `status` (never the secret itself). */
  describe(profile: string): string;
  read(profile: string): Promise<StoredRecord | null>;
  /** Resolves only once the record is durable. */
  write(profile: string, record: StoredRecord): Promise<void>;
  /** True when a record was deleted, false when there was none. */
  remove(profile: string): Promise<boolean>;
}

export function parseRecord(text: string, where: string): StoredRecord {
  const rec = JSON.parse(text) as StoredRecord;
  if (typeof rec !== 'object' || rec === null || typeof rec.refresh_token !== 'string') {
    throw new Error(`the stored sign-in in ${where} is damaged`);
  }
  return rec;
}
