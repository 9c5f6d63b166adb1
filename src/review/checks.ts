// Checks on one period alone: zero consumption, consumption per m² against the Property's
// median, and the share of non-measured consumption. docs/export.md names each rule.
import { Dec, dec, sum, ZERO, type Decimal } from '../billing/decimal.js';
import { sideState } from './compare.js';
import type { CurrentFigure } from './types.js';

/** Outside [median / PER_M2_FACTOR, median × PER_M2_FACTOR] is a finding. */
export const PER_M2_FACTOR = 3;
/** Fewer comparable units than this give no median. */
export const PER_M2_MIN_UNITS = 5;
/** Metrics judged per m² (heat and heat cost allocators by heated area, warm water by its area). */
export const PER_M2_METRICS: readonly string[] = ['heat', 'hca', 'water_warm'];
/** A share of non-measured consumption above this (percent) is a finding (§ 9a (2) HeizkostenV). */
export const ESTIMATE_LIMIT_PERCENT = 25;

export function figureKey(f: { kind: string; usage_unit_id: string | null; measuring_point_id: string | null; metric: string; unit: string }): string {
  return JSON.stringify([f.kind, f.usage_unit_id, f.measuring_point_id, f.metric, f.unit]);
}

/** Billed 0 while a device was installed over the whole range. */
export function isZeroConsumption(f: CurrentFigure): boolean {
  return f.kind === 'unit' && f.active_whole_range && sideState(f) === 'billed' && dec(f.value).isZero();
}

export function median(values: readonly Decimal[]): Decimal | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : s[mid - 1]!.plus(s[mid]!).div(2);
}

export interface PerM2 {
  perM2: Decimal;
  /** null: fewer than PER_M2_MIN_UNITS comparable units. */
  median: Decimal | null;
  outlier: boolean;
}

/** per m² for every billed unit figure with an area; median and outliers per (metric, unit, unit_type). */
export function perM2(figures: readonly CurrentFigure[]): Map<string, PerM2> {
  const groups = new Map<string, { key: string; perM2: Decimal }[]>();
  for (const f of figures) {
    if (f.kind !== 'unit' || !PER_M2_METRICS.includes(f.metric) || f.area_m2 === null || !(f.area_m2 > 0) || sideState(f) !== 'billed') continue;
    const g = JSON.stringify([f.metric, f.unit, f.unit_type]);
    groups.set(g, [...(groups.get(g) ?? []), { key: figureKey(f), perM2: dec(f.value).div(f.area_m2) }]);
  }
  const out = new Map<string, PerM2>();
  for (const members of groups.values()) {
    const m = members.length >= PER_M2_MIN_UNITS ? median(members.map((x) => x.perM2)) : null;
    for (const x of members) {
      const outlier = m !== null && m.greaterThan(0) && (x.perM2.times(PER_M2_FACTOR).lessThan(m) || x.perM2.greaterThan(m.times(PER_M2_FACTOR)));
      out.set(x.key, { perM2: x.perM2, median: m, outlier });
    }
  }
  return out;
}

export interface EstimatedShare {
  property_id: string;
  metric: string;
  unit: string;
  /** Percent of the billed consumption resting on non-measured values. */
  percent: Decimal;
  high: boolean;
}

/** Per Property, metric and unit: the non-measured part of the billed unit consumption. */
export function estimatedShares(figures: readonly CurrentFigure[]): EstimatedShare[] {
  const groups = new Map<string, CurrentFigure[]>();
  for (const f of figures) {
    if (f.kind !== 'unit' || sideState(f) !== 'billed') continue;
    const g = JSON.stringify([f.property_id, f.metric, f.unit]);
    groups.set(g, [...(groups.get(g) ?? []), f]);
  }
  const out: EstimatedShare[] = [];
  for (const members of groups.values()) {
    const total = sum(members.map((f) => dec(f.value)));
    if (!total.greaterThan(ZERO)) continue;
    const estimated = sum(members.map((f) => dec(f.estimated_value)));
    const percent = estimated.div(total).times(100).toDecimalPlaces(1, Dec.ROUND_HALF_UP);
    const { property_id, metric, unit } = members[0]!;
    out.push({ property_id, metric, unit, percent, high: estimated.times(100).greaterThan(total.times(ESTIMATE_LIMIT_PERCENT)) });
  }
  return out;
}
