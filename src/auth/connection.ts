// The one connection of a run: it owns the credentials and the single rate budget; every request of the run goes through
// it (export, browse, status, sign-in, a refresh's /whoami), and it is the one subscriber to "tokens refreshed": one
// /whoami per new token feeds both the profile reconcile and every client's withdrawn-access check.
import { defaultConcurrency, createApiClient } from '../api/client.js';
import type { ApiClient, ApiClientOptions } from '../api/contracts.js';
import { waitBudgetSpent } from '../api/limits.js';
import { RateBudget, Scheduler } from '../api/pacer.js';
import { readWindow, sharedWindowFile, writeWindow } from '../api/shared-window.js';
import type { WhoAmI } from '../api/types.js';
import { DEFAULT_SCOPES, loadProfile, resolveProfileName, type ConfigFile, type Profile } from '../core/config.js';
import { staticCredentials, type Credentials } from '../core/credentials.js';
import { AccessWithdrawnError, MeterdataError, NotSignedInError, ServiceUnavailableError, UsageError } from '../core/errors.js';
import { tokenSafeUrl } from '../core/secure-url.js';
import type { StoredRecord } from './credential-store/index.js';
import { loginCommand, notSignedIn, Session } from './session.js';
import { refusalWords } from '../core/disk.js';
import { withdrawAccess } from './refresh-outcome.js';
import { testNumber } from './test-hooks.js';
import { ts } from './texts-session.js';
import { profileFrom } from './whoami.js';

/** What a command may choose for its clients; the pacer and the credentials are the connection's. */
export type ClientOptions = Omit<
  ApiClientOptions,
  'baseUrl' | 'credentials' | 'scheduler' | 'rateLimitPerMinute' | 'burst' | 'concurrency' | 'whoamiAfterRefresh'
>;

export interface Connection {
  profile: Profile;
  /** API base including /v1, without a trailing slash. */
  baseUrl: string;
  credentials: Credentials;
  /** The signed-in session behind the credentials; undefined for METERDATA_ACCESS_TOKEN. */
  session?: Session;
  /** The one pacer: every request of this connection, /whoami included, takes its slots. */
  readonly scheduler: Scheduler;
  /** An API client on this connection's credentials and pacer. */
  api(opts?: ClientOptions): ApiClient;
  /** The /whoami answer for `token` (a new access token): asked once per token, whoever asks. */
  whoamiAfterRefresh(token: string): Promise<WhoAmI>;
  /** GET /whoami now and store what it says in the profile (status, sign-in); `refreshOn401`: refresh once after a 401. */
  reconcile(opts?: { refreshOn401?: boolean }): Promise<Profile>;
  /** Leaves this run's request times for the next process of the profile (src/api/shared-window.ts). */
  close(): Promise<void>;
  /** Why the access token this run refreshed could not be checked against the profile's landlord (its /whoami failed), if so. */
  readonly unchecked?: Error;
}

export interface ConnectionOptions {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  warn?: (line: string) => void; // warnings that do not stop the command (one line each, for stderr)
  /** Requests per minute for this connection (export's --rate-limit; default 300, the contract's limit). */
  rateLimitPerMinute?: number;
  /** `meterdata login`: the profile has no tenant yet, and this connection's first /whoami names it. */
  signingIn?: boolean;
  config?: ConfigFile; // config.json as read once for many profiles (`status --all`); else it is read for this one
}

class Link implements Connection {
  readonly scheduler: Scheduler;
  private latestWho: { token: string; who: Promise<WhoAmI> } | null = null;
  /** performance.now() + offset = epoch ms, fixed once so starts convert back exactly. */
  private readonly offset = Date.now() - performance.now();
  private readonly windowFile: string;
  /** The refresh's /whoami could not be noted in config.json, and that was said. */
  private unnoted = false;
  unchecked?: Error;

