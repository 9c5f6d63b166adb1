// Figures and devices out of a billed Property (src/billing's output), for the review.
import { dec, formatDecimal, sum } from '../billing/decimal.js';
import { BILLING_SEVERITY, type CodeDeclaration } from '../billing/types.js';
import type { BillingRow, PlantPointRow, SegmentRow } from '../billing/types.js';
import type { CurrentFigure, DeviceFact, Figure } from './types.js';

/** A billed Property as the review reads it (a subset of billing's PropertyBill). */
export interface BilledProperty {
  billing: readonly BillingRow[];
  segments: readonly SegmentRow[];
  plant: readonly PlantPointRow[];
}

export interface UnitArea {
  id: string;
  area_heated_m2?: number | null;
  area_ww_m2?: number | null;
}

/** Segment statuses whose value was not read from the device. */
const ESTIMATED_STATUSES = new Set(['calculated', 'substituted']);

export function figuresOf(bill: BilledProperty, property: { id: string; name: string }): Figure[] {
  return [
    ...bill.billing.map((b) => ({
      kind: 'unit' as const,
      property_id: b.property_id,
      property_name: b.property_name,
      usage_unit_id: b.usage_unit_id,
      usage_unit_name: b.usage_unit_name,
      unit_type: b.unit_type,
      measuring_point_id: null,
      metric: b.metric,
      unit: b.unit,
      value: b.billable_value,
      flags: [...b.review_flags],
    })),
    ...bill.plant.map((p) => ({
      kind: 'plant' as const,
      property_id: property.id,
      property_name: property.name,
      usage_unit_id: null,
      usage_unit_name: null,
      unit_type: null,
      measuring_point_id: p.measuring_point_id,
      metric: p.metric,
      unit: p.unit,
      value: p.billable_value,
      flags: [...p.review_flags],
    })),
  ];
}

function areaOf(unit: UnitArea | undefined, metric: string): number | null {
  const a = metric === 'water_warm' ? unit?.area_ww_m2 : metric === 'heat' || metric === 'hca' ? unit?.area_heated_m2 : null;
  return typeof a === 'number' && Number.isFinite(a) ? a : null;
}

/** Every (non-difference) point of the row had a device from the range's start to its end. */
function activeWholeRange(segments: readonly SegmentRow[], range: { from: string; to: string }): boolean {
  const byPoint = new Map<string, SegmentRow[]>();
  for (const s of segments) if (!s.is_difference_meter) byPoint.set(s.measuring_point_id, [...(byPoint.get(s.measuring_point_id) ?? []), s]);
  if (byPoint.size === 0) return false;
  return [...byPoint.values()].every((segs) => {
    const devices = segs.filter((s) => s.device_id !== null && !s.data_gap);
    return (
      devices.some((s) => s.installed_at === null || s.installed_at <= range.from) &&
      devices.some((s) => s.deinstalled_at === null || s.deinstalled_at >= range.to)
    );
  });
}

export function currentFigures(
  bill: BilledProperty,
  property: { id: string; name: string },
  units: readonly UnitArea[],
  range: { from: string; to: string },
): CurrentFigure[] {
  const unitById = new Map(units.map((u) => [u.id, u]));
  const segs = new Map<string, SegmentRow[]>();
  for (const s of bill.segments) {
    if (s.usage_unit_id === null) continue;
    const k = JSON.stringify([s.usage_unit_id, s.metric, s.unit]);
    segs.set(k, [...(segs.get(k) ?? []), s]);
  }
  return figuresOf(bill, property).map((f) => {
    if (f.kind === 'plant') return { ...f, area_m2: null, active_whole_range: false, estimated_value: '0' };
    const mine = segs.get(JSON.stringify([f.usage_unit_id, f.metric, f.unit])) ?? [];
    const est = mine.filter((s) => (s.status !== null && ESTIMATED_STATUSES.has(s.status)) || s.baseline_origin === 'assumed_zero');
    const estimated_value = formatDecimal(sum(est.map((s) => dec(s.billed_value))));
    return {
      ...f,
      area_m2: areaOf(unitById.get(f.usage_unit_id!), f.metric),
      active_whole_range: activeWholeRange(mine, range),
      estimated_value,
      estimated: est.length > 0,
    };
  });
}

const expiredMark = (s: SegmentRow): boolean => s.status === 'calibration_expired' || s.review_flags.includes('CALIBRATION_EXPIRED');
/** A segment billing counted as 0 for a reason of its own (the codes that say 'not billed'). */
// Only billing leaves a value unbilled: a segment's flags are its own.
const notBilled = (s: SegmentRow): boolean => s.review_flags.some((c) => (BILLING_SEVERITY as CodeDeclaration)[c] === 'not_billed');

/** Each device once (a shared point's device appears under every unit; the first wins, marked expired by any, the other units listed). */
export function devicesOf(bill: BilledProperty): DeviceFact[] {
  const seen = new Map<string, DeviceFact>();
  for (const s of bill.segments) {
    if (s.device_id === null) continue;
    const known = seen.get(s.device_id);
    if (known) {
      if (expiredMark(s)) known.expired_marked = true;
      if (!notBilled(s)) known.nothing_billed = false;
      if (s.usage_unit_id !== null && s.usage_unit_id !== known.usage_unit_id && !known.shared_with?.includes(s.usage_unit_id))
        known.shared_with = [...(known.shared_with ?? []), s.usage_unit_id];
      continue;
    }
    seen.set(s.device_id, {
      property_id: s.property_id,
      usage_unit_id: s.usage_unit_id,
      measuring_point_id: s.measuring_point_id,
      device_id: s.device_id,
      serial: s.serial,
      metric: s.metric,
      installed_at: s.installed_at,
      deinstalled_at: s.deinstalled_at,
      expired_marked: expiredMark(s),
      nothing_billed: notBilled(s),
    });
  }
  return [...seen.values()];
}
