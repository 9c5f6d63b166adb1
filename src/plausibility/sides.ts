// The state of one side of a figure and a figure's identity, which the rules share.
// A side that is not billed (missing, calibration expired) is never judged as a 0.
import { dec } from '../billing/decimal.js';
import { BILLING_SEVERITY } from '../billing/types.js';
import type { ComparisonState, Figure } from './types.js';

// Only billing leaves a value unbilled (a rule's findings are review or info). An unknown value (a status this version does not know counts 0) is not compared either: never compare what may be a 0 that is not one.
const NOT_BILLED = new Set<string>([
  ...Object.entries(BILLING_SEVERITY)
    .filter(([, s]) => s === 'not_billed')
    .map(([c]) => c),
  'UNKNOWN_ENUM_VALUE',
]);
const NO_DATA = new Set<string>(['DATA_GAP', 'DIFFERENCE_METER']);

/** billed, not billed (missing, calibration expired) or absent (no row, or a row without any data). */
export function sideState(f: Figure | undefined): ComparisonState {
  if (!f) return 'absent';
  const zero = dec(f.value).isZero();
  if (zero && f.flags.some((c) => NO_DATA.has(c))) return 'absent';
  if (f.flags.some((c) => NOT_BILLED.has(c))) return 'not_billed';
  return 'billed';
}

/** One row of plausibility.csv: the same figure in both periods has the same key. */
export function figureKey(f: { kind: string; usage_unit_id: string | null; measuring_point_id: string | null; metric: string; unit: string }): string {
  // ids as billing compares them (idKey): a folder written when the service sent them in another case is the same figure
  return JSON.stringify([f.kind, f.usage_unit_id?.toLowerCase() ?? null, f.measuring_point_id?.toLowerCase() ?? null, f.metric, f.unit]);
}

/** The scope of a finding about one figure. */
export function scopeOf(f: Figure) {
  return { property_id: f.property_id, usage_unit_id: f.usage_unit_id, measuring_point_id: f.measuring_point_id, device_id: null };
}

/** The scope of a finding about the whole Property. */
export const propertyScope = (property_id: string) => ({ property_id, usage_unit_id: null, measuring_point_id: null, device_id: null });