  constructor(
    public profile: Profile,
    readonly baseUrl: string,
    readonly credentials: Credentials,
    readonly session: Session | undefined,
    private readonly o: ConnectionOptions,
    private readonly budget: RateBudget,
    seeded: number[],
  ) {
    budget.seed(seeded.map((t) => t - this.offset));
    this.scheduler = new Scheduler(budget, defaultConcurrency(budget.perWindow));
    this.windowFile = sharedWindowFile(o.env, profile.name);
    if (session) {
      session.whenRefreshed = (rec) => this.refreshed(rec);
      // The token endpoint's 429 pauses are this connection's too: one total for the run (or browse's hour).
      const { scheduler } = this;
      session.mayWait = (ms, endpoint, failedMs) =>
        scheduler.pauseFor(ms, failedMs) ? null : waitBudgetSpent(endpoint, ms, scheduler.pausedMs(), scheduler.budget.maxPausedMs, Date.now());
    }
  }

  api(opts: ClientOptions = {}): ApiClient {
    return this.client(this.credentials, opts);
  }

  /** `checked`: every /whoami answer compared with the profile's tenant (a refresh's own /whoami says so in its words). */
  private client(credentials: Credentials, opts: ClientOptions, checked = true): ApiClient {
    return createApiClient({
      ...(this.o.signal ? { signal: this.o.signal } : {}),
      ...opts,
      baseUrl: this.baseUrl,
      credentials,
      scheduler: this.scheduler,
      whoamiAfterRefresh: (token) => this.whoamiAfterRefresh(token),
      // a stored sign-in's every /whoami, not only a refresh's: a token of another landlord stored under this profile
      // (a token endpoint that handed one out, a refresh whose own check failed) stops every later command too
      ...(this.session && checked ? { checkWho: (who: WhoAmI) => this.checkedStored(who) } : {}),
    });
  }

  /** A client fixed to `rec`'s token, ahead of the queue: what a refresh uses while callers hold every slot waiting for it. */
  private pinned(rec: StoredRecord): ApiClient {
    return this.client(this.session!.pinnedCredentials(rec), { urgent: true }, false);
  }

  whoamiAfterRefresh(token: string): Promise<WhoAmI> {
    if (this.latestWho?.token === token) return this.latestWho.who;
    const rec = this.session?.current();
    const api = rec ? this.pinned(rec) : this.api();
    const entry = {
      token: rec?.access_token ?? token,
      who: api
        .whoami()
        .then((who) => this.sameTenant(who))
        .finally(() => api.close()),
    };
    // A failed read is not remembered: the next subscriber asks again rather than skip its check.
    entry.who.catch(() => {
      if (this.latestWho === entry) this.latestWho = null;
    });
    this.latestWho = entry;
    return entry.who;
  }

  /**
   * A token of this profile's connection cannot belong to another landlord: if /whoami says so
   * (after a refresh, or at any command's start), nothing more is read with it (their data would
   * land in this profile's files) and the profile keeps the tenant it had. Only `meterdata login`,
   * which starts from a profile without a tenant, may sign the profile in to another landlord.
   */
  private sameTenant(who: WhoAmI, afterRefresh = true): WhoAmI {
    const before = this.profile.tenant_id;
    // A stored sign-in whose login never learnt its tenant (its /whoami failed, or it was stopped) pins nothing: any
    // landlord's token would pass, and the first later /whoami would write that landlord in (round 27).
    if (before === undefined) {
      if (this.o.signingIn) return who;
      throw loginIncomplete(this.profile.name);
    }
    // ids compared as the API client compares them (a UUID's case means nothing)
    if (who.tenant_id.toLowerCase() === before.toLowerCase()) return who;
    const same = who.tenant_name === (this.profile.tenant_name ?? before);
    const names = {
      now: same ? `${who.tenant_name}, ${who.tenant_id}` : who.tenant_name,
      before: same ? `${this.profile.tenant_name}, ${before}` : (this.profile.tenant_name ?? before),
      profile: this.profile.name,
    };
    throw new AccessWithdrawnError(afterRefresh ? ts.otherTenant(names) : ts.otherTenantStored(names), {
      code: 'AUTH_OTHER_TENANT',
      hint: ts.otherTenantHint({ login: loginCommand(this.profile.name) }),
      details: { tenantId: who.tenant_id, before },
    });
  }

