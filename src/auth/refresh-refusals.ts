// Why a record's refresh token is not sent, found from the record and the list of tokens already sent (spent-tokens.ts):
// for the refresh path, for `status` (without sending), and for a refresh answer that hands back a token sent before.
import type { StoredRecord } from './credential-store/index.js';
import type { Profile } from '../core/config.js';
import type { NotSignedInError } from '../core/errors.js';
import { refreshUncertain, stillInFlight } from './refresh-intent.js';
import { claimedInFlight, RefreshTokenSpentError, spentBy, unusedClaimOf, type SpentEntry } from './spent-tokens.js';
import { answerUnusable } from './token-exchange.js';
import { standingOver } from './claim-gate.js';
import { tokenTexts as t } from './texts-tokens.js';

/** A record marked as not to be refreshed: sent before by another profile says so; otherwise an answer was lost. */
export function markedError(env: NodeJS.ProcessEnv, rec: StoredRecord, profile: string, relogin: string): NotSignedInError {
  let entry: SpentEntry | undefined;
  try {
    entry = spentBy(env, rec.refresh_token);
  } catch {
    // a damaged list only changes which sentence is shown: the record is marked either way
  }
  // marked for a token found sent before (settledAfter dates the mark with the entry's time), by this profile too: said
  // as such, not as an answer lost (round 48 F6: a run killed between its claim and its intent)
  if (entry && (entry.profile !== profile || rec.refresh_uncertain_since === entry.at)) return new RefreshTokenSpentError(entry, profile, relogin);
  return refreshUncertain(rec.refresh_uncertain_since ?? rec.updated_at, 'lost', relogin);
}

/**
 * For `status`: why this record's next refresh will not send its token, found without sending (the
 * refresh path's order: marked, an intent, then the list); null when it can or a refresh is under way.
 */
export function unrefreshable(env: NodeJS.ProcessEnv, rec: StoredRecord, profile: string, relogin: string): NotSignedInError | null {
  if (rec.refresh_uncertain_since) return markedError(env, rec, profile, relogin);
  if (rec.refresh_intent) {
    // A live refresh's intent follows its own claim in the list: it is no copy's.
    if (stillInFlight(rec.refresh_intent)) return null;
    // Left by a process that died between intent and settle: the next refresh refuses the record (exit 3).
    return refreshUncertain(rec.refresh_intent.at, 'abandoned', relogin);
  }
  const entry = spentBy(env, rec.refresh_token);
  // this profile's claim turned away unused: what would stand against its takeover (session 26: a takeover killed
  // between its change marker and its write leaves a claim the refresh refuses, and status said it would work)
  const standing = entry && unusedClaimOf(entry, rec, profile) ? standingOver(env, entry.h, entry.c!) : entry;
  // claimed by a refresh on its way, its intent not yet written: under way
  return standing && !claimedInFlight(standing, profile) ? new RefreshTokenSpentError(standing, profile, relogin) : null;
}

/**
 * The record a refresh answer makes, unless its new refresh token is one the spent list names: every refresh issues
 * a new token, and one sent before (the server gave back an older token of this connection) would be refused by
 * the next run as a backup's (round 26). Thrown as the answer unusable: the record is marked, exit 3.
 */
export function notSpentBefore(env: NodeJS.ProcessEnv, next: StoredRecord, profile: Profile): StoredRecord {
  const before = spentBy(env, next.refresh_token);
  if (before) throw answerUnusable(undefined, profile, 200, t.spentGivenBack({ at: before.at }));
  return next;
}
