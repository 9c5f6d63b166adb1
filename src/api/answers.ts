// Answers that are well-formed but cannot be the answer to the request: another object
// than the one in the path, or an echoed range the range rules (spec "Range and reading
// rules" 1-2) cannot produce from the requested one. Billing such an answer would put
// another unit's or another period's consumption on a bill, so the run stops (exit 5)
// and nothing is committed.
import { ServiceUnavailableError } from '../core/errors.js';
import type { RangeQuery } from './contracts.js';
import type { MeasuringPointConsumption } from './types.js';
import { kinds, t, type KindWord } from './texts.js';

/**
 * How far this computer's clock may lag the service's before a month the service calls
 * completed looks unfinished here: time zones (up to 14 h) plus ordinary clock drift.
 */
export const CLOCK_ALLOWANCE_MS = 2 * 24 * 3600 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function parts(date: string): { y: number; m: number; d: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

export function monthStart(date: string): string {
  const { y, m } = parts(date);
  return `${y}-${pad(m)}-01`;
}

export function monthEnd(date: string): string {
  const { y, m } = parts(date);
  return `${y}-${pad(m)}-${pad(lastDay(y, m))}`;
}

/** The last day of the last month that has ended at `now` (UTC). */
export function lastCompletedMonthEnd(now: Date): string {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return end.toISOString().slice(0, 10);
}

/**
 * The range the service may answer for: widened to whole months, `to` capped at the last
 * completed month. `to` is the latest end it may echo; any earlier month end from `from`
 * on is a legitimate cap too (the service's clock, a sandbox horizon).
 */
export function contractRange(requested: RangeQuery, now: Date): RangeQuery {
  const from = monthStart(requested.from);
  const wanted = monthEnd(requested.to);
  const latest = lastCompletedMonthEnd(new Date(now.getTime() + CLOCK_ALLOWANCE_MS));
  return { from, to: wanted < latest ? wanted : latest };
}

/** The answer is about the object the path names (UUIDs compare case-insensitively). */
export function checkSubject(endpoint: string, kind: KindWord, field: string, requested: string, received: string): void {
  if (received.toLowerCase() === requested.toLowerCase()) return;
  throw new ServiceUnavailableError(t.wrongObject({ endpoint, kind: kinds[kind], received, requested }), {
    code: 'API_WRONG_OBJECT',
    hint: t.notBilledHint,
    details: { endpoint, field, requested, received },
  });
}

/** The echoed from/to is what the range rules make of the requested range. */
export function checkEchoedRange(endpoint: string, requested: RangeQuery, echoed: RangeQuery, now: Date): void {
  const allowed = contractRange(requested, now);
  let why: string | null = null;
  if (echoed.from !== allowed.from) why = t.shouldStart({ from: allowed.from });
  else if (echoed.to !== monthEnd(echoed.to)) why = t.notMonthEnd;
  else if (echoed.to < monthEnd(allowed.from)) why = t.endsBefore;
  else if (echoed.to > monthEnd(requested.to)) why = t.endsAfter({ end: monthEnd(requested.to) });
  else if (echoed.to > allowed.to) why = t.pastCompleted({ end: allowed.to });
  if (why === null) return;
  throw new ServiceUnavailableError(t.wrongRange({ endpoint, echoed: t.range(echoed), asked: t.range(requested), why }), {
    code: 'API_WRONG_RANGE',
    hint: t.wrongRangeHint,
    details: { endpoint, requested, received: echoed, allowed },
  });
}

/**
 * The one period every unit's answer echoes, for answers asked with one range: the range rules give every unit
 * of a request the same echo, so a unit whose answer names another period (a half year beside whole years) is
 * refused, not set beside the others (its figures would look half or twice as large). null without units.
 */
export function onePeriod(property: string, units: readonly { unit: { name: string }; consumption: RangeQuery }[], asked: RangeQuery): RangeQuery | null {
  const first = units[0];
  if (!first) return null;
  const period = { from: first.consumption.from, to: first.consumption.to };
  const other = units.find(({ consumption: c }) => c.from !== period.from || c.to !== period.to);
  if (!other) return period;
  const echoed = { from: other.consumption.from, to: other.consumption.to };
  throw new ServiceUnavailableError(
    t.mixedRange({ property, unit: other.unit.name, echoed: t.range(echoed), first: t.range(period), firstUnit: first.unit.name, asked: t.range(asked) }),
    { code: 'API_WRONG_RANGE', hint: t.notBilledHint, details: { requested: asked, received: echoed, first: period } },
  );
}

/**
 * A plant-room or main meter's /readings answer echoes no range (MeasuringPointConsumption), yet it was asked
 * for the Property's period, which its units' answers echo (`period`): a `from` or `to` it carries anyway must be
 * that period, and its readings, month ends within the range (range rule 3), must lie in it. Another period's
 * answer (2024's readings beside 2025's units) would be billed in plant-points.csv as this period's.
 */
export function checkPlantPeriod(property: string, answer: MeasuringPointConsumption, period: RangeQuery): void {
  const extra = answer as { from?: unknown; to?: unknown };
  const echoed = { from: typeof extra.from === 'string' ? extra.from : period.from, to: typeof extra.to === 'string' ? extra.to : period.to };
  const dates = answer.segments.flatMap((s) => s.readings.map((r) => r.at));
  const outside = dates.filter((at) => at < period.from || at > period.to).sort();
  if (echoed.from === period.from && echoed.to === period.to && outside.length === 0) return;
  const shown = outside.length > 0 ? { from: outside[0]!, to: outside.at(-1)! } : echoed;
  throw new ServiceUnavailableError(t.plantPeriod({ property, point: answer.measuring_point_id, echoed: t.range(shown), period: t.range(period) }), {
    code: 'API_WRONG_RANGE',
    hint: t.notBilledHint,
    details: { point: answer.measuring_point_id, received: echoed, readingsOutside: outside.length, period },
  });
}

/** What /whoami granted this connection: its tenant, and the Properties it may read ('all', or a whitelist). */
export interface Grant {
  tenantId: string;
  scope: readonly string[] | 'all';
}

/**
 * A Property or unit an answer lists belongs to the connection: its tenant, and (a whitelist scope) one of the
 * Properties the landlord consented to (spec: tokens are scoped per tenant and Property whitelist). A server that
 * mixes landlords up would otherwise put another landlord's meters on this one's bills (round 26).
 */
export function checkGranted(endpoint: string, kind: KindWord, x: { id: string; tenant_id: string }, propertyId: string, grant: Grant | null): void {
  if (!grant) return;
  if (x.tenant_id.toLowerCase() !== grant.tenantId.toLowerCase())
    throw new ServiceUnavailableError(t.otherTenant({ endpoint, kind: kinds[kind], id: x.id, tenant: x.tenant_id, own: grant.tenantId }), {
      code: 'API_WRONG_OBJECT',
      hint: t.notBilledHint,
      details: { endpoint, field: 'tenant_id', received: x.tenant_id, requested: grant.tenantId },
    });
  if (grant.scope !== 'all' && !grant.scope.some((p) => p.toLowerCase() === propertyId.toLowerCase()))
    throw new ServiceUnavailableError(t.outOfScope({ endpoint, kind: kinds[kind], id: x.id, property: propertyId }), {
      code: 'API_WRONG_OBJECT',
      hint: t.notBilledHint,
      details: { endpoint, field: 'property_scope', received: propertyId },
    });
}
