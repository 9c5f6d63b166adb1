// A signed-in connection at run time: hands out access tokens, refreshes them shortly before expiry or after a 401,
// and keeps every process on the same token family. Refresh protocol (per profile): single-flight inside the
// process, then the cross-process lock; under the lock the store is read again, and if another process already
// refreshed, its token is used. The token is claimed store-wide before it is sent (spent-tokens.ts), so a copied
// record never sends it again. The new refresh token is persisted (durably) before the new access token is used.
// A transient failure never touches the stored record.
import type * as oidc from 'openid-client';
import type { Credentials } from '../core/credentials.js';
import { loadProfile, saveProfile, setProfileFields, type Profile } from '../core/config.js';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { loginCommand, loginHint, notSignedIn, statusCommand } from './profile-commands.js';
import { unlessAborted } from '../core/abort.js';
import { terminalSafeLines } from '../core/terminal-text.js';
import { openStore, type CredentialStore, type StoredRecord } from './credential-store/index.js';
import { clientAuthFor, clientSecretFrom } from './client-auth.js';
import { discover } from './discovery.js';
import { dpopProof, importDpopKey, type DpopKey } from './dpop.js';
import { lockFolderGone, SingleFlight, withRefreshLock, type RefreshLock } from './lock.js';
import { notHeldElsewhere } from './shared-record.js';
import { intentOf, refreshInFlight, refreshUncertain, stillInFlight } from './refresh-intent.js';
import {
  between429,
  LOCK_LOST_BEFORE_SENDING,
  markedUncertain,
  replaceIntent,
  sameRecord,
  storeChanged,
  takenOverDuringIntent,
  tryAgainAfter,
  type RecordPlace,
} from './refresh-outcome.js';
import { sendOnce, settledAfter } from './spent-tokens.js';
import { markedError, unrefreshable } from './refresh-refusals.js';
import { usable } from './lifetime.js';
import { RefreshBudget } from './refresh-budget.js';
import { pauseAt, testNumber } from './test-hooks.js';
import { dpopHandle, keptAnswerLost, recordFromTokens, refreshGrant, type TokenSet } from './token-exchange.js';
import { ts } from './texts-session.js';
import { refusalWords } from '../core/disk.js';

export { loginCommand, notSignedIn } from './profile-commands.js';

const flights = new SingleFlight<StoredRecord>();

type Refreshed = { record: StoredRecord; refreshed: boolean };

const lockLost = () => new ServiceUnavailableError(ts.lockLost, { code: 'AUTH_LOCK_LOST', hint: ts.lockLostHint });

export class Session {
  private record: StoredRecord;
  private dpopKey: DpopKey | undefined;
  private config: oidc.Configuration | undefined;
  /** Refreshes this run may still send (after rejections, and per minute). */
  private readonly budget: RefreshBudget;
  /** Called after each refresh (tests count refreshes with it). */
  onRefresh: ((rec: StoredRecord) => void) | undefined;
  /** The one subscriber to "tokens refreshed" (the connection: one /whoami for the new token), awaited before the token is used. */
  whenRefreshed: ((rec: StoredRecord) => Promise<void>) | undefined;
  /** Asked before a token-endpoint 429 is waited out (the connection's total of Retry-After pauses); an error ends the refresh. */
  mayWait: ((ms: number, endpoint: string, failedMs: number) => Error | null) | undefined;

  constructor(
    public profile: Profile,
    readonly store: CredentialStore,
    record: StoredRecord,
    private readonly env: NodeJS.ProcessEnv,
    /** One line for stderr: warnings that do not stop the command. */
    warnTo: (line: string) => void = () => undefined,
    /** Ctrl-C: stops the /whoami reads and a refresh's 429 wait (never a refresh in flight: its answer must be saved). */
    private readonly signal?: AbortSignal,
  ) {
    this.record = record;
    this.budget = new RefreshBudget(statusCommand(profile.name));
    // Warnings quote the server (problem details, trace ids): no control character reaches the terminal.
    this.warn = (line) => warnTo(terminalSafeLines(line));
  }

