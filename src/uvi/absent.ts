// Meters the Property lists for a unit that the unit's own answer does not carry, and shared
// meters whose units' shares add up to less than the whole meter. The Property's sums over its
// units (allocator units, the units' heat meters, the warm-water volume) would silently be
// smaller without them, and a smaller sum gives every other flat more: those sums are not formed
// (propertyUvi's `absent`). review.csv names each meter not sent (POINT_NOT_SENT); a share sum
// below 1 is billing's SHARE_SUM_MISMATCH, which the uvi shows (verdict.ts). Pure.
import type { MeasuringPoint, UnitConsumption } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import { shareMismatch, shareTotals } from '../billing/unit.js';
import type { Flag } from '../billing/types.js';
import type { Finding, FindingCode } from './types.js';

/** A uvi finding review.csv shows, not an error code (src/core/codes.ts). */
const NOT_SENT: FindingCode = 'POINT_NOT_SENT';

/** The metrics whose sums over the units feed other units' figures. */
const SUMMED = new Set(['hca', 'heat', 'water_warm']);

export interface AbsentPoint {
  measuring_point_id: string;
  metric: string;
  /** The unit the list gives it to whose answer lacks it (for a short share sum: the first unit carrying it). */
  usage_unit_id: string;
  /** Shares that add up to less than 1 (SHARE_SUM_MISMATCH, billing's finding): carried, but not whole. */
  shareShort?: true;
}

type UnitAnswer = { unit?: { id: string }; consumption: UnitConsumption };

const unitIdOf = (u: UnitAnswer) => u.unit?.id ?? u.consumption.usage_unit_id;

/** The units a listed point belongs to: its allocations where it has any, else its usage_unit_id. */
function listedUnits(p: MeasuringPoint): string[] {
  const allocated = Array.isArray(p.allocations) ? p.allocations.map((a) => a?.usage_unit_id).filter((u): u is string => typeof u === 'string') : [];
  if (allocated.length > 0) return allocated;
  return typeof p.usage_unit_id === 'string' ? [p.usage_unit_id] : [];
}

/** Each listed meter (heat, allocator, warm water) that a unit it is given to does not carry: once per meter and unit. */
function notSent(points: readonly MeasuringPoint[], units: readonly UnitAnswer[]): AbsentPoint[] {
  const carried = new Map(units.map((u) => [idKey(unitIdOf(u)), new Set(u.consumption.measuring_points.map((p) => idKey(p.measuring_point_id)))]));
  const out = new Map<string, AbsentPoint>();
  for (const p of points) {
    if (typeof p.id !== 'string' || !SUMMED.has(p.metric ?? '')) continue;
    for (const unit of listedUnits(p)) {
      const key = `${idKey(p.id)}\n${idKey(unit)}`;
      if (carried.get(idKey(unit))?.has(idKey(p.id)) || out.has(key)) continue;
      out.set(key, { measuring_point_id: p.id, metric: p.metric!, usage_unit_id: unit });
    }
  }
  return [...out.values()];
}

/** Shared meters carried by the units whose shares add up to less than 1 (billing's shareTotals and tolerance). */
function shortShares(units: readonly UnitAnswer[]): AbsentPoint[] {
  const totals = shareTotals(units.map((u) => u.consumption));
  const out = new Map<string, AbsentPoint>();
  for (const u of units)
    for (const c of u.consumption.measuring_points) {
      const total = totals.get(idKey(c.measuring_point_id));
      if (!SUMMED.has(c.metric) || out.has(idKey(c.measuring_point_id)) || !shareMismatch(total) || total!.sum.greaterThan(1)) continue;
      out.set(idKey(c.measuring_point_id), { measuring_point_id: c.measuring_point_id, metric: c.metric, usage_unit_id: unitIdOf(u), shareShort: true });
    }
  return [...out.values()];
}

export function absentPoints(points: readonly MeasuringPoint[], units: readonly UnitAnswer[]): AbsentPoint[] {
  return [...notSent(points, units), ...shortShares(units)];
}

/**
 * The points (idKey) the Property's list shows with `active_device: null` that are no difference meter: by the
 * contract, a point whose device was removed without replacement. Their `data_gap` (no segment in the 13 months)
 * is then no device, as before a first installation, not a missing answer. A point listed twice counts only where
 * every entry says so.
 */
export function removedPoints(points: readonly MeasuringPoint[]): Set<string> {
  const removed = new Set<string>();
  const kept = new Set<string>();
  for (const p of points) {
    if (typeof p.id !== 'string') continue;
    (p.active_device === null && p.is_difference_meter !== true ? removed : kept).add(idKey(p.id));
  }
  for (const id of kept) removed.delete(id);
  return removed;
}

/** The findings review.csv names the meters not sent by: one per meter and unit (a short share sum is billing's finding). */
export function absentFindings(property_id: string, absent: readonly AbsentPoint[]): Finding[] {
  return absent
    .filter((a) => !a.shareShort)
    .map((a) => ({
      code: NOT_SENT,
      property_id,
      usage_unit_id: a.usage_unit_id,
      service: null,
      facts: { measuring_point_id: a.measuring_point_id, metric: a.metric },
    }));
}

/**
 * Billing's LISTED_POINT_NOT_SENT about a meter and unit the uvi names itself (POINT_NOT_SENT): review.csv
 * says it once, in the uvi's words, which also say the Property's sums are not formed.
 */
export function namedByUvi(absent: readonly AbsentPoint[]): (f: Flag) => boolean {
  const named = new Set(absent.filter((a) => !a.shareShort).map((a) => `${idKey(a.usage_unit_id)}\n${idKey(a.measuring_point_id)}`));
  return (f) => f.code === 'LISTED_POINT_NOT_SENT' && named.has(`${idKey(f.usage_unit_id ?? '')}\n${idKey(f.measuring_point_id ?? '')}`);
}
