// The nine GET endpoints of /v1. Each takes the validated token and returns an Answer or
// throws ApiProblem (400/404). Everything outside the property whitelist is 404, never 403.
import type { TokenInfo } from '../contracts.js';
import type { Dataset, PropertyRec } from '../data/index.js';
import { UUID_RE } from '../data/prng.js';
import { envelope, pageRequest } from './pagination.js';
import { badRequest, json, notFound, type Answer } from './problem.js';
import { parseMetrics, parseRange } from './range.js';
import { consumptionJson, pointJson, propertyJson, unitJson } from './serialize.js';

export interface Route {
  /** Normalised template for logs, e.g. `GET /usage-units/{id}/consumption`. */
  template: string;
  scope: string | null;
  handle: (ctx: RouteContext, id: string | undefined) => Answer;
}

export interface RouteContext {
  ds: Dataset;
  token: TokenInfo;
  query: URLSearchParams;
  now: Date;
}

/** Properties this token may see, in stable order. */
function allowed(ctx: RouteContext): PropertyRec[] {
  const props = ctx.ds.properties(ctx.token.tenant_id);
  const scope = ctx.token.property_scope;
  return scope === 'all' ? props : props.filter((p) => scope.includes(ctx.ds.propertyId(p)));
}
const inScope = (ctx: RouteContext, propertyIdx: number) => allowed(ctx).some((p) => p.idx === propertyIdx);

function property(ctx: RouteContext, id: string | undefined): PropertyRec {
  const p = id === undefined ? undefined : ctx.ds.property(id);
  if (!p || !inScope(ctx, p.idx)) throw notFound('The Property');
  return p;
}
function unit(ctx: RouteContext, id: string | undefined) {
  const u = id === undefined ? undefined : ctx.ds.unit(id);
  if (!u || !inScope(ctx, u.propertyIdx)) throw notFound('The usage unit');
  return u;
}
function point(ctx: RouteContext, id: string | undefined) {
  const p = id === undefined ? undefined : ctx.ds.point(id);
  if (!p || !inScope(ctx, p.propertyIdx)) throw notFound('The measuring point');
  return p;
}

const emptyPage = { data: [], next_cursor: null, prev_cursor: null };
const externalRefFilter = (q: URLSearchParams) => (q.get('external_ref') ?? '') !== '';

function whoami(ctx: RouteContext): Answer {
  const t = ctx.ds.tenant(ctx.token.tenant_id);
  const scope = ctx.token.property_scope;
  return json({
    tenant_id: ctx.token.tenant_id,
    tenant_name: t?.name ?? '',
    client_id: ctx.token.client_id,
    granted_scopes: ctx.token.scopes,
    property_scope: scope === 'all' ? 'all' : allowed(ctx).map((p) => ctx.ds.propertyId(p)),
    ...(Number.isFinite(ctx.token.expires_at) && ctx.token.expires_at > 0 ? { token_expires_at: new Date(ctx.token.expires_at * 1000).toISOString() } : {}),
  });
}

function listProperties(ctx: RouteContext): Answer {
  const page = pageRequest(ctx.query, `properties|${ctx.query.get('external_ref') ?? ''}`);
  if (externalRefFilter(ctx.query)) return json(emptyPage);
  const all = allowed(ctx);
  const slice = all.slice(page.offset, page.offset + page.limit).map((p) => propertyJson(ctx.ds, p));
  return json(envelope(page, all.length, slice));
}

function listUnits(ctx: RouteContext): Answer {
  const pid = ctx.query.get('property_id');
  if (pid !== null && !UUID_RE.test(pid)) throw badRequest(`Query parameter 'property_id' has the value '${pid}', which is not a UUID.`);
  const page = pageRequest(ctx.query, `units|${pid ?? ''}|${ctx.query.get('external_ref') ?? ''}`);
  if (externalRefFilter(ctx.query)) return json(emptyPage);
  const props = allowed(ctx).filter((p) => pid === null || ctx.ds.propertyId(p) === pid.toLowerCase());
  const total = props.reduce((n, p) => n + p.unitEnd - p.unitStart, 0);
  // Units of the allowed Properties are contiguous index ranges: page through them without listing all.
  const data = [];
  let skip = page.offset;
  for (const p of props) {
    const size = p.unitEnd - p.unitStart;
    if (skip >= size) {
      skip -= size;
      continue;
    }
    for (let i = p.unitStart + skip; i < p.unitEnd && data.length < page.limit; i++) data.push(unitJson(ctx.ds, ctx.ds.unitByIndex(i)!));
    skip = 0;
    if (data.length >= page.limit) break;
  }
  return json(envelope(page, total, data));
}

function propertyPoints(ctx: RouteContext, id: string | undefined): Answer {
  const p = property(ctx, id);
  const page = pageRequest(ctx.query, `points|${ctx.ds.propertyId(p)}`);
  const all = ctx.ds.pointsOfProperty(p);
  return json(
    envelope(
      page,
      all.length,
      all.slice(page.offset, page.offset + page.limit).map((pt) => pointJson(ctx.ds, pt)),
    ),
  );
}

function unitConsumption(ctx: RouteContext, id: string | undefined): Answer {
  const u = unit(ctx, id);
  const range = parseRange(ctx.query, ctx.now);
  const metrics = parseMetrics(ctx.query);
  const points = ctx.ds.pointsOfUnit(u).filter(({ point: p }) => !metrics || metrics.has(p.metric));
  return json({
    usage_unit_id: ctx.ds.unitId(u),
    external_ref: null,
    from: range.from,
    to: range.to,
    measuring_points: points.map(({ point: p, share }) => consumptionJson(ctx.ds, ctx.ds.consumption(p, range.fromMi, range.toMi), share)),
  });
}

function pointReadings(ctx: RouteContext, id: string | undefined): Answer {
  const p = point(ctx, id);
  const range = parseRange(ctx.query, ctx.now);
  return json(consumptionJson(ctx.ds, ctx.ds.consumption(p, range.fromMi, range.toMi)));
}

const R = (template: string, scope: string | null, handle: Route['handle']): [RegExp, Route] => {
  const re = new RegExp(`^${template.replace('{id}', '([^/]+)')}$`);
  return [re, { template: `GET ${template}`, scope, handle }];
};

const ROUTES: [RegExp, Route][] = [
  R('/whoami', null, whoami),
  R('/properties', 'read:units', listProperties),
  R('/properties/{id}', 'read:units', (ctx, id) => json(propertyJson(ctx.ds, property(ctx, id)))),
  R('/properties/{id}/measuring-points', 'read:devices', propertyPoints),
  R('/usage-units', 'read:units', listUnits),
  R('/usage-units/{id}', 'read:units', (ctx, id) => json(unitJson(ctx.ds, unit(ctx, id)))),
  R('/usage-units/{id}/consumption', 'read:readings', unitConsumption),
  R('/measuring-points/{id}', 'read:devices', (ctx, id) => json(pointJson(ctx.ds, point(ctx, id)))),
  R('/measuring-points/{id}/readings', 'read:readings', pointReadings),
];

/** The route for a path below /v1, with its decoded {id}. */
export function matchRoute(path: string): { route: Route; id: string | undefined } | undefined {
  for (const [re, route] of ROUTES) {
    const m = re.exec(path);
    if (m) {
      let id: string | undefined;
      try {
        id = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
      } catch {
        id = '';
      }
      return { route, id };
    }
  }
  return undefined;
}