  /** Warnings that do not stop the command, control characters escaped. */
  readonly warn: (line: string) => void;

  static async open(profile: Profile, env: NodeJS.ProcessEnv, warn?: (line: string) => void, signal?: AbortSignal): Promise<Session> {
    const store = openStore(profile.credential_store, env);
    const record = await store.read(profile.name);
    if (!record) throw notSignedIn(profile.name);
    return new Session(profile, store, record, env, warn, signal);
  }

  private async key(): Promise<DpopKey | undefined> {
    if (!this.record.dpop_jwk) return undefined;
    this.dpopKey ??= await importDpopKey(this.record.dpop_jwk);
    return this.dpopKey;
  }

  /** A record whose access token has more than a minute left. */
  async fresh(): Promise<StoredRecord> {
    return usable(this.record, Date.now()) ? this.record : this.refresh(undefined);
  }

  /** Refreshes unless someone already replaced `rejectedToken` (or the token is still fresh and not rejected). */
  refresh(rejectedToken: string | undefined): Promise<StoredRecord> {
    return flights.run(`${this.env.METERDATA_HOME ?? ''}\0${this.profile.name}`, async () => {
      if (rejectedToken !== undefined && this.record.access_token !== rejectedToken && usable(this.record, Date.now())) return this.record;
      if (rejectedToken !== undefined) this.budget.rejected();
      const attempt = (last: boolean) => withRefreshLock(this.env, this.profile.name, (lock) => this.refreshLocked(rejectedToken, lock, last), this.signal);
      // Lost the lock before sending, or the token claimed by a refresh on its way: wait for it and use its result.
      const first = await attempt(false);
      if (first === 'claimed') await storeChanged(this.place(), this.record, this.signal);
      const outcome = first === 'lock-lost' || first === 'claimed' ? await attempt(true) : first;
      if (outcome === 'lock-lost' || outcome === 'claimed') throw lockLost();
      this.record = outcome.record;
      if (outcome.refreshed) await this.afterRefresh(outcome.record);
      return outcome.record;
    });
  }

  /** Outside the lock (a slow /whoami must not block other processes): the refresh noted, then /whoami for the new token. */
  private async afterRefresh(rec: StoredRecord): Promise<void> {
    this.onRefresh?.(rec);
    // Only a note for `status`: the new tokens are stored already, so a held config lock or a full disk must not end the run.
    // a stop ends the wait for config.json's lock: the note is left out without a word, the stop is what is told
    await setProfileFields(
      this.env,
      this.profile.name,
      { last_refresh_at: rec.updated_at, ...(rec.access_expires_at ? { access_expires_at: rec.access_expires_at } : {}) },
      this.signal,
    ).catch((e: unknown) => (this.signal?.aborted ? undefined : this.warn(ts.refreshNotNoted({ reason: refusalWords(e) }))));
    await this.whenRefreshed?.(rec);
  }