  /** A stored token's /whoami (any command's): another landlord's token is dropped from the store too, so `token` never hands it out (round 29). */
  private async checkedStored(who: WhoAmI): Promise<void> {
    try {
      this.sameTenant(who, false);
    } catch (e) {
      if (e instanceof AccessWithdrawnError) await withdrawAccess(this.o.env, this.session!, this.session!.current()).catch(() => undefined);
      throw e;
    }
  }

  /**
   * The one subscriber to "tokens refreshed": the new token's /whoami into the profile; a passing failure only warns,
   * and the token, not checked against the profile's landlord, is dropped from the store: the next command refreshes
   * and checks again, and `token` does not print it (round 29: it printed another landlord's token with exit 0).
   */
  private async refreshed(rec: StoredRecord): Promise<void> {
    const api = this.pinned(rec);
    try {
      const who = await this.whoamiAfterRefresh(rec.access_token ?? '');
      // the new tokens are stored, /whoami answered: a config.json not noting it ends no run (a stop is told as the stop)
      const unsaved = (e: unknown) => ((this.unnoted = true), this.o.signal?.aborted || this.session!.warn(ts.connectionNotNoted({ reason: refusalWords(e) })));
      this.profile = await this.session!.saveReconciled((latest) => profileFrom(latest, who, api), unsaved);
    } catch (e) {
      // A token whose check failed, whatever failed it (another landlord's, a 5xx, a 401, a 404), is not kept for
      // `meterdata token`, which asks no /whoami, to hand out (rounds 27 and 29; 32a F5: a 4xx kept it).
      await withdrawAccess(this.o.env, this.session!, rec).catch(() => undefined);
      // The API refusing a token the sign-in server issued a moment ago says nothing of the connection: the next
      // command's refresh does (32a F5: "the connection ended, sign in again", and the next run worked).
      if (e instanceof NotSignedInError && e.code === 'AUTH_CONNECTION_ENDED')
        throw new ServiceUnavailableError(ts.newTokenRefused, {
          code: 'AUTH_NEW_TOKEN_REFUSED',
          hint: ts.newTokenRefusedHint({ login: loginCommand(this.profile.name) }),
          cause: e,
        });
      if (!(e instanceof ServiceUnavailableError)) throw e;
      this.unchecked = e;
      this.session!.warn(ts.whoamiFailed({ reason: e.message }));
    } finally {
      await api.close();
    }
  }

  async reconcile(opts: { refreshOn401?: boolean } = {}): Promise<Profile> {
    const session = this.session;
    const api = session && !opts.refreshOn401 ? this.pinned(session.current()) : this.api();
    try {
      // A refresh on the way (the token had expired) has just read /whoami for the new token: its answer is used.
      const token = opts.refreshOn401 ? await this.credentials.currentToken() : null;
      const who = token !== null && this.latestWho?.token === token ? await this.latestWho.who : await api.whoami();
      if (session) await this.checkedStored(who); // never written into the profile: only login (a profile without a tenant) signs it in elsewhere
      if (!session) return await profileFrom(this.profile, who, api);
      // a config.json too full to note the facts is a warning (once: round 41 L1), not a connection that does not work
      // (40a F2), except to login (a sign-in never completed); a lock or disk refusing it stays status's problem
      const full = (e: unknown) => !this.o.signingIn && e instanceof MeterdataError && e.code === 'CONFIG_FULL';
      const unsaved = (e: unknown) => (!full(e) ? Promise.reject(e) : this.unnoted ? undefined : session.warn(ts.checkNotNoted({ reason: refusalWords(e) })));
      this.profile = await session.saveReconciled((latest) => profileFrom(latest, who, api), unsaved);
      return this.profile;
    } finally {
      await api.close();
    }
  }

