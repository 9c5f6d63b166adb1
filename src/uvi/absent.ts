// Meters the Property lists for a unit that no unit's answer carries. The Property's sums over
// its units (allocator units, the units' heat meters, the warm-water volume) would silently be
// smaller without them, and a smaller sum gives every other flat more: those sums are not formed
// (propertyUvi's `absent`), and review.csv names each such meter (POINT_NOT_SENT). Pure.
import type { MeasuringPoint, UnitConsumption } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import type { Finding, FindingCode } from './types.js';

/** A uvi finding review.csv shows, not an error code (src/core/codes.ts). */
const NOT_SENT: FindingCode = 'POINT_NOT_SENT';

/** The metrics whose sums over the units feed other units' figures. */
const SUMMED = new Set(['hca', 'heat', 'water_warm']);

export interface AbsentPoint {
  measuring_point_id: string;
  metric: string;
  /** The unit the list names (usage_unit_id, else the first allocation's). */
  usage_unit_id: string;
}

export function absentPoints(points: readonly MeasuringPoint[], units: readonly { consumption: UnitConsumption }[]): AbsentPoint[] {
  const carried = new Set(units.flatMap((u) => u.consumption.measuring_points.map((p) => idKey(p.measuring_point_id))));
  const out = new Map<string, AbsentPoint>();
  for (const p of points) {
    const unit = p.usage_unit_id ?? (Array.isArray(p.allocations) ? p.allocations[0]?.usage_unit_id : undefined);
    if (typeof p.id !== 'string' || typeof unit !== 'string' || !SUMMED.has(p.metric ?? '') || carried.has(idKey(p.id))) continue;
    if (!out.has(idKey(p.id))) out.set(idKey(p.id), { measuring_point_id: p.id, metric: p.metric!, usage_unit_id: unit });
  }
  return [...out.values()];
}

/** The findings review.csv names them by: one per meter, at its unit. */
export function absentFindings(property_id: string, absent: readonly AbsentPoint[]): Finding[] {
  return absent.map((a) => ({
    code: NOT_SENT,
    property_id,
    usage_unit_id: a.usage_unit_id,
    service: null,
    facts: { measuring_point_id: a.measuring_point_id, metric: a.metric },
  }));
}