  private async refreshLocked(rejectedToken: string | undefined, lock: RefreshLock, last: boolean): Promise<Refreshed | 'lock-lost' | 'claimed'> {
    const current = await this.store.read(this.profile.name);
    if (!current) throw notSignedIn(this.profile.name);
    const replacedByOther = rejectedToken === undefined ? true : current.access_token !== rejectedToken;
    if (replacedByOther && usable(current, Date.now())) return { record: current, refreshed: false };
    const relogin = loginHint(this.profile.name);
    if (current.refresh_uncertain_since) throw markedError(this.env, current, this.profile.name, relogin);
    if (current.refresh_intent) {
      // A refresh was sent and never settled: its holder is stalled (we took its lock over) or died.
      if (stillInFlight(current.refresh_intent)) throw refreshInFlight(current.refresh_intent, relogin);
      await this.store.write(this.profile.name, { ...current, refresh_uncertain_since: current.refresh_intent.at }).catch(() => undefined);
      throw refreshUncertain(current.refresh_intent.at, 'abandoned', relogin);
    }
    // Bounded per minute in this run and for the profile, before anything is written or sent: tokens that last seconds would otherwise be refreshed before nearly every request.
    const counted = this.budget.counting(current);
    this.record = current;
    const config = await this.configuration();
    const key = await this.key();
    await pauseAt(this.env, 'BEFORE_REFRESH', this.warn);
    // Taken over while stalled, or changed by a holder the lock did not keep out (its folder removed: round 46 M1).
    if (!(await lock.stillHeld()) || !sameRecord(await this.store.read(this.profile.name), current)) return 'lock-lost';
    const intended: StoredRecord = { ...counted, refresh_intent: intentOf() };
    let written = false;
    // Durable before the request leaves, so whoever takes this lock over while we stall sees it. Written once the token
    // is claimed store-wide (no other process can then refresh with it), over the record as we read it (round 47 M1′),
    // under a lock still ours: a new login of this profile may have taken it over (round 48 F2).
    const writeIntent = async () => {
      await pauseAt(this.env, 'BEFORE_INTENT', this.warn);
      if (!sameRecord(await this.store.read(this.profile.name), current) || !(await lock.stillHeld())) throw LOCK_LOST_BEFORE_SENDING;
      await this.persist(intended, 'intent');
      written = true;
      if (!(await lock.stillHeld())) await takenOverDuringIntent(this.place(), intended, relogin);
    };
    let tokens: TokenSet;
    try {
      // told to stop while waiting for the lock: no refresh starts now
      if (this.signal?.aborted) throw this.signal.reason;
      const between = between429(this.place(), intended, lock, relogin, (r) => this.persist(r, 'intent'), current);
      const send = () => refreshGrant(config, current.refresh_token, dpopHandle(config, key), this.profile, this.signal, this.mayWait, between);
      const { at } = intended.refresh_intent!;
      tokens = await sendOnce(this.env, current.refresh_token, this.profile.name, at, relogin, send, between.claim, this.signal, writeIntent);
    } catch (e) {
      const again = await tryAgainAfter(e, last, this.place(), current);
      if (again) return again;
      const after = settledAfter(e, current);
      // our intent replaced, or the record (never sent by us) marked where its token was sent before
      if (written || after !== current) await replaceIntent(this.place(), lock, written ? intended : current, () => after).catch(() => undefined);
      throw e;
    }
    try {
      return await this.keep(tokens, counted, lock);
    } catch (e) {
      // The server rotated: whatever failed after its answer (building the record, the store, the lock), the
      // token we sent is spent. Mark the record unless the new one landed; if even that fails, the intent stays.
      await replaceIntent(this.place(), lock, intended, (now) => markedUncertain(now)).catch(() => undefined);
      throw keptAnswerLost(e, this.profile);
    }
  }

  /** Builds and saves the record of a 2xx answer (the server has rotated the refresh token). */
  private async keep(tokens: TokenSet, current: StoredRecord, lock: RefreshLock): Promise<Refreshed> {
    const next = await notHeldElsewhere(this.env, recordFromTokens(tokens, current), this.profile);
    await pauseAt(this.env, 'AFTER_REFRESH', this.warn);
    if (await lock.stillHeld()) {
      // Durable before use: a crash after this line loses nothing.
      await this.persist(next);
      return { record: next, refreshed: true };
    }
    // The server already rotated: our answer holds the only live refresh token, unless someone
    // else changed the store meanwhile (a new login, or a refresh that ended the connection).
    const keepUnlessChanged = async (): Promise<Refreshed> => {
      const now = await this.store.read(this.profile.name);
      if (now && now.refresh_token === current.refresh_token) return (await this.persist(next), { record: next, refreshed: true });
      if (!now) throw notSignedIn(this.profile.name);
      return { record: now, refreshed: false };
    };
    // its folder removed meanwhile (a clean-up): no lock keeps anyone out then, and dropping the answer loses the token (round 49 N1)
    return withRefreshLock(this.env, this.profile.name, keepUnlessChanged).catch((e: unknown) => (lockFolderGone(e) ? keepUnlessChanged() : Promise.reject(e)));
  }

  private place(): RecordPlace {
    return { store: this.store, env: this.env, profile: this.profile.name };
  }

