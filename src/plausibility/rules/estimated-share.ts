// Rule (Property): the share of the billed unit consumption that rests on calculated,
// substituted or assumed-zero values, per metric and unit. docs/export.md names the rule.
import { Dec, dec, sum, ZERO, type Decimal } from '../../billing/decimal.js';
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { PlausibilityRule } from '../rule.js';
import { propertyScope, sideState } from '../sides.js';
import type { CurrentFigure } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = { ESTIMATED_SHARE_HIGH: 'info' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

/** A share of non-measured consumption above this (percent) is an info finding; § 9a (2) HeizkostenV counts area instead (estimated-area.ts). */
export const ESTIMATE_LIMIT_PERCENT = 25;

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

export const estimatedShareRule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'property',
  check(ctx) {
    return {
      findings: estimatedShares(ctx.figures)
        .filter((s) => s.high)
        .map((s) => {
          const flag = makeFlag('ESTIMATED_SHARE_HIGH', propertyScope(s.property_id), {
            metric: s.metric,
            unit: s.unit,
            estimated_share: s.percent.toFixed(1),
          });
          // The rows whose figure rests on non-measured values carry the mark, so the accountant sees where the share comes from.
          const rests = (f: CurrentFigure) => f.kind === 'unit' && f.metric === s.metric && f.unit === s.unit && !dec(f.estimated_value).isZero();
          const marks = [...ctx.current].filter(([, f]) => rests(f)).map(([k]) => k);
          return { code: 'ESTIMATED_SHARE_HIGH', flag, marks };
        }),
    };
  },
};