  async close(): Promise<void> {
    this.scheduler.close();
    const perfNow = performance.now();
    await writeWindow(
      this.windowFile,
      this.budget.recent(perfNow).map((t) => t + this.offset),
      perfNow + this.offset,
    );
  }
}

/** The profile's one pacer, counting the requests other processes of the profile made in the last minute. */
async function budgetFor(o: ConnectionOptions, profile: string): Promise<{ budget: RateBudget; seeded: number[] }> {
  // Tests shorten the window so a "minute" of requests takes seconds, and widen the burst so a run spends its window at once.
  const windowMs = testNumber(o.env, 'RATE_WINDOW_MS');
  const burst = testNumber(o.env, 'RATE_BURST');
  const maxPausedMs = testNumber(o.env, 'RETRY_AFTER_TOTAL_MS');
  const budget = new RateBudget({
    perMinute: o.rateLimitPerMinute ?? 300,
    ...(windowMs ? { windowMs, marginMs: Math.min(1000, windowMs / 10) } : {}),
    ...(burst ? { burst } : {}),
    ...(maxPausedMs ? { maxPausedMs } : {}),
  });
  return { budget, seeded: await readWindow(sharedWindowFile(o.env, profile), Date.now(), budget.windowMs) };
}

/** Exit 3: a stored sign-in without a tenant in its profile is no sign-in a command may use. */
export function loginIncomplete(profile: string): NotSignedInError {
  return new NotSignedInError(ts.loginIncomplete({ profile }), {
    code: 'AUTH_LOGIN_INCOMPLETE',
    hint: ts.loginIncompleteHint({ login: loginCommand(profile) }),
  });
}

/** A connection over a session opened by the caller (sign-in, right after the tokens were stored). */
export async function connectionFor(session: Session, o: ConnectionOptions): Promise<Connection> {
  const { budget, seeded } = await budgetFor(o, session.profile.name);
  return new Link(session.profile, session.profile.base_url.replace(/\/$/, ''), session.credentials(), session, o, budget, seeded);
}

/**
 * Opens the profile's connection. METERDATA_ACCESS_TOKEN (with METERDATA_BASE_URL or the
 * profile's base_url) overrides the store and is never refreshed.
 * Throws NotSignedInError (exit 3) when the profile has no sign-in.
 */
export async function openConnection(opts: ConnectionOptions & { profile?: string }): Promise<Connection> {
  const { env } = opts;
  const name = resolveProfileName({ profile: opts.profile }, env);
  const profile = await loadProfile(env, name, opts.config);
  const staticToken = env.METERDATA_ACCESS_TOKEN;
  if (staticToken) {
    const base = env.METERDATA_BASE_URL || profile?.base_url;
    if (!base) {
      throw new UsageError(ts.noBaseUrl, ts.noBaseUrlHint({ profile: name }), 'USAGE_NO_BASE_URL');
    }
    const baseUrl = base.replace(/\/$/, '');
    // Checked here, before anything parses it: a typo in a cron script is a usage error, not a crash.
    tokenSafeUrl(baseUrl, ts.apiBaseUrl, ts.setBaseUrl);
    const p: Profile = profile ?? {
      name,
      auth_url: new URL(baseUrl).origin,
      base_url: baseUrl,
      resource: new URL(baseUrl).origin,
      client_id: '',
      client_auth: 'none',
      dpop: false,
      scopes: DEFAULT_SCOPES,
      credential_store: 'keychain',
    };
    const { budget, seeded } = await budgetFor(opts, name);
    return new Link(p, baseUrl, staticCredentials(staticToken), undefined, opts, budget, seeded);
  }
  if (!profile) throw notSignedIn(name);
  const session = await Session.open(profile, env, opts.warn, opts.signal);
  return connectionFor(session, opts);
}
