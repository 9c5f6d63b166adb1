// Rule (figure): a unit billed 0 while a device was installed over the whole range.
// docs/export.md names the rule.
import { dec } from '../../billing/decimal.js';
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { Finding, PlausibilityRule } from '../rule.js';
import { scopeOf, sideState } from '../sides.js';
import type { CurrentFigure } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = { ZERO_CONSUMPTION: 'review' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

/** Billed 0 while a device was installed over the whole range. */
export function isZeroConsumption(f: CurrentFigure): boolean {
  return f.kind === 'unit' && f.active_whole_range && sideState(f) === 'billed' && dec(f.value).isZero();
}

export const zeroConsumptionRule: PlausibilityRule<typeof codes> = {
  codes,
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
