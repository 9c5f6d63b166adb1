// The one API helper: typed access to the nine /v1 endpoints, paginated to the end,
// answers checked against the contract, and 404s on ids seen earlier in the run read as
// withdrawn access (spec "Property scope" rule 4). Pacing and retries live in transport.
import { ServiceUnavailableError } from '../core/errors.js';
import { checkEchoedRange, checkGranted, checkSubject, type Grant } from './answers.js';
import { DevicePlaces } from './device-places.js';
import type { PropertyAnswers } from './walk.js';
import { tokenSafeUrl } from '../core/secure-url.js';
import type { ApiClient, ApiClientOptions, RangeQuery, UnknownValue } from './contracts.js';
import { MAX_ANSWER_BYTES, MAX_PAGES } from './limits.js';
import { RateBudget, Scheduler } from './pacer.js';
import { readNotFound, scopeLeft, withdrawnAccess, type Subject } from './not-found.js';
import { ownedBy, paginate } from './paginate.js';
import { ApiProblemError, endpointNotFound } from './problems.js';
import { check, MAX_DEPTH, SchemaViolation, tooDeep, type Schema } from './schema.js';
import * as S from './schemas.js';
import { SeenIds, type Kind } from './seen.js';
import { Transport } from './transport.js';
import type { MeasuringPoint, MeasuringPointConsumption, Metric, Property, UnitConsumption, UsageUnit, WhoAmI } from './types.js';
import { UUID } from './types.js';
import { packageVersion } from '../core/resources.js';
import { kinds, t } from './texts.js';

export { PAGE_LIMIT } from './paginate.js';

/** A kind as the id check names it: a unit is a usage unit there. */
const KIND_WORD = { property: 'property', unit: 'usageUnit', point: 'point' } as const satisfies Record<Kind, keyof typeof kinds>;

export function defaultConcurrency(perMinute: number): number {
  // Enough requests in flight to keep the rate busy at ~1-2 s latency, never a crowd.
  return Math.max(2, Math.min(16, Math.ceil(perMinute / 60) * 2));
}

/** A pacer of its own, for a client made without a connection (tests, benchmarks). */
export function pacerFor(opts: Pick<ApiClientOptions, 'rateLimitPerMinute' | 'burst' | 'concurrency' | 'retryAfterTotalMs'>): Scheduler {
  const perMinute = opts.rateLimitPerMinute ?? 300;
  const budget = new RateBudget({
    perMinute,
    ...(opts.burst === undefined ? {} : { burst: opts.burst }),
    ...(opts.retryAfterTotalMs === undefined ? {} : { maxPausedMs: opts.retryAfterTotalMs }),
  });
  return new Scheduler(budget, Math.max(1, opts.concurrency ?? defaultConcurrency(perMinute)));
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  // Every request carries the access token: never in clear to another machine.
  tokenSafeUrl(opts.baseUrl, t.apiBaseUrl, t.useHttps);
  // The fetcher re-reads /whoami through the client itself, so a withdrawal seen there is remembered too.
  const fetcher = checkedFetcher(opts, () => client.whoami());
  const client = endpoints(fetcher, opts.now ?? (() => new Date()), opts.checkWho);
  return client;
}

/** The transport of one client: its pacing, retries and limits, from the options or their defaults. */
function openTransport(opts: ApiClientOptions, onTokenChanged: (token: string) => void): Transport {
  return new Transport({
    baseUrl: opts.baseUrl,
    credentials: opts.credentials,
    scheduler: opts.scheduler ?? pacerFor(opts),
    maxAttempts: Math.max(1, opts.maxAttempts ?? 6),
    retryBaseMs: opts.retryBaseMs ?? 250,
    retryMaxMs: opts.retryMaxMs ?? 8_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
    maxAnswerBytes: opts.maxAnswerBytes ?? MAX_ANSWER_BYTES,
    signal: opts.signal,
    onEvent: opts.onEvent ?? (() => {}),
    userAgent: `meterdata/${packageVersion()}`,
    onTokenChanged,
    ownsScheduler: !opts.scheduler,
    ...(opts.urgent ? { urgent: true } : {}),
  });
}

/** What every endpoint of one client shares: its transport, the ids its answers showed, checked GETs and lists. */
interface Fetcher {
  transport: Transport;
  seen: SeenIds;
  /** GET, map a 404 on `subject`, check the answer against `schema`. */
  get(path: string, schema: Schema, subject?: Subject, userInput?: boolean): Promise<unknown>;
  list<T>(path: string, item: Schema, rememberItem: (x: T) => void, subject?: Subject): ReturnType<typeof paginate<T>>;
  rememberScope(who: WhoAmI): void;
  /** The last /whoami's grant: every Property and unit listed or fetched is checked against it (answers.ts checkGranted). */
  grant: Grant | null;
}

