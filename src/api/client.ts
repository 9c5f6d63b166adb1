// The one API helper: typed access to the nine /v1 endpoints, paginated to the end,
// answers checked against the contract, and 404s on ids seen earlier in the run read as
// withdrawn access (spec "Property scope" rule 4). Pacing and retries live in transport.
import { AccessWithdrawnError, ServiceUnavailableError } from '../core/errors.js';
import { checkEchoedRange, checkSubject } from './answers.js';
import { tokenSafeUrl } from '../core/secure-url.js';
import type { ApiClient, ApiClientOptions, RangeQuery, UnknownValue } from './contracts.js';
import { MAX_ANSWER_BYTES, MAX_PAGES } from './limits.js';
import { RateBudget, Scheduler } from './pacer.js';
import { ApiProblemError, notFound, unexpectedNotFound } from './problems.js';
import { check, MAX_DEPTH, SchemaViolation, tooDeep, type Schema } from './schema.js';
import * as S from './schemas.js';
import { Transport } from './transport.js';
import type {
  MeasuringPoint,
  MeasuringPointConsumption,
  Metric,
  Property,
  UnitConsumption,
  UsageUnit,
  WhoAmI,
} from './types.js';
import { UUID } from './types.js';
import { packageVersion } from '../core/resources.js';

/** The page size the contract allows at most: fewest requests for a full walk. */
export const PAGE_LIMIT = 200;

const WITHDRAWN_HINT =
  'The landlord changed which properties this connection may read. Ask them to include it again (they reconnect the application in the portal), then run the command again.';

type Kind = 'property' | 'unit' | 'point';
const KIND_TEXT: Record<Kind, string> = { property: 'property', unit: 'usage unit', point: 'measuring point' };
/** The id a request is about, for telling "withdrawn" from "never existed" on a 404. */
interface Subject {
  kind: Kind;
  id: string;
}

