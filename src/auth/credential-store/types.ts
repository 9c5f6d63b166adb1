import type { JWK } from 'jose';
import * as v from 'valibot';
import { checkJson, type Checked } from '../../core/file-schema.js';
import { NotSignedInError } from '../../core/errors.js';
import { storeTexts as t } from './texts.js';

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
  /** `ns`: where that pid means that process (core/pid.ts PID_SPACE_TAG); none in the records of earlier versions. */
  refresh_intent?: { at: string; pid: number; host: string; ns?: string };
  /**
   * When this profile's last refreshes were sent, by any process (ISO times, at most 6; src/auth/refresh-budget.ts).
   * Read leniently: a list meterdata cannot read only restarts the count, it never costs the sign-in.
   */
  refreshes_sent?: unknown;
  /**
   * The id of this profile's claim in the spent list (src/auth/spent-tokens.ts) whose token was turned away unused (a
   * 429) but which could not be given back (the list's lock held by a stuck process): the next refresh takes that
   * claim over instead of refusing its own never-sent token.
   */
  refresh_claim_unused?: string;
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

const text = v.string();
const filled = v.pipe(v.string(), v.nonEmpty());
const moment = v.pipe(v.string(), v.isoTimestamp());

/**
 * The record as it must be read back. Strict where a wrong value would send a wrong request
 * or misjudge a refresh (the tokens, the DPoP key, the intent: a pid that is no number would
 * be taken for a dead process); any text where the value is only shown or recomputed (the
 * dates of the access token and the record). Fields a newer meterdata may add are kept, so
 * writing the record back does not drop them.
 */
export const RecordSchema = v.looseObject({
  v: v.literal(1),
  refresh_token: filled,
  access_token: v.optional(text),
  access_expires_at: v.optional(text),
  token_type: v.optional(v.picklist(['Bearer', 'DPoP'])),
  dpop_jwk: v.optional(v.looseObject({ kty: v.literal('EC'), crv: v.literal('P-256'), x: filled, y: filled, d: filled })),
  client_secret: v.optional(text),
  scope: v.optional(text),
  refresh_uncertain_since: v.optional(text),
  // pid 0 and -1 are no process: kill(0|-1, 0) signals a group and succeeds, which read as a refresh in flight.
  refresh_intent: v.optional(v.looseObject({ at: moment, pid: v.pipe(v.number(), v.safeInteger(), v.minValue(1)), host: text, ns: v.optional(text) })),
  refreshes_sent: v.optional(v.unknown()),
  refresh_claim_unused: v.optional(text),
  updated_at: text,
});

/** The record, or what is wrong with it (in the run's language; never a value from it: they are secrets). */
export function parseRecord(text: string): Checked<StoredRecord> {
  return checkJson(RecordSchema, text, { secret: true });
}

const unreadableRecords = new WeakSet<Error>();

/** A record this user may not read (another user's): it may hold a live connection, so logout does not just delete it. */
export const isUnreadableRecord = (e: unknown): boolean => e instanceof Error && unreadableRecords.has(e);

/** Exit 3: the record holds no sign-in this run can use; login replaces it (nothing else writes over it). */
export function damagedRecord(message: string, profile: string, unreadable = false): NotSignedInError {
  const flag = profile !== 'default' ? ` --profile ${profile}` : '';
  const login = `meterdata login${flag}`;
  const e = new NotSignedInError(message, {
    code: 'AUTH_STORE_DAMAGED',
    // another user's record (a `sudo meterdata login`) is not damaged: it is given back, or replaced as this user (round 26)
    hint: unreadable ? t.unreadableHint({ login }) : t.damagedHint({ login, logout: `meterdata logout${flag}` }),
  });
  if (unreadable) unreadableRecords.add(e);
  return e;
}