  private async persist(next: StoredRecord, what: 'tokens' | 'intent' = 'tokens'): Promise<void> {
    try {
      await this.store.write(this.profile.name, next);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (what === 'intent')
        throw new ServiceUnavailableError(ts.intentNotWritten({ reason }), { code: 'AUTH_STORE_WRITE_FAILED', hint: ts.fixStore, cause: e });
      const name = this.profile.name;
      // The server rotated already: no later run can refresh (exit 3, like an answer lost after sending), never "try later"
      throw new NotSignedInError(ts.tokensNotSaved({ reason }), {
        code: 'AUTH_TOKENS_NOT_SAVED',
        hint: ts.fixStoreThenStatus({ status: statusCommand(name), login: loginCommand(name) }),
        cause: e,
      });
    }
  }

  /** Why the stored refresh token can no longer be sent (marked, or already sent by a copy), found without sending; null when it can. */
  async unrefreshable(): Promise<NotSignedInError | null> {
    const rec = await this.store.read(this.profile.name);
    return rec && unrefreshable(this.env, rec, this.profile.name, loginHint(this.profile.name));
  }

  /** The record in use: its access token is the one the next request sends, unless it is about to expire. */
  current(): StoredRecord {
    return this.record;
  }

  /** Stores what /whoami said (`facts` of the latest saved profile) and the token's expiry; `unsaved`: a write config.json refused, told (or thrown again). */
  async saveReconciled(facts: (latest: Profile) => Promise<Profile>, unsaved?: (e: unknown) => unknown): Promise<Profile> {
    const latest = (await loadProfile(this.env, this.profile.name)) ?? this.profile;
    const next = await facts({ ...latest, credential_store: this.profile.credential_store });
    if (this.record.access_expires_at) next.access_expires_at = this.record.access_expires_at;
    await saveProfile(this.env, next, this.signal).catch((e: unknown) => (unsaved ? unsaved(e) : Promise.reject(e)));
    this.profile = next;
    return next;
  }

  private async configuration(): Promise<oidc.Configuration> {
    if (this.config) return this.config;
    const auth = await clientAuthFor(this.profile, clientSecretFrom(this.env, this.record.client_secret));
    this.config = await unlessAborted(() => discover(this.profile, auth), this.signal); // nothing sent yet: a stop ends the wait (round 45 F5)
    // Tests shorten the token endpoint's timeout to provoke an answer lost after sending.
    const timeoutMs = testNumber(this.env, 'TOKEN_TIMEOUT_MS');
    if (timeoutMs) this.config.timeout = timeoutMs / 1000;
    return this.config;
  }

  async headersWith(rec: StoredRecord, method: string, url: string): Promise<Record<string, string>> {
    const token = rec.access_token;
    if (!token) throw notSignedIn(this.profile.name);
    const key = await this.key();
    if (key && rec.token_type === 'DPoP') {
      return { authorization: `DPoP ${token}`, dpop: await dpopProof(key, method, url, token) };
    }
    return { authorization: `Bearer ${token}` };
  }

  /**
   * Credentials fixed to `rec`, for the /whoami of a refresh or a sign-in: no refresh of
   * their own (a refresh already holds the lock), so a 401 means the connection has ended.
   */
  pinnedCredentials(rec: StoredRecord): Credentials {
    return {
      headersFor: (method, url) => this.headersWith(rec, method, url),
      refreshAfterRejection: async () => {
        throw new NotSignedInError(ts.connectionEnded, { code: 'AUTH_CONNECTION_ENDED', hint: ts.connectAgain({ login: loginCommand(this.profile.name) }) });
      },
      currentToken: async () => rec.access_token ?? '',
    };
  }

  credentials(): Credentials {
    return {
      headersFor: async (method, url) => this.headersWith(await this.fresh(), method, url),
      refreshAfterRejection: async (rejectedToken) => {
        await this.refresh(rejectedToken);
      },
      currentToken: async () => {
        const rec = await this.fresh();
        if (!rec.access_token) throw notSignedIn(this.profile.name);
        return rec.access_token;
      },
    };
  }
}
