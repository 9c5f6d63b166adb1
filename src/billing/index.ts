// Public surface of the pure billing module (spec "Billing rules" 1-8). No I/O here.
export { formatDecimal, dec, sum, ZERO, type Decimal, type DecimalInput } from './decimal.js';
export { makeFlag, enumFlag, codesOf, dedupeFlags, ENUM_FIELDS, type EnumField, type FlagScope } from './flags.js';
export {
  billPoint,
  segmentValue,
  sortSegments,
  pointFlags,
  segmentFlags,
  readingRows,
  BILLABLE_STATUSES,
  type PointBill,
  type PointContext,
  type SegmentValue,
} from './point.js';
export { segmentBreaks, unitPointBreaks, listedKindsOf, isContractBreak, CONTRACT_BREAKS, type ContractBreak, type BreakCode } from './contract.js';
export { billUnit, shareTotals, shareMismatch, listedPointsOf, SHARE_TOLERANCE, type UnitInput, type UnitBill, type ShareTotal } from './unit.js';
export { billPlantPoint, type PlantInput, type PlantBill } from './plant.js';
export { compareUnits, compareNames, type UnitOrderKey } from './order.js';
export { billProperty, type PropertyInput, type PropertyBill } from './property.js';
export { flagText, flagMessage, reviewRows, type Lang } from './findings.js';
export * from './types.js';
