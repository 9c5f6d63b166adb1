// The browser sign-in: discovery → loopback server → authorize URL (printed, browser
// opened) → one callback (or a pasted URL) → checks → code redemption → durable store →
// /whoami reconciliation.
import { assertRoomFor, loadProfile, saveProfile, type Profile } from '../core/config.js';
import { InterruptedError, MeterdataError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { terminalSafe } from '../core/terminal-text.js';
import { checkCallback, buildAuthorizationRequest } from './authorize.js';
import { openBrowser } from './browser.js';
import { clientAuthFor } from './client-auth.js';
import { openStore, type CredentialStore } from './credential-store/index.js';
import type { StoredRecord } from './credential-store/types.js';
import { FileCredentialStore } from './credential-store/file.js';
import { KeychainCredentialStore } from './credential-store/keychain.js';
import { assertServerCapabilities, describeError, discover } from './discovery.js';
import { checkLockPlace, withRefreshLock } from './lock.js';
import { generateDpopKey } from './dpop.js';
import { startCallbackServer, type CallbackPage } from './loopback-callback.js';
import { Session } from './session.js';
import { connectionFor } from './connection.js';
import { unlessAborted, stoppedBy, withGrace } from '../core/abort.js';
import { dpopHandle, recordFromTokens, redeemCode, revocationUnsure, revokeToken } from './token-exchange.js';
import { issuing } from './token-answer.js';
import { endOpened, factsRefused } from './login-ends.js';
import { NOT_OURS, waitForAnswer } from './login-wait.js';
import { signInTexts as t } from './texts.js';
import { tokenTexts as tt } from './texts-tokens.js';
import { otherHolder } from './shared-record.js';

export interface LoginOptions {
  openBrowser: boolean;
  timeoutMs: number;
  clientSecret?: string;
  /** Keep the secret in the credential store (it came from stdin, not the environment). */
  storeClientSecret: boolean;
  /** Lines on stdin may carry the redirected URL (--no-browser, SSH sessions). */
  acceptPasted: boolean;
}

export interface LoginResult {
  profile: Profile;
  store: CredentialStore;
  /** What happened to the connection this login replaced, if there was one. */
  /** `unsure`: the revocation was sent and its answer lost: it may have been revoked. */
  previous?: { revoked: true } | { revoked: false; reason: string; unsure?: boolean };
}

export async function login(profile: Profile, io: Io, opts: LoginOptions): Promise<LoginResult> {
  const store = await storeChecked(profile, io);
  // nothing is on its way yet: Ctrl-C ends this wait at once (round 45 F5: unheard until the 30 s timeout)
  const config = await unlessAborted(async () => discover(profile, await clientAuthFor(profile, opts.clientSecret)), io.signal);
  assertServerCapabilities(config);
  const issuer = config.serverMetadata().issuer;
  const dpop = profile.dpop ? await generateDpopKey() : undefined;
  const relogin = t.relogin({ login: `meterdata login${profile.name !== 'default' ? ` --profile ${profile.name}` : ''}` });

  let expected = { issuer, state: '' };
  // Only an answer that belongs to this sign-in ends the wait; others are reported and ignored.
  const judge = (params: URLSearchParams): CallbackPage => {
    const v = checkCallback(params, expected, relogin);
    if (v.ok) return { ok: true, final: true, message: t.received };
    const final = !NOT_OURS.has(v.error.code);
    if (!final) io.stderr.write(`${t.ignored({ message: terminalSafe(v.error.message) })}\n`);
    return { ok: false, final, message: v.error.message };
  };
  const server = await startCallbackServer(judge);
  let params: URLSearchParams;
  let request: Awaited<ReturnType<typeof buildAuthorizationRequest>>;
  try {
    request = await buildAuthorizationRequest(config, { redirectUri: server.redirectUri, scopes: profile.scopes, resource: profile.resource });
    expected = { issuer, state: request.state };
    io.stderr.write(`${t.openAddress}\n${request.url.href}\n`);
    if (opts.openBrowser) openBrowser(request.url.href, io.env);
    else io.stderr.write(`${t.waitingForPaste}\n`);
    params = await waitForAnswer(server.received, opts, io, relogin, judge);
  } finally {
    await server.close();
  }

  const verdict = checkCallback(params, expected, relogin);
  if (!verdict.ok) throw verdict.error;
  const callbackUrl = new URL(server.redirectUri);
  for (const [k, v] of params) callbackUrl.searchParams.append(k, v);
  const pkce = { verifier: request.verifier, state: request.state };
  const notStored = (sent: boolean, words = t.interruptedUnstored({ sent })) =>
    new InterruptedError(words, { code: 'AUTH_LOGIN_INTERRUPTED', hint: t.interruptedUnstoredHint({ relogin }) });
  const tokens = await redeemed(config, () => redeemCode(config, callbackUrl, pkce, profile.resource, dpopHandle(config, dpop?.key)), io, notStored);
  // until the record is stored, a failure (no refresh token, a store that will not write) leaves the connection the
  // answer opened held by nobody: it is ended too (round 43 F1, F5); a stop here (Ctrl-C while another process holds
  // the refresh lock, round 44 N2) stored nothing: said so, not as an answer meterdata could not use
  const unstored = (e: unknown) =>
    endOpened(config, io, notStored)(typeof e === 'object' && e !== null ? issuing(e, tokens.refresh_token || tokens.access_token) : e);
  const extras = {
    ...(dpop ? { dpop_jwk: dpop.privateJwk } : {}),
    ...(opts.storeClientSecret && opts.clientSecret ? { client_secret: opts.clientSecret } : {}),
  };
  const { record, previous } = await stored(tokens, extras, store, profile.name, io).catch(unstored);
  // A damaged profile (login replaces it) cannot tell which server the old connection was at: it is not revoked.
  const before = await loadProfile(io.env, profile.name).catch((e: unknown) =>
    e instanceof MeterdataError && e.code === 'CONFIG_PROFILE_INVALID' ? undefined : Promise.reject(e),
  );
  // A new login replaces the profile's connection: end the old one at the server too, so
  // the landlord does not keep seeing a connection nobody uses.
  const replaced =
    previous && previous.refresh_token !== record.refresh_token && before?.auth_url === profile.auth_url && before.client_id === profile.client_id
      ? previous.refresh_token
      : null;
  const endPrevious = () => revoked(config, replaced!, io.env, profile.name, io.signal);
  const status = `meterdata status${profile.name !== 'default' ? ` --profile ${profile.name}` : ''}`;
  // the old record is replaced already: its token is stored nowhere any more, so whatever ends login from here on, it
  // is ended now or never, and said either way (round 37b F2: a Ctrl-C or a failed /whoami left it alive without a
  // word; round 39: so did config.json refusing the new profile)
  const failed = async (failure: unknown): Promise<never> => {
    const fate = replaced === null ? undefined : io.signal.aborted ? { revoked: false as const, reason: tt.revocationNotSent } : await endPrevious();
    // stored, not confirmed: not "nothing was half-written" (round 38 F4), also where the stop came while the replaced
    // connection's revocation was awaited (round 40a F5)
    const e = io.signal.aborted
      ? new InterruptedError(t.interruptedUnchecked, { code: 'AUTH_LOGIN_INTERRUPTED', hint: t.interruptedUncheckedHint({ relogin, status }) })
      : failure;
    if (fate && typeof e === 'object' && e !== null) previousFates.set(e, fate);
    throw e;
  };
  // Tokens were issued: this is the connection's latest refresh (a /whoami is not).
  const bare: Profile = { ...stripConnectionFacts(profile), last_refresh_at: record.updated_at };
  await saveProfile(io.env, bare).catch(async (e: unknown) => {
    // a profile the file names keeps the new sign-in: "not changed" is not all there is to say (round 41 L4)
    if (before !== undefined) return failed(factsRefused(e, relogin, status, true));
    const fate = io.signal.aborted ? undefined : await endUnnamed(config, record, store, profile.name, io);
    if (!io.signal.aborted) throw e;
    // stopped before or during that revocation: nothing more is sent, and nothing is kept that no command could use
    // or sign out (round 41 M3: left stored for a profile the file does not name; L3: told as "could not be ended")
    await store.remove(profile.name).catch(() => false);
    throw notStored(fate?.revoked === true || fate?.unsure === true);
  });
  const session = new Session(bare, store, record, io.env, (l) => io.stderr.write(l), io.signal);
  const conn = await connectionFor(session, { env: io.env, signal: io.signal, signingIn: true }).catch(failed);
  const reconciled = await conn
    .reconcile()
    .finally(() => conn.close())
    .catch((e: unknown) => failed(factsRefused(e, relogin, status)));
  const result: LoginResult = { profile: reconciled, store };
  if (replaced !== null) result.previous = await endPrevious();
  return result;
}

/**
 * The profile's credential store, and what the sign-in will need after the browser step checked before it: a code
 * redeemed into tokens that cannot be stored is a connection lost (round 27), or ended again at best.
 */
async function storeChecked(profile: Profile, io: Io): Promise<CredentialStore> {
  const store = openStore(profile.credential_store, io.env);
  if (store instanceof KeychainCredentialStore) await store.probe();
  if (store instanceof FileCredentialStore) store.checkNoFolder(profile.name);
  // the refresh lock the new record is written under: a locks folder that is a file or not this user's (round 45 F2)
  await checkLockPlace(io.env, profile.name);
  await assertRoomFor(io.env, stripConnectionFacts(profile));
  return store;
}

/**
 * The code's tokens. A stop while they are awaited waits a second more for them, then is told (round 45 F5: unheard
 * until the 30 s timeout, then told as a connection being ended that nothing was sent to end).
 */
export function redeemed(
  config: Parameters<typeof revokeToken>[0],
  redeem: () => ReturnType<typeof redeemCode>,
  io: Io,
  notStored: (sent: boolean, words: string) => InterruptedError,
): ReturnType<typeof redeemCode> {
  // stopped before the code was sent: it is not sent (the grace is for an answer on its way)
  if (io.signal.aborted) return Promise.reject(io.signal.reason);
  return unlessAborted(redeem, withGrace(io.signal, STORE_GRACE_MS)).catch((e: unknown) =>
    stoppedBy(e, io.signal) ? Promise.reject(notStored(true, t.interruptedRedeeming)) : endOpened(config, io)(e),
  );
}

/** How long after a stop login still tries to take the refresh lock to store the tokens it was issued. */
const STORE_GRACE_MS = 1000;

/**
 * The new sign-in's record, durable before anything uses the access token. Under the refresh lock, so a refresh of the
 * previous connection running in a cron job cannot overwrite it. Gives the record it replaced.
 */
async function stored(tokens: Awaited<ReturnType<typeof redeemCode>>, extras: Partial<StoredRecord>, store: CredentialStore, name: string, io: Io) {
  const record = recordFromTokens(tokens, extras);
  // Ctrl-C ends a wait for another process's lock (round 44 N2: unheard for up to a minute); a free lock is still taken
  // and the issued tokens kept, as a stop at this point always did (round 37b F2)
  const previous = await withRefreshLock(
    io.env,
    name,
    async () => {
      const old = await store.read(name).catch((e: unknown) => {
        // Nothing in a damaged record can be revoked; replacing it is the fix, and it is said, not silent.
        if (e instanceof MeterdataError && e.code === 'AUTH_STORE_DAMAGED') io.stderr.write(`${t.damagedRecordReplaced({ problem: e.message })}\n`);
        return null;
      });
      await store.write(name, record);
      return old;
    },
    withGrace(io.signal, STORE_GRACE_MS),
  );
  return { record, previous };
}

/**
 * A new profile's sign-in config.json refused to name: no command could use or sign out a profile the file does not
 * name, and a later login of the name overwrites its record unrevoked, so it is ended again, not left alive unseen.
 */
async function endUnnamed(
  config: Parameters<typeof revokeToken>[0],
  record: StoredRecord,
  store: CredentialStore,
  name: string,
  io: Io,
): Promise<LoginResult['previous']> {
  if (!record.refresh_token) return undefined;
  const fate = await revoked(config, record.refresh_token, io.env, name, io.signal);
  if (fate.revoked) await store.remove(name).catch(() => false);
  else if (io.signal.aborted) return fate; // the interruption is told, with what it leaves
  io.stderr.write(`${fate.revoked ? t.newSignInEnded : t.newSignInNotEnded({ reason: fate.reason })}\n`);
  return fate;
}

const previousFates = new WeakMap<object, NonNullable<LoginResult['previous']>>();

/** What became of the replaced connection where login failed after storing the new sign-in (the command says it). */
export const previousFate = (e: unknown): LoginResult['previous'] => (typeof e === 'object' && e !== null ? previousFates.get(e) : undefined);

async function revoked(
  config: Parameters<typeof revokeToken>[0],
  token: string,
  env: NodeJS.ProcessEnv,
  profile: string,
  signal: AbortSignal,
): Promise<NonNullable<LoginResult['previous']>> {
  let sent = false;
  try {
    // a copied record's token is another profile's connection too: not ours to end
    const other = await otherHolder(env, token, profile, signal);
    if (other !== null) return { revoked: false, reason: tt.sharedConnection({ profile: other }) };
    // Ctrl-C ends the wait for the old connection's answer (round 36b F3: unheard for 30 s); the new sign-in is stored
    await unlessAborted(() => {
      sent = true;
      return revokeToken(config, token);
    }, signal);
    return { revoked: true };
  } catch (e) {
    if (stoppedBy(e, signal))
      return sent ? { revoked: false, reason: tt.revocationNotAwaited, unsure: true } : { revoked: false, reason: tt.revocationNotSent };
    const unsure = revocationUnsure(e);
    return { revoked: false, reason: unsure?.reason ?? describeError(e), ...(unsure ? { unsure: true } : {}) };
  }
}

function stripConnectionFacts(p: Profile): Profile {
  const {
    tenant_id: _a,
    tenant_name: _b,
    client_id_seen: _c,
    granted_scopes: _d,
    property_scope: _e,
    property_names: _f,
    last_refresh_at: _g,
    access_expires_at: _h,
    ...rest
  } = p;
  return rest;
}