function checkedFetcher(opts: ApiClientOptions, whoami: () => Promise<WhoAmI>): Fetcher {
  /** The new access token, once one appeared: the spec wants /whoami re-read after every refresh. */
  let scopeStale: string | null = null;
  let reconciling: Promise<void> | null = null;
  const transport = openTransport(opts, (token) => {
    scopeStale = token;
  });
  const onUnknown: (u: UnknownValue) => void = opts.onUnknownValue ?? (() => {});
  /** Every id an answer of this client has shown, so a withdrawal is reported as what the landlord changed. */
  const seen = new SeenIds();

  /** A 404 on `subject`, diagnosed; a known id is withdrawn access once /whoami is re-read (rule 4). */
  async function vanished(subject: Subject, e: ApiProblemError): Promise<Error> {
    const known = seen.get(subject.id);
    const read = readNotFound(subject, known, e);
    if (read !== 'withdrawn') return read;
    const who = await whoami();
    return withdrawnAccess(subject, known!, known!.propertyId ? (seen.get(known!.propertyId)?.name ?? null) : null, who, e.traceId);
  }

  /** After a token refresh: a property seen earlier that the grant no longer lists is withdrawn access. */
  async function reconcile(token: string): Promise<void> {
    const who = opts.whoamiAfterRefresh ? await opts.whoamiAfterRefresh(token) : await whoami();
    const left = scopeLeft(seen.entries(), who);
    if (left) throw left;
    rememberScope(who);
  }

  function rememberScope(who: WhoAmI): void {
    if (Array.isArray(who.property_scope)) for (const p of who.property_scope) seen.remember('property', p);
    fetcher.grant = { tenantId: who.tenant_id, scope: who.property_scope };
  }

  async function get(path: string, schema: Schema, subject?: Subject, userInput = false): Promise<unknown> {
    if (scopeStale !== null && path !== '/whoami') {
      const token = scopeStale;
      scopeStale = null;
      reconciling ??= reconcile(token).finally(() => {
        reconciling = null;
      });
    }
    if (reconciling && path !== '/whoami') await reconciling;
    let json: unknown;
    try {
      json = await transport.getJson(path, userInput);
    } catch (e) {
      if (e instanceof ApiProblemError && e.status === 404) throw subject ? await vanished(subject, e) : endpointNotFound(e);
      throw e;
    }
    try {
      if (tooDeep(json)) throw new SchemaViolation('$', t.tooDeep({ max: MAX_DEPTH }));
      check(json, schema, onUnknown);
    } catch (e) {
      if (!(e instanceof SchemaViolation)) throw e;
      throw new ServiceUnavailableError(t.badAnswer({ endpoint: transport.endpoint(path), problem: e.message.replace(/^\$\.?\s*/, '') }), {
        code: 'API_BAD_ANSWER',
        hint: t.badAnswerHint,
        details: { endpoint: transport.endpoint(path), field: e.path, problem: e.problem },
      });
    }
    return json;
  }

  const maxPages = opts.maxPages ?? MAX_PAGES;
  const list = <T>(path: string, item: Schema, rememberItem: (x: T) => void, subject?: Subject) =>
    paginate<T>((p, schema) => get(p, schema, subject), transport.endpoint(path), path, item, rememberItem, maxPages);
  const fetcher: Fetcher = { transport, seen, get, list, rememberScope, grant: null };
  return fetcher;
}

// An id goes into a URL path only when it is the UUID the contract promises: a server
// that sends "../admin" or "x?y=" as an id must not steer the next request elsewhere.
function id(x: string, kind: Kind): string {
  if (!UUID.test(x)) {
    throw new ServiceUnavailableError(t.badId({ kind: kinds[KIND_WORD[kind]], id: JSON.stringify(x) }), {
      code: 'API_BAD_ID',
      hint: t.badIdHint,
      details: { kind, id: x },
    });
  }
  return x;
}

function rangeQuery(r: RangeQuery, metrics?: Metric[]): string {
  return (
    `?from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}` +
    (metrics && metrics.length > 0 ? `&metric=${metrics.map(encodeURIComponent).join(',')}` : '')
  );
}

/** The devices of a Property's answers read back from a journal, noted as if fetched (see ApiClient.noteSaved). */
function noteSaved(devices: DevicePlaces, endpoint: (path: string) => string, answers: PropertyAnswers): void {
  const property = answers.property.id;
  for (const { unit, consumption } of answers.units) {
    const at = endpoint(`/usage-units/${unit.id}/consumption`);
    for (const p of consumption.measuring_points) devices.note(at, property, p.measuring_point_id, p.segments);
  }
  for (const { consumption: c } of answers.plantPoints)
    devices.note(endpoint(`/measuring-points/${c.measuring_point_id}/readings`), property, c.measuring_point_id, c.segments);
}

