// Rule (figure): the same figure in two periods: billed, not billed (missing, calibration
// expired) or absent (no row, or a row without any data). Only billed sides are compared; a
// side that is not billed is marked, never compared as 0. A unit new (or gone) with all its
// figures is one finding about the unit, not one per metric.
import { Dec, dec } from '../../billing/decimal.js';
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { Finding, PlausibilityRule, RuleColumns, RuleContext } from '../rule.js';
import { scopeOf, sideState } from '../sides.js';
import type { ComparisonState, Figure } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = {
  CONSUMPTION_CHANGE: 'review',
  COMPARISON_ZERO: 'review',
  NEW_SINCE_COMPARISON: 'review',
  GONE_SINCE_COMPARISON: 'review',
  COMPARISON_NOT_BILLED: 'info',
} as const satisfies CodeDeclaration;
type Code = keyof typeof codes;
const makeFlag = flagMaker(codes);

/** (current − previous) / previous in percent, one decimal, half away from zero; null for a previous 0. */
export function changePercent(current: string, previous: string): string | null {
  const prev = dec(previous);
  if (prev.isZero()) return null;
  const pct = dec(current).minus(prev).div(prev.abs()).times(100).toDecimalPlaces(1, Dec.ROUND_HALF_UP);
  return pct.isZero() ? '0' : pct.toFixed(1);
}

export interface Comparison {
  state: ComparisonState;
  comparison_value: string | null;
  change_percent: string | null;
  codes: Code[];
  /** Which side is not billed, for COMPARISON_NOT_BILLED. */
  notBilledIn?: 'current' | 'comparison' | 'both';
}

/** The comparison of one figure; `threshold` in percent (a change strictly above it is a finding). */
export function compareFigure(current: Figure | undefined, previous: Figure | undefined, threshold: string): Comparison {
  const cur = sideState(current);
  const prev = sideState(previous);
  const base = { state: prev, comparison_value: prev === 'billed' ? previous!.value : null, change_percent: null };
  if (cur === 'absent' && prev === 'absent') return { ...base, codes: [] };
  // Not billed then and no data now: nothing says it had consumption then, so it is not 'gone' (DATA_GAP says the rest).
  if (cur === 'absent' && prev === 'not_billed') return { ...base, codes: ['COMPARISON_NOT_BILLED'], notBilledIn: 'comparison' };
  if (cur === 'absent') return { ...base, codes: ['GONE_SINCE_COMPARISON'] };
  if (prev === 'absent') return { ...base, codes: ['NEW_SINCE_COMPARISON'] };
  if (cur === 'not_billed' || prev === 'not_billed') {
    const notBilledIn = cur === prev ? 'both' : cur === 'not_billed' ? 'current' : 'comparison';
    return { ...base, codes: ['COMPARISON_NOT_BILLED'], notBilledIn };
  }
  const a = dec(current!.value);
  const b = dec(previous!.value);
  const change = changePercent(current!.value, previous!.value);
  const result = { ...base, change_percent: change };
  if (a.isZero() && b.isZero()) return { ...result, codes: [] };
  if (a.isZero() || b.isZero()) return { ...result, codes: ['COMPARISON_ZERO'] };
  return { ...result, codes: dec(change!).abs().greaterThan(threshold) ? ['CONSUMPTION_CHANGE'] : [] };
}

function comparisonFacts(f: Figure, c: Comparison, current: Figure | undefined): Record<string, string> {
  return {
    metric: f.metric,
    unit: f.unit,
    billed_value: current?.value ?? '',
    comparison_value: c.comparison_value ?? '',
    change_percent: c.change_percent ?? '',
    not_billed_in: c.notBilledIn ?? '',
  };
}

/** Units whose every figure (of either period) has the code. */
function wholeUnits(ctx: RuleContext, comparisons: ReadonlyMap<string, Comparison>, code: Code): Set<string> {
  const byUnit = new Map<string, boolean>();
  for (const k of ctx.keys) {
    const f = ctx.current.get(k) ?? ctx.comparison!.get(k)!;
    if (f.usage_unit_id === null) continue;
    byUnit.set(f.usage_unit_id, (byUnit.get(f.usage_unit_id) ?? true) && (comparisons.get(k)?.codes.includes(code) ?? false));
  }
  return new Set([...byUnit].filter(([, all]) => all).map(([u]) => u));
}

export const comparisonRule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'figure',
  check(ctx) {
    const previous = ctx.comparison;
    if (!previous) return { findings: [] };
    const keys = ctx.keys.filter((k) => ctx.compared(ctx.current.get(k) ?? previous.get(k)!));
    const comparisons = new Map(keys.map((k) => [k, compareFigure(ctx.current.get(k), previous.get(k), ctx.opts.threshold)]));
    const whole: Partial<Record<Code, Set<string>>> = {
      NEW_SINCE_COMPARISON: wholeUnits(ctx, comparisons, 'NEW_SINCE_COMPARISON'),
      GONE_SINCE_COMPARISON: wholeUnits(ctx, comparisons, 'GONE_SINCE_COMPARISON'),
    };
    const unitFlagged = new Set<string>();
    const findings: Finding[] = [];
    const columns = new Map<string, RuleColumns>();
    for (const [k, c] of comparisons) {
      const cur = ctx.current.get(k);
      const f = cur ?? previous.get(k)!;
      columns.set(k, { comparison_value: c.comparison_value, comparison_status: c.state, change_percent: c.change_percent });
      for (const code of c.codes) {
        const unit = f.usage_unit_id;
        if (unit === null || !whole[code]?.has(unit)) findings.push({ code, flag: makeFlag(code, scopeOf(f), comparisonFacts(f, c, cur)), marks: [k] });
        else if (unitFlagged.has(unit)) findings.push({ code, flag: null, marks: [k] });
        else {
          unitFlagged.add(unit);
          findings.push({ code, flag: makeFlag(code, { ...scopeOf(f), measuring_point_id: null }), marks: [k] });
        }
      }
    }
    return { findings, columns };
  },
};
