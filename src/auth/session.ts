// A signed-in connection at run time: hands out access tokens, refreshes them shortly
// before expiry or after a 401, and keeps every process on the same token family.
//
// Refresh protocol (per profile): single-flight inside the process, then the cross-process
// lock; under the lock the store is read again, and if another process already refreshed,
// its token is used. The new refresh token is persisted (durably) before the new access
// token is used. A transient failure never touches the stored record.
import type * as oidc from 'openid-client';
import type { Credentials } from '../core/credentials.js';
import { loadProfile, saveProfile, setProfileFields, type Profile } from '../core/config.js';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { terminalSafeLines } from '../core/terminal-text.js';
import { openStore, type CredentialStore, type StoredRecord } from './credential-store/index.js';
import { clientAuthFor, clientSecretFrom } from './client-auth.js';
import { discover } from './discovery.js';
import { dpopProof, importDpopKey, type DpopKey } from './dpop.js';
import { SingleFlight, withRefreshLock, type RefreshLock } from './lock.js';
import { intentOf, refreshInFlight, refreshUncertain, stillInFlight } from './refresh-intent.js';
import { pauseAt, testNumber } from './test-hooks.js';
import { dpopHandle, recordFromTokens, refreshGrant, RefreshAnswerLostError } from './token-exchange.js';
import { reconcile } from './whoami.js';

/** Refresh when less than this is left on the access token. */
export const REFRESH_MARGIN_MS = 60_000;

const flights = new SingleFlight<StoredRecord>();

export function loginHint(profile: string): string {
  return `Run \`meterdata login${profile !== 'default' ? ` --profile ${profile}` : ''}\`.`;
}

function lockLost(): ServiceUnavailableError {
  return new ServiceUnavailableError('Another meterdata process took over the refresh of this sign-in twice while this one was stalled.', {
    code: 'AUTH_LOCK_LOST',
    hint: 'Try again; if it repeats, check for a suspended or overloaded meterdata process.',
  });
}

export function notSignedIn(profile: string): NotSignedInError {
  return new NotSignedInError(`Profile "${profile}" is not signed in.`, { code: 'AUTH_NOT_SIGNED_IN', hint: loginHint(profile) });
}

function usable(rec: StoredRecord, now: number): boolean {
  return !!rec.access_token && !!rec.access_expires_at && Date.parse(rec.access_expires_at) - now > REFRESH_MARGIN_MS;
}