/** The nine endpoints, each checking that the answer is about what it asked for. */
function endpoints(f: Fetcher, now: () => Date, checkWho: (who: WhoAmI) => void | Promise<void> = () => undefined): ApiClient {
  const { transport, seen, list } = f;
  const devices = new DevicePlaces();
  return {
    async whoami() {
      const who = (await f.get('/whoami', S.whoAmI)) as WhoAmI;
      if (typeof who.property_scope === 'string' && who.property_scope !== 'all') {
        throw new ServiceUnavailableError(t.badAnswer({ endpoint: transport.endpoint('/whoami'), problem: t.badScope({ value: who.property_scope }) }), {
          code: 'API_BAD_ANSWER',
          details: { endpoint: transport.endpoint('/whoami'), field: '$.property_scope' },
        });
      }
      await checkWho(who);
      f.rememberScope(who);
      return who;
    },
    listProperties() {
      const endpoint = transport.endpoint('/properties');
      return list<Property>('/properties', S.property, (x) => (checkGranted(endpoint, 'Property', x, x.id, f.grant), seen.rememberProperty(x)));
    },
    async getProperty(pid) {
      const path = `/properties/${id(pid, 'property')}`;
      const p = (await f.get(path, S.property, { kind: 'property', id: pid })) as Property;
      checkSubject(transport.endpoint(path), 'property', 'id', pid, p.id);
      checkGranted(transport.endpoint(path), 'Property', p, p.id, f.grant);
      seen.rememberProperty(p);
      return p;
    },
    listPropertyMeasuringPoints(pid) {
      const path = `/properties/${id(pid, 'property')}/measuring-points`;
      return list<MeasuringPoint>(path, S.measuringPoint, (p) => (ownedBy(transport.endpoint(path), pid, p), seen.rememberPoint(p)), {
        kind: 'property',
        id: pid,
      });
    },
    listUsageUnits(query = {}) {
      const pid = query.propertyId;
      const granted = (endpoint: string, u: UsageUnit) => checkGranted(endpoint, 'usageUnit', u, u.property_id, f.grant);
      if (pid === undefined) return list<UsageUnit>('/usage-units', S.usageUnit, (x) => (granted(transport.endpoint('/usage-units'), x), seen.rememberUnit(x)));
      const path = `/usage-units?property_id=${id(pid, 'property')}`;
      const endpoint = transport.endpoint(path);
      return list<UsageUnit>(path, S.usageUnit, (u) => (ownedBy(endpoint, pid, u), granted(endpoint, u), seen.rememberUnit(u)), { kind: 'property', id: pid });
    },
    async getUsageUnit(uid) {
      const path = `/usage-units/${id(uid, 'unit')}`;
      const u = (await f.get(path, S.usageUnit, { kind: 'unit', id: uid })) as UsageUnit;
      checkSubject(transport.endpoint(path), 'usageUnit', 'id', uid, u.id);
      checkGranted(transport.endpoint(path), 'usageUnit', u, u.property_id, f.grant);
      seen.rememberUnit(u);
      return u;
    },
    async unitConsumption(uid, range) {
      const path = `/usage-units/${id(uid, 'unit')}/consumption${rangeQuery(range, range.metrics)}`;
      const c = (await f.get(path, S.unitConsumption, { kind: 'unit', id: uid }, true)) as UnitConsumption;
      checkSubject(transport.endpoint(path), 'usageUnit', 'usage_unit_id', uid, c.usage_unit_id);
      checkEchoedRange(transport.endpoint(path), range, c, now());
      seen.remember('unit', c.usage_unit_id);
      for (const p of c.measuring_points) seen.rememberConsumption(p);
      const property = seen.get(uid)?.propertyId;
      for (const p of c.measuring_points) devices.note(transport.endpoint(path), property, p.measuring_point_id, p.segments);
      return c;
    },
    async getMeasuringPoint(pid) {
      const path = `/measuring-points/${id(pid, 'point')}`;
      const p = (await f.get(path, S.measuringPoint, { kind: 'point', id: pid })) as MeasuringPoint;
      if (p.id !== undefined) checkSubject(transport.endpoint(path), 'point', 'id', pid, p.id); // the contract leaves its id "not shown"
      seen.rememberPoint(p);
      return p;
    },
    async pointReadings(pid, range) {
      const path = `/measuring-points/${id(pid, 'point')}/readings${rangeQuery(range)}`;
      const c = (await f.get(path, S.pointConsumption, { kind: 'point', id: pid }, true)) as MeasuringPointConsumption;
      checkSubject(transport.endpoint(path), 'point', 'measuring_point_id', pid, c.measuring_point_id);
      seen.rememberConsumption(c);
      devices.note(transport.endpoint(path), seen.get(pid)?.propertyId, pid, c.segments);
      return c;
    },
    forgetProperty(propertyId) {
      seen.forgetProperty(propertyId);
    },
    noteSaved: (answers) => noteSaved(devices, (p) => transport.endpoint(p), answers),
    stats() {
      return { ...transport.stats };
    },
    close() {
      return transport.close();
    },
  };
}
