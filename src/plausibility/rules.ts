// The plausibility rules the review runs, in the order review.csv lists their findings
// about one figure (then the Property's and the devices' rule by rule). A new rule is one
// file in rules/ implementing PlausibilityRule, one line here, and its codes' texts.
import { calibrationRule } from './rules/calibration.js';
import { comparisonRule } from './rules/comparison.js';
import { estimatedAreaRule } from './rules/estimated-area.js';
import { estimatedShareRule } from './rules/estimated-share.js';
import { perM2Rule } from './rules/per-m2.js';
import { zeroConsumptionRule } from './rules/zero-consumption.js';
import type { PlausibilityRule } from './rule.js';

export const RULES: readonly PlausibilityRule[] = [comparisonRule, zeroConsumptionRule, perM2Rule, estimatedShareRule, estimatedAreaRule, calibrationRule];
