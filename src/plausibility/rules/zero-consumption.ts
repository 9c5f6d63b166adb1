// Rule (figure): a unit billed 0 while a device was installed over the whole range.
// docs/export.md names the rule.
import { dec } from '../../billing/decimal.js';
import { makeFlag } from '../../billing/flags.js';
import type { Finding, PlausibilityRule } from '../rule.js';
import { scopeOf, sideState } from '../sides.js';
import type { CurrentFigure } from '../types.js';

/** Billed 0 while a device was installed over the whole range. */
export function isZeroConsumption(f: CurrentFigure): boolean {
  return f.kind === 'unit' && f.active_whole_range && sideState(f) === 'billed' && dec(f.value).isZero();
}

export const zeroConsumptionRule: PlausibilityRule = {
  scope: 'figure',
  check(ctx) {
    const findings: Finding[] = [];
    for (const k of ctx.keys) {
      const cur = ctx.current.get(k);
      if (!cur || !isZeroConsumption(cur)) continue;
      findings.push({ code: 'ZERO_CONSUMPTION', flag: makeFlag('ZERO_CONSUMPTION', scopeOf(cur), { metric: cur.metric, unit: cur.unit }), marks: [k] });
    }
    return { findings };
  },
};
