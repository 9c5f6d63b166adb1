// The plausibility rules the review runs, in the order review.csv lists their findings
// about one figure (then the Property's and the devices' rule by rule). A new rule is one
// file in rules/ implementing PlausibilityRule (its codes and their severity declared there),
// one line here, and its codes' texts.
import { joinCodes } from '../billing/flags.js';
import type { DeclaredCodes } from '../billing/types.js';
import { calibrationRule } from './rules/calibration.js';
import { comparisonRule } from './rules/comparison.js';
import { otherLengthRule } from './rules/other-length.js';
import { estimatedAreaRule } from './rules/estimated-area.js';
import { estimatedShareRule } from './rules/estimated-share.js';
import { perM2Rule } from './rules/per-m2.js';
import { zeroConsumptionRule } from './rules/zero-consumption.js';
import type { PlausibilityRule } from './rule.js';

export const RULES = [
  comparisonRule,
  otherLengthRule,
  zeroConsumptionRule,
  perM2Rule,
  estimatedShareRule,
  estimatedAreaRule,
  calibrationRule,
] as const satisfies readonly PlausibilityRule[];

type RuleSeverities = DeclaredCodes<(typeof RULES)[number]['codes']>;

// The listed rules' codes join billing's FlagCode, so their texts are required and a rule not
// listed here cannot make its flags (typecheck).
declare module '../billing/types.js' {
  interface FlagSeverities extends RuleSeverities {}
}

/** The rules' codes and their severity, in the list's order; a code two rules declare throws here. */
export const RULE_SEVERITY = joinCodes(RULES.map((r) => r.codes));
