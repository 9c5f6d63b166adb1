// `meterdata logout`: revoke at the server (RFC 7009, with client authentication), then
// delete the local record. Says what happened even when the server could not be reached.
import { loadProfile, removeProfileFields, resolveProfileName } from '../../core/config.js';
import { clientAuthFor, clientSecretFrom } from '../../auth/client-auth.js';
import { describeError, discover } from '../../auth/discovery.js';
import { revocationUnsure, revokeToken } from '../../auth/token-exchange.js';
import { otherHolder } from '../../auth/shared-record.js';
import { tokenTexts as tt } from '../../auth/texts-tokens.js';
import { isUnreadableRecord, type CredentialStore, type StoredRecord } from '../../auth/credential-store/types.js';
import { withRefreshLock } from '../../auth/lock.js';
import { unlessAborted, stoppedBy } from '../../core/abort.js';
import { InterruptedError, MeterdataError, NotSignedInError } from '../../core/errors.js';
import { refusalWords } from '../../core/disk.js';
import type { Profile } from '../../core/config.js';
import { logoutTexts as t } from '../texts-auth.js';
import type { CommandContext } from '../context.js';
import type { LogoutFlags } from './index.js';

const CONNECTION_FACTS: (keyof Profile)[] = [
  'tenant_id',
  'tenant_name',
  'client_id_seen',
  'granted_scopes',
  'property_scope',
  'property_names',
  'last_refresh_at',
  'access_expires_at',
];

export async function run(opts: LogoutFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const name = resolveProfileName(opts, io.env);
  const profile = await loadProfile(io.env, name);
  if (!profile) {
    io.stderr.write(`${t.noProfile({ profile: name })}\n`);
    return 0;
  }
  const store = await ctx.store(profile.credential_store);
  // Under the refresh lock: a refresh of this profile in another process (waiting out a 429, its answer on the way)
  // ends first, and the record it leaves is the one revoked and deleted; none is written back after the logout (round 27).
  return withRefreshLock(io.env, name, () => signOut(opts, ctx, profile, store), io.signal);
}

async function signOut(opts: LogoutFlags, { io }: CommandContext, profile: Profile, store: CredentialStore): Promise<number> {
  const { name } = profile;
  let record: StoredRecord | null;
  try {
    record = await store.read(name);
  } catch (e) {
    // A damaged record holds no usable token to revoke, but logout must still be able to clear it.
    if (!(e instanceof MeterdataError && e.code === 'AUTH_STORE_DAMAGED')) throw e;
    // Another user's record (a `sudo meterdata login`) may hold a live connection: deleted unrevoked only when asked (round 27).
    if (isUnreadableRecord(e) && !opts.localOnly) throw notSignedOutUnreadable(e, name);
    await store.remove(name);
    await forgetFacts(io, name);
    io.stderr.write(`${(isUnreadableRecord(e) ? t.unreadableDeleted : t.damaged)({ profile: name, where: t[store.kind] })}\n`);
    return 0;
  }
  if (!record) {
    io.stderr.write(`${t.notSignedIn({ profile: name })}\n`);
    return 0;
  }
  // a copied record's token is another profile's connection too: not ours to end
  const other = opts.localOnly
    ? null
    : await otherHolder(io.env, record.refresh_token, name, io.signal).catch((e: unknown) =>
        Promise.reject(stoppedBy(e, io.signal) ? stopped(name, false) : e),
      );
  let revoked: string;
  if (opts.localOnly) {
    revoked = t.localOnly;
  } else if (other !== null) {
    revoked = t.notRevoked({ reason: tt.sharedConnection({ profile: other }) });
  } else {
    let sending = false;
    try {
      // Ctrl-C ends the wait (up to 30 s for an answer), not the request (round 35b F2: a first one went unheard)
      const secret = clientSecretFrom(io.env, record.client_secret);
      const config = await unlessAborted(async () => discover(profile, await clientAuthFor(profile, secret)), io.signal);
      await unlessAborted(() => {
        sending = true;
        return revokeToken(config, record.refresh_token);
      }, io.signal);
      revoked = t.revoked;
    } catch (e) {
      if (stoppedBy(e, io.signal)) throw stopped(name, sending);
      const unsure = revocationUnsure(e);
      revoked = unsure ? t.perhapsRevoked(unsure) : t.notRevoked({ reason: describeError(e) });
    }
  }
  await store.remove(name);
  await forgetFacts(io, name);
  io.stderr.write(`${t.signedOut({ profile: name, revoked, where: t[store.kind] })}\n`);
  return 0;
}

/**
 * The profile's connection facts out of config.json, after the sign-out: a file that will not take the change (full,
 * locked, a disk refusing it) is a warning, not a failure of a sign-out that happened (round 41 M2: "The settings
 * were not changed", exit 2, after the revocation). Facts left there are not shown for a profile not signed in.
 */
async function forgetFacts(io: CommandContext['io'], name: string): Promise<void> {
  // stopped during the wait for config.json's lock: said as the stop, not as a refusal of the file (round 58 T3)
  const kept = (e: unknown) => (io.signal.aborted ? t.factsStopped : t.factsKept({ reason: refusalWords(e) }));
  await removeProfileFields(io.env, name, CONNECTION_FACTS, io.signal).catch((e: unknown) => io.stderr.write(`${kept(e)}\n`));
}

/** The sign-out stopped while the server's answer was awaited: the record is kept, as the outcome is unknown or nothing was sent. */
function stopped(profile: string, sending: boolean): InterruptedError {
  const logout = logoutCommand(profile);
  // before the revocation was sent (round 36b F5: a hanging discovery was told "may already be revoked")
  return sending
    ? new InterruptedError(t.stopped({ profile }), { hint: t.stoppedHint({ logout }) })
    : new InterruptedError(t.stoppedBeforeSending({ profile }), { hint: t.stoppedBeforeSendingHint({ logout }) });
}

/** The logout command for this profile, as a hint names it. */
const logoutCommand = (profile: string) => `meterdata logout${profile !== 'default' ? ` --profile ${profile}` : ''}`;

function notSignedOutUnreadable(e: MeterdataError, profile: string): NotSignedInError {
  return new NotSignedInError(t.unreadable({ profile, problem: e.message }), {
    code: 'AUTH_STORE_DAMAGED',
    hint: t.unreadableHint({ logout: logoutCommand(profile) }),
  });
}
