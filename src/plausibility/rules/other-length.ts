// Rule (Property): a comparison of another number of months than the billed period is no
// comparison (7 months beside 12 show every figure as changed, round 16), so nothing of the
// Property is compared. Where that is not refused (a Property without units, billed for the period
// of those before it, beside its own comparison fetched earlier: same-length.ts), it says why its
// plant-room and main meters carry no comparison, instead of leaving them silently uncompared.
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { PlausibilityRule } from '../rule.js';
import { propertyScope } from '../sides.js';

/** The codes this rule raises and their severity. */
const codes = { COMPARISON_OTHER_LENGTH: 'info' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

export const otherLengthRule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'property',
  check(ctx) {
    const other = ctx.otherLength;
    if (!other) return { findings: [] };
    const facts = { billed_months: String(other.ours), comparison_months: String(other.theirs) };
    const flag = makeFlag('COMPARISON_OTHER_LENGTH', propertyScope(other.property_id), facts);
    return { findings: [{ code: 'COMPARISON_OTHER_LENGTH', flag, marks: ctx.keys }] };
  },
};
