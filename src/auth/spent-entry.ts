// One entry of the list of refresh tokens already sent (spent-tokens.ts), also the content of a claim's gate
// (claim-gate.ts).
import * as v from 'valibot';

export interface SpentEntry {
  /** SHA-256 of the refresh token, hex. */
  h: string;
  /** When the refresh was about to be sent (the intent's time). */
  at: string;
  /** The profile that sent it. */
  profile: string;
  /** This claim's own id (new for every claim): a record may name it as turned away unused (`refresh_claim_unused`). */
  c?: string;
  /** The claiming process and its machine: a claim of a process still running may be a refresh on its way (claimedInFlight). */
  pid?: number;
  host?: string;
  /** Where that pid means that process (core/pid.ts PID_SPACE_TAG); none in the claims of earlier versions. */
  ns?: string;
}

export const EntrySchema = v.looseObject({
  h: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  at: v.pipe(v.string(), v.isoTimestamp()),
  profile: v.string(),
  c: v.optional(v.string()),
  pid: v.optional(v.number()),
  host: v.optional(v.string()),
  ns: v.optional(v.string()),
});
