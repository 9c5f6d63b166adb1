// Public surface of the plausibility review (pure: no fs, network or process).
export { CALIBRATION_YEARS, calibrationEnd, calibrationVerdict, calibrationFlags, type CalibrationVerdict } from './calibration.js';
export { sideState, changePercent, compareFigure, type Comparison } from './compare.js';
export { PER_M2_FACTOR, PER_M2_MIN_UNITS, PER_M2_METRICS, ESTIMATE_LIMIT_PERCENT, figureKey, isZeroConsumption, median, perM2, estimatedShares, type PerM2, type EstimatedShare } from './checks.js';
export { figuresOf, currentFigures, devicesOf, type BilledProperty, type UnitArea } from './from-bill.js';
export { reviewProperty, type ReviewInput, type ReviewResult } from './property.js';
export { ESTIMATED_AREA_LIMIT_PERCENT, COST_GROUPS, estimatedAreas, type CostGroup, type EstimatedArea, type AreaUnit } from './heating-area.js';
export * from './types.js';
export { parseCsv, figuresFromTables, type TableLayout } from './csv.js';