export class Session {
  private record: StoredRecord;
  private dpopKey: DpopKey | undefined;
  private config: oidc.Configuration | undefined;
  /** Called after each refresh (tests count refreshes with it). */
  onRefresh: ((rec: StoredRecord) => void) | undefined;

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
    // Warnings quote the server (problem details, trace ids): no control character reaches the terminal.
    this.warn = (line) => warnTo(terminalSafeLines(line));
  }

  private readonly warn: (line: string) => void;

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
    if (usable(this.record, Date.now())) return this.record;
    return this.refresh(undefined);
  }

  /** Refreshes unless someone already replaced `rejectedToken` (or the token is still fresh and not rejected). */
  refresh(rejectedToken: string | undefined): Promise<StoredRecord> {
    return flights.run(`${this.env.METERDATA_HOME ?? ''}\0${this.profile.name}`, async () => {
      if (rejectedToken !== undefined && this.record.access_token !== rejectedToken && usable(this.record, Date.now())) return this.record;
      let outcome = await withRefreshLock(this.env, this.profile.name, (lock) => this.refreshLocked(rejectedToken, lock));
      // Lost the lock before sending: another process is refreshing; wait for it and use its result.
      if (outcome === 'lock-lost') outcome = await withRefreshLock(this.env, this.profile.name, (lock) => this.refreshLocked(rejectedToken, lock));
      if (outcome === 'lock-lost') throw lockLost();
      this.record = outcome.record;
      if (outcome.refreshed) await this.afterRefresh(outcome.record);
      return outcome.record;
    });
  }

  /**
   * Outside the lock (a slow /whoami or a large landlord must not block other processes):
   * note the refresh in the profile, then reconcile. The new tokens are already persisted, so a
   * passing /whoami failure costs nothing but a warning; an ended connection is still an error.
   */
  private async afterRefresh(rec: StoredRecord): Promise<void> {
    this.onRefresh?.(rec);
    await setProfileFields(this.env, this.profile.name, { last_refresh_at: rec.updated_at, ...(rec.access_expires_at ? { access_expires_at: rec.access_expires_at } : {}) });
    try {
      await this.reconcileProfile();
    } catch (e) {
      if (!(e instanceof ServiceUnavailableError)) throw e;
      this.warn(`Warning: the access token was refreshed and saved, but checking the connection (/whoami) failed: ${e.message} The tenant and property scope shown by \`meterdata status\` may be out of date.\n`);
    }
  }

  private async refreshLocked(rejectedToken: string | undefined, lock: RefreshLock): Promise<{ record: StoredRecord; refreshed: boolean } | 'lock-lost'> {
    const current = await this.store.read(this.profile.name);
    if (!current) throw notSignedIn(this.profile.name);
    const replacedByOther = rejectedToken === undefined ? true : current.access_token !== rejectedToken;
    if (replacedByOther && usable(current, Date.now())) return { record: current, refreshed: false };
    const relogin = loginHint(this.profile.name);
    if (current.refresh_uncertain_since) throw refreshUncertain(current.refresh_uncertain_since, 'lost', relogin);
    if (current.refresh_intent) {
      // A refresh was sent and never settled: its holder is stalled (we took its lock over) or died.
      if (stillInFlight(current.refresh_intent)) throw refreshInFlight(current.refresh_intent, relogin);
      await this.store.write(this.profile.name, { ...current, refresh_uncertain_since: current.refresh_intent.at }).catch(() => undefined);
      throw refreshUncertain(current.refresh_intent.at, 'abandoned', relogin);
    }
    this.record = current;
    const config = await this.configuration();
    const key = await this.key();
    await pauseAt(this.env, 'BEFORE_REFRESH', this.warn);
    // Taken over while stalled: the new holder may be refreshing with this very token.
    if (!(await lock.stillHeld())) return 'lock-lost';
    // Durable before the request leaves, so whoever takes this lock over while we stall sees it.
    const intended: StoredRecord = { ...current, refresh_intent: intentOf() };
    await pauseAt(this.env, 'BEFORE_INTENT', this.warn);
    await this.persist(intended, 'intent');
    // Stalled past the stale limit while writing it: the new holder may be refreshing with this token.
    if (!(await lock.stillHeld())) return this.takenOverDuringIntent(intended, relogin);
    let next: StoredRecord;
    try {
      const tokens = await refreshGrant(config, current.refresh_token, dpopHandle(config, key), this.profile, this.signal);
      next = recordFromTokens(tokens, current);
    } catch (e) {
      // Lost after sending: remember it, so nobody resends the token. Otherwise the token was not used.
      const settled = e instanceof RefreshAnswerLostError ? { ...current, refresh_uncertain_since: new Date().toISOString() } : current;
      await this.settle(lock, intended, settled).catch(() => undefined);
      throw e;
    }
    await pauseAt(this.env, 'AFTER_REFRESH', this.warn);
    if (await lock.stillHeld()) {
      // Durable before use: a crash after this line loses nothing.
      await this.persist(next);
      return { record: next, refreshed: true };
    }
    // The server already rotated: our answer holds the only live refresh token, unless someone
    // else changed the store meanwhile (a new login, or a refresh that ended the connection).
    return withRefreshLock(this.env, this.profile.name, async () => {
      const now = await this.store.read(this.profile.name);
      if (now && now.refresh_token === current.refresh_token) {
        await this.persist(next);
        return { record: next, refreshed: true };
      }
      if (!now) throw notSignedIn(this.profile.name);
      return { record: now, refreshed: false };
    });
  }

  /**
   * Our intent landed after the lock was taken over. If the store still holds it, it may have
   * replaced tokens the new holder refreshed and saved meanwhile, and they cannot be told apart
   * from none: mark the record (sign in again). Otherwise someone wrote after it: use that.
   */
  private async takenOverDuringIntent(intended: StoredRecord, relogin: string): Promise<'lock-lost'> {
    const at = intended.refresh_intent!.at;
    const ours = await withRefreshLock(this.env, this.profile.name, async () => {
      const now = await this.store.read(this.profile.name);
      if (!now || now.refresh_intent?.at !== at || now.refresh_token !== intended.refresh_token) return false;
      const { refresh_intent: _ours, ...rest } = now;
      await this.store.write(this.profile.name, { ...rest, refresh_uncertain_since: at }).catch(() => undefined);
      return true;
    });
    if (ours) throw refreshUncertain(at, 'taken-over', relogin);
    return 'lock-lost';
  }

  /** Replaces our own intent with its outcome, unless someone else changed the record meanwhile. */
  private async settle(lock: RefreshLock, intended: StoredRecord, outcome: StoredRecord): Promise<void> {
    if (await lock.stillHeld()) return this.store.write(this.profile.name, outcome);
    await withRefreshLock(this.env, this.profile.name, async () => {
      const now = await this.store.read(this.profile.name);
      if (now && now.refresh_token === intended.refresh_token && now.refresh_intent?.at === intended.refresh_intent?.at) await this.store.write(this.profile.name, outcome);
    });
  }

  private async persist(next: StoredRecord, what: 'tokens' | 'intent' = 'tokens'): Promise<void> {
    try {
      await this.store.write(this.profile.name, next);
    } catch (e) {
      if (what === 'intent') {
        throw new ServiceUnavailableError(`The sign-in could not be refreshed: the credential store could not be written (${e instanceof Error ? e.message : String(e)}); no refresh was sent.`, {
          code: 'AUTH_STORE_WRITE_FAILED',
          hint: 'Fix the credential store (free disk space, unlock the keychain), then run the command again.',
          cause: e,
        });
      }
      throw new ServiceUnavailableError(
        `The sign-in server issued new tokens, but they could not be saved (${e instanceof Error ? e.message : String(e)}); they were not used. The server has replaced the stored refresh token, so this connection probably has to be signed in again.`,
        { code: 'AUTH_STORE_WRITE_FAILED', hint: `Fix the credential store (free disk space, unlock the keychain), then run \`meterdata status${this.profile.name !== 'default' ? ` --profile ${this.profile.name}` : ''}\`; if it says not signed in, ${loginHint(this.profile.name).replace(/^Run/, 'run')}`, cause: e },
      );
    }
  }

  /**
   * GET /whoami and store what it says in the profile. `refreshOn401`: after a 401, refresh
   * once and ask again (never from inside a refresh, which already holds the lock).
   */
  async reconcileProfile(opts: { refreshOn401?: boolean } = {}): Promise<Profile> {
    const latest = (await loadProfile(this.env, this.profile.name)) ?? this.profile;
    const onRejected = opts.refreshOn401
      ? async (h: Record<string, string>) => {
          await this.refresh(h.authorization?.replace(/^\S+ /, ''));
        }
      : undefined;
    const headersFor = (m: string, u: string) => (opts.refreshOn401 ? this.fresh() : Promise.resolve(this.record)).then((rec) => this.headersWith(rec, m, u));
    const next = await reconcile({ ...latest, credential_store: this.profile.credential_store }, headersFor, onRejected, this.signal);
    if (this.record.access_expires_at) next.access_expires_at = this.record.access_expires_at;
    await saveProfile(this.env, next);
    this.profile = next;
    return next;
  }

  private async configuration(): Promise<oidc.Configuration> {
    if (this.config) return this.config;
    const auth = await clientAuthFor(this.profile, clientSecretFrom(this.env, this.record.client_secret));
    this.config = await discover(this.profile, auth);
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

