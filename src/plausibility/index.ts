// Public surface of the plausibility review (pure: no fs, network or process). The rules
// are a list (rules.ts), each a file in rules/ implementing PlausibilityRule (rule.ts).
export { CALIBRATION_YEARS, calibrationEnd, calibrationVerdict, calibrationFlags, type CalibrationVerdict } from './rules/calibration.js';
export { changePercent, compareFigure, type Comparison } from './rules/comparison.js';
export { sideState, figureKey } from './sides.js';
export { PER_M2_FACTOR, PER_M2_MIN_UNITS, PER_M2_METRICS, median, perM2, type PerM2 } from './rules/per-m2.js';
export { isZeroConsumption } from './rules/zero-consumption.js';
export { ESTIMATE_LIMIT_PERCENT, estimatedShares, type EstimatedShare } from './rules/estimated-share.js';
export { figuresOf, currentFigures, devicesOf, type BilledProperty, type UnitArea } from './from-bill.js';
export { reviewProperty, type ReviewInput, type ReviewResult } from './property.js';
export { RULES, RULE_SEVERITY } from './rules.js';
export type { PlausibilityRule, RuleContext, RuleResult, RuleColumns, Finding } from './rule.js';
export { ESTIMATED_AREA_LIMIT_PERCENT, COST_GROUPS, estimatedAreas, type CostGroup, type EstimatedArea, type AreaUnit } from './rules/estimated-area.js';
export * from './types.js';
export { parseCsv, parseCsvRecords, figuresFromTables, type TableLayout } from './csv.js';
