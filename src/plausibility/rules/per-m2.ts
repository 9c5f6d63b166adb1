// Rule (figure): a unit's consumption per m² far from the median of comparable units of the
// Property (same metric, unit and unit type). docs/export.md names the rule.
import { dec, formatDecimal, type Decimal } from '../../billing/decimal.js';
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { Finding, PlausibilityRule, RuleColumns } from '../rule.js';
import { figureKey, scopeOf, sideState } from '../sides.js';
import type { CurrentFigure } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = { PER_M2_OUTLIER: 'review' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

/** Outside [median / PER_M2_FACTOR, median × PER_M2_FACTOR] is a finding. */
export const PER_M2_FACTOR = 3;
/** Fewer comparable units than this give no median. */
export const PER_M2_MIN_UNITS = 5;
/** Metrics judged per m² (heat and heat cost allocators by heated area, warm water by its area). */
export const PER_M2_METRICS: readonly string[] = ['heat', 'hca', 'water_warm'];

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

const show = (d: Decimal | null): string | null => (d === null ? null : formatDecimal(d.toDecimalPlaces(3, 4)));

export const perM2Rule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'figure',
  check(ctx) {
    const areas = perM2(ctx.figures);
    const findings: Finding[] = [];
    const columns = new Map<string, RuleColumns>();
    for (const k of ctx.keys) {
      const a = areas.get(k);
      if (!a) continue;
      columns.set(k, { value_per_m2: show(a.perM2), median_per_m2: show(a.median) });
      const cur = ctx.current.get(k)!;
      const facts = { metric: cur.metric, unit: cur.unit, value_per_m2: show(a.perM2)!, median_per_m2: show(a.median)! };
      if (a.outlier) findings.push({ code: 'PER_M2_OUTLIER', flag: makeFlag('PER_M2_OUTLIER', scopeOf(cur), facts), marks: [k] });
    }
    return { findings, columns };
  },
};