export function defaultConcurrency(perMinute: number): number {
  // Enough requests in flight to keep the rate busy at ~1-2 s latency, never a crowd.
  return Math.max(2, Math.min(16, Math.ceil(perMinute / 60) * 2));
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  // Every request carries the access token: never in clear to another machine.
  tokenSafeUrl(opts.baseUrl, 'The API base URL', 'Use the https address of the service (METERDATA_BASE_URL or the profile\'s base_url), or sign in again with meterdata login.');
  const perMinute = opts.rateLimitPerMinute ?? 300;
  const budget = new RateBudget({ perMinute, ...(opts.burst === undefined ? {} : { burst: opts.burst }) });
  const scheduler = new Scheduler(budget, Math.max(1, opts.concurrency ?? defaultConcurrency(perMinute)));
  const transport = new Transport({
    baseUrl: opts.baseUrl,
    credentials: opts.credentials,
    scheduler,
    maxAttempts: Math.max(1, opts.maxAttempts ?? 6),
    retryBaseMs: opts.retryBaseMs ?? 250,
    retryMaxMs: opts.retryMaxMs ?? 8_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
    maxAnswerBytes: opts.maxAnswerBytes ?? MAX_ANSWER_BYTES,
    signal: opts.signal,
    onEvent: opts.onEvent ?? (() => {}),
    userAgent: `meterdata/${packageVersion()}`,
    onTokenChanged: () => {
      scopeStale = true;
    },
  });
  const onUnknown: (u: UnknownValue) => void = opts.onUnknownValue ?? (() => {});
  const now = opts.now ?? (() => new Date());
  /**
   * Every property, unit and point id an answer of this client has shown, with a name and
   * the Property it belongs to, so a withdrawal is reported as what the landlord changed.
   */
  const seen = new Map<string, { kind: Kind; name: string | null; propertyId: string | null }>();
  /** Set when a new access token appeared: the spec wants /whoami re-read after every refresh. */
  let scopeStale = false;
  let reconciling: Promise<void> | null = null;

  const remember = (kind: Kind, id: string | null | undefined, name: string | null = null, propertyId: string | null = null) => {
    if (!id) return;
    const known = seen.get(id);
    seen.set(id, { kind, name: known?.name ?? name, propertyId: known?.propertyId ?? (kind === 'property' ? id : propertyId) });
  };
  const pointName = (metric: string | undefined, serial: string | null | undefined) =>
    `${metric ?? 'measuring'} point${serial ? ` (device ${serial})` : ''}`;

  const rememberProperty = (p: Property) => remember('property', p.id, p.name);
  const rememberUnit = (u: UsageUnit) => {
    remember('unit', u.id, u.name, u.property_id);
    remember('property', u.property.id, u.property.name);
    for (const mp of u.measuring_points) remember('point', mp.measuring_point_id, pointName(mp.metric, mp.active_device_serial), u.property_id);
  };
  const rememberPoint = (p: MeasuringPoint) => {
    remember('point', p.id, pointName(p.metric, p.active_device?.serial), p.property_id);
    remember('property', p.property_id);
    remember('unit', p.usage_unit_id, null, p.property_id);
    for (const a of p.allocations ?? []) remember('unit', a.usage_unit_id, null, p.property_id);
  };
  const rememberConsumption = (c: MeasuringPointConsumption) =>
    remember('point', c.measuring_point_id, pointName(c.metric, c.segments.at(-1)?.serial));

  async function vanished(subject: Subject, e: ApiProblemError): Promise<Error> {
    const known = seen.get(subject.id);
    // Only the contract's resource-not-found says "gone": a proxy's HTML 404 or another fragment does not.
    if (known && e.problemCode !== 'resource-not-found') return unexpectedNotFound(e.endpoint, e.problem);
    if (!known) return e.problemCode === 'resource-not-found' || e.problem === null ? notFound(e.endpoint, subject.kind === 'point' ? 'measuring point' : subject.kind, subject.id, e.problem) : e;
    // Rule 4: a 404 on a known id is withdrawn access; re-check what the grant still covers.
    const who = await client.whoami();
    const label = (id: string, name: string | null) => (name ? `"${name}" (${id})` : id);
    const kindText = known.kind === 'point' ? 'measuring point' : known.kind;
    const n = who.property_scope === 'all' ? 0 : who.property_scope.length;
    const scope = who.property_scope === 'all' ? 'all properties' : `${n} selected ${n === 1 ? 'property' : 'properties'}`;
    const owner = known.propertyId && known.propertyId !== subject.id ? { id: known.propertyId, name: seen.get(known.propertyId)?.name ?? null } : null;
    const ownerLeft = owner !== null && who.property_scope !== 'all' && !who.property_scope.includes(owner.id);
    const details = { kind: known.kind, id: subject.id, name: known.name, propertyId: known.propertyId, propertyScope: who.property_scope, traceId: e.traceId };
    if (ownerLeft) {
      // Say what the landlord changed (a Property left the selection), then what showed it.
      return new AccessWithdrawnError(
        `Access to property ${label(owner.id, owner.name)} was withdrawn: the landlord's selection for this connection no longer includes it (it now covers ${scope}); its ${kindText} ${label(subject.id, known.name)} answered "not found".`,
        { hint: WITHDRAWN_HINT, details },
      );
    }
    const of = owner ? ` of property ${label(owner.id, owner.name)}` : '';
    return new AccessWithdrawnError(
      `Access to ${kindText} ${label(subject.id, known.name)}${of} was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers ${scope}).`,
      { hint: WITHDRAWN_HINT, details },
    );
  }

  /** After a token refresh: a property seen earlier that the grant no longer lists is withdrawn access. */
  async function reconcile(): Promise<void> {
    const who = await client.whoami();
    if (who.property_scope === 'all') return;
    const allowed = new Set(who.property_scope);
    for (const [pid, known] of seen) {
      if (known.kind !== 'property' || allowed.has(pid)) continue;
      throw new AccessWithdrawnError(
        `Access to property ${known.name ? `"${known.name}" (${pid})` : pid} was withdrawn: after the sign-in was refreshed, the connection no longer covers it.`,
        { hint: WITHDRAWN_HINT, details: { kind: 'property', id: pid, name: known.name, propertyScope: who.property_scope } },
      );
    }
  }

  /** GET, map a 404 on `subject`, check the answer against `schema`. */
  async function fetchChecked(path: string, schema: Schema, subject?: Subject, userInput = false): Promise<unknown> {
    if (scopeStale && path !== '/whoami') {
      scopeStale = false;
      reconciling ??= reconcile().finally(() => {
        reconciling = null;
      });
    }
    if (reconciling && path !== '/whoami') await reconciling;
    let json: unknown;
    try {
      json = await transport.getJson(path, userInput);
    } catch (e) {
      if (e instanceof ApiProblemError && e.status === 404 && subject) throw await vanished(subject, e);
      throw e;
    }
    try {
      if (tooDeep(json)) throw new SchemaViolation('$', `nests deeper than ${MAX_DEPTH} levels`);
      check(json, schema, onUnknown);
    } catch (e) {
      if (!(e instanceof SchemaViolation)) throw e;
      throw new ServiceUnavailableError(
        `The metering service sent an answer to ${transport.endpoint(path)} that breaks the API contract: ${e.message.replace(/^\$\.?\s*/, '')}.`,
        {
          code: 'API_BAD_ANSWER',
          hint: 'Try again later; if it persists, report it to the service (the answer does not match contract 1.0.0-rc.3).',
          details: { endpoint: transport.endpoint(path), field: e.path, problem: e.problem },
        },
      );
    }
    return json;
  }

  const maxPages = opts.maxPages ?? MAX_PAGES;
  /** A listing that would never end: exit 5 naming the endpoint, before anything repeated is handed on. */
  const endless = (path: string, code: string, what: string, pages: number) =>
    new ServiceUnavailableError(`The metering service's list ${transport.endpoint(path)} does not end: it ${what}; stopped after ${pages} ${pages === 1 ? 'page' : 'pages'} instead of looping forever.`, {
      code,
      hint: 'Try again later; if it persists, report it to the service (its pagination breaks contract 1.0.0-rc.3).',
      details: { endpoint: transport.endpoint(path), pages },
    });

  /**
   * Follows next_cursor to the end, one page ahead of nobody: the next page is fetched when
   * the caller gets there. Every page must bring new items, so a walk ends: an empty page
   * that names a next one, an item listed twice (a cycle under fresh cursors), a cursor
   * seen before, or more than maxPages pages stop it.
   */
  async function* paginate<T>(path: string, item: Schema, rememberItem: (x: T) => void, subject?: Subject): AsyncGenerator<T> {
    const cursors = new Set<string>();
    const listed = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    const sep = path.includes('?') ? '&' : '?';
    for (;;) {
      const query = `${sep}limit=${PAGE_LIMIT}${cursor === null ? '' : `&page_cursor=${encodeURIComponent(cursor)}`}`;
      const page = (await fetchChecked(path + query, S.page(item), subject)) as { data: T[]; next_cursor: string | null };
      pages++;
      for (const x of page.data) {
        const itemId = (x as { id?: unknown }).id;
        if (typeof itemId !== 'string') continue;
        if (listed.has(itemId)) throw endless(path, 'API_PAGE_REPEATS', `listed ${itemId} again on page ${pages}`, pages);
        listed.add(itemId);
      }
      for (const x of page.data) rememberItem(x);
      yield* page.data;
      if (page.next_cursor === null) return;
      if (page.data.length === 0) throw endless(path, 'API_EMPTY_PAGE', `sent page ${pages} without items but with a cursor to another page`, pages);
      if (cursors.has(page.next_cursor)) throw endless(path, 'API_CURSOR_LOOP', 'returned the same page cursor twice', pages);
      if (pages >= maxPages) throw endless(path, 'API_TOO_MANY_PAGES', `still named a next page after ${maxPages} pages (${maxPages * PAGE_LIMIT} items, far more than any landlord's data)`, pages);
      cursors.add(page.next_cursor);
      cursor = page.next_cursor;
    }
  }

  // An id goes into a URL path only when it is the UUID the contract promises: a server
  // that sends "../admin" or "x?y=" as an id must not steer the next request elsewhere.
  const id = (x: string, kind: Kind) => {
    if (!UUID.test(x)) {
      throw new ServiceUnavailableError(`The metering service sent a ${KIND_TEXT[kind]} id that is not a UUID (${JSON.stringify(x)}); meterdata will not put it into a request.`, {
        code: 'API_BAD_ID',
        hint: 'Try again later; if it persists, report it to the service (ids must be UUIDs under contract 1.0.0-rc.3).',
        details: { kind, id: x },
      });
    }
    return x;
  };
  /** A list asked for one Property holds only its items: another Property's unit or meter would be billed under this one. */
  const ownedBy = (path: string, pid: string, x: { property_id: string }) => checkSubject(transport.endpoint(path), 'Property', 'property_id', pid, x.property_id);
  const rangeQuery = (r: RangeQuery, metrics?: Metric[]) =>
    `?from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}` +
    (metrics && metrics.length > 0 ? `&metric=${metrics.map(encodeURIComponent).join(',')}` : '');

  const client: ApiClient = {
    async whoami() {
      const who = (await fetchChecked('/whoami', S.whoAmI)) as WhoAmI;
      if (typeof who.property_scope === 'string' && who.property_scope !== 'all') {
        throw new ServiceUnavailableError(
          `The metering service sent an answer to ${transport.endpoint('/whoami')} that breaks the API contract: property_scope is "${who.property_scope}", expected "all" or a list.`,
          { code: 'API_BAD_ANSWER', details: { endpoint: transport.endpoint('/whoami'), field: '$.property_scope' } },
        );
      }
      if (Array.isArray(who.property_scope)) for (const p of who.property_scope) remember('property', p);
      return who;
    },
    listProperties() {
      return paginate<Property>('/properties', S.property, rememberProperty);
    },
    async getProperty(pid) {
      const path = `/properties/${id(pid, 'property')}`;
      const p = (await fetchChecked(path, S.property, { kind: 'property', id: pid })) as Property;
      checkSubject(transport.endpoint(path), 'property', 'id', pid, p.id);
      rememberProperty(p);
      return p;
    },
    listPropertyMeasuringPoints(pid) {
      const path = `/properties/${id(pid, 'property')}/measuring-points`;
      return paginate<MeasuringPoint>(path, S.measuringPoint, (p) => (ownedBy(path, pid, p), rememberPoint(p)), { kind: 'property', id: pid });
    },
    listUsageUnits(query = {}) {
      const pid = query.propertyId;
      if (pid === undefined) return paginate<UsageUnit>('/usage-units', S.usageUnit, rememberUnit);
      const path = `/usage-units?property_id=${id(pid, 'property')}`;
      return paginate<UsageUnit>(path, S.usageUnit, (u) => (ownedBy(path, pid, u), rememberUnit(u)), { kind: 'property', id: pid });
    },
    async getUsageUnit(uid) {
      const path = `/usage-units/${id(uid, 'unit')}`;
      const u = (await fetchChecked(path, S.usageUnit, { kind: 'unit', id: uid })) as UsageUnit;
      checkSubject(transport.endpoint(path), 'usage unit', 'id', uid, u.id);
      rememberUnit(u);
      return u;
    },
    async unitConsumption(uid, range) {
      const path = `/usage-units/${id(uid, 'unit')}/consumption${rangeQuery(range, range.metrics)}`;
      const c = (await fetchChecked(path, S.unitConsumption, { kind: 'unit', id: uid }, true)) as UnitConsumption;
      checkSubject(transport.endpoint(path), 'usage unit', 'usage_unit_id', uid, c.usage_unit_id);
      checkEchoedRange(transport.endpoint(path), range, c, now());
      remember('unit', c.usage_unit_id);
      for (const p of c.measuring_points) rememberConsumption(p);
      return c;
    },
    async getMeasuringPoint(pid) {
      const path = `/measuring-points/${id(pid, 'point')}`;
      const p = (await fetchChecked(path, S.measuringPoint, { kind: 'point', id: pid })) as MeasuringPoint;
      if (p.id !== undefined) checkSubject(transport.endpoint(path), 'measuring point', 'id', pid, p.id); // the contract leaves its id "not shown"
      rememberPoint(p);
      return p;
    },
    async pointReadings(pid, range) {
      const path = `/measuring-points/${id(pid, 'point')}/readings${rangeQuery(range)}`;
      const c = (await fetchChecked(path, S.pointConsumption, { kind: 'point', id: pid }, true)) as MeasuringPointConsumption;
      checkSubject(transport.endpoint(path), 'measuring point', 'measuring_point_id', pid, c.measuring_point_id);
      rememberConsumption(c);
      return c;
    },
    forgetProperty(propertyId) {
      for (const [id, known] of seen) if (known.kind !== 'property' && known.propertyId === propertyId) seen.delete(id);
    },
    stats() {
      return { ...transport.stats };
    },
    close() {
      return transport.close();
    },
  };
  return client;
}
