// Before a refresh token is revoked (logout, or a login replacing a connection): is it another
// profile's connection too? A sign-in record copied to a second profile holds that profile's
// refresh token (or one it has since rotated), and revoking it ends the connection the other
// profile still uses: RFC 7009 revocation of a refresh token ends its whole token family.
import { loadableProfiles } from '../core/config.js';
import { openStore } from './credential-store/index.js';
import type { StoredRecord } from './credential-store/index.js';
import type { Profile } from '../core/config.js';
import { spentBy } from './spent-tokens.js';
import { notSpentBefore } from './refresh-refusals.js';
import { answerUnusable } from './token-exchange.js';
import { tokenTexts as t } from './texts-tokens.js';

/**
 * The other profile whose connection `token` belongs to, if any: the one that sent it (the list
 * of refresh tokens already sent), or one whose record holds it now. `?` when that cannot be told
 * (the list is damaged): revoking is then left out, since leaving a connection to expire costs
 * less than ending one in use.
 */
export async function otherHolder(env: NodeJS.ProcessEnv, token: string, profile: string, signal?: AbortSignal): Promise<string | null> {
  let sender: string | undefined;
  try {
    sender = spentBy(env, token)?.profile;
  } catch {
    return '?';
  }
  if (sender !== undefined && sender !== profile) return sender;
  // a profile or record that cannot be read holds nothing we can compare
  const others = (await loadableProfiles(env).catch(() => [])).filter((p) => p.name !== profile);
  for (const other of others) {
    signal?.throwIfAborted(); // many profiles, or a store that blocks: Ctrl-C is heard between them (round 37b F1)
    const rec = await openStore(other.credential_store, env)
      .read(other.name)
      .catch(() => null);
    if (rec?.refresh_token === token) return other.name;
  }
  return null;
}

/**
 * The record a refresh answer makes, unless its new refresh token was sent before (notSpentBefore) or is the one another profile's record holds now: the
 * server handed out another connection's token, and sending it would run this profile on that connection and end
 * the other profile's sign-in, blamed on a copy (round 27). Thrown as the answer unusable: the record is marked, exit 3.
 */
export async function notHeldElsewhere(env: NodeJS.ProcessEnv, next: StoredRecord, profile: Profile): Promise<StoredRecord> {
  notSpentBefore(env, next, profile);
  const holder = await otherHolder(env, next.refresh_token, profile.name);
  if (holder !== null && holder !== '?') throw answerUnusable(undefined, profile, 200, t.heldByOther({ profile: holder }));
  return next;
}
