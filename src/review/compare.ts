// The same figure in two periods: billed, not billed (missing, calibration expired) or
// absent (no row, or a row without any data). Only billed sides are compared; a side
// that is not billed is marked, never compared as 0.
import { Dec, dec } from '../billing/decimal.js';
import { FLAG_SEVERITY, type FlagCode } from '../billing/types.js';
import type { ComparisonState, Figure } from './types.js';

// An unknown value (a status this version does not know counts 0) is not compared either: never compare what may be a 0 that is not one.
const NOT_BILLED = new Set<string>([...Object.entries(FLAG_SEVERITY).filter(([, s]) => s === 'not_billed').map(([c]) => c), 'UNKNOWN_ENUM_VALUE']);
const NO_DATA = new Set<string>(['DATA_GAP', 'DIFFERENCE_METER']);

export function sideState(f: Figure | undefined): ComparisonState {
  if (!f) return 'absent';
  const zero = dec(f.value).isZero();
  if (zero && f.flags.some((c) => NO_DATA.has(c))) return 'absent';
  if (f.flags.some((c) => NOT_BILLED.has(c))) return 'not_billed';
  return 'billed';
}

/** (current − previous) / previous in percent, one decimal, half away from zero; null for a previous 0. */
export function changePercent(current: string, previous: string): string | null {
  const prev = dec(previous);
  if (prev.isZero()) return null;
  const pct = dec(current).minus(prev).div(prev.abs()).times(100).toDecimalPlaces(1, Dec.ROUND_HALF_UP);
  return pct.isZero() ? '0' : pct.toFixed(1);
}

export interface Comparison {
  state: ComparisonState;
  comparison_value: string | null;
  change_percent: string | null;
  codes: FlagCode[];
  /** Which side is not billed, for COMPARISON_NOT_BILLED. */
  notBilledIn?: 'current' | 'comparison' | 'both';
}

/** The comparison of one figure; `threshold` in percent (a change strictly above it is a finding). */
export function compareFigure(current: Figure | undefined, previous: Figure | undefined, threshold: string): Comparison {
  const cur = sideState(current);
  const prev = sideState(previous);
  const base = { state: prev, comparison_value: prev === 'billed' ? previous!.value : null, change_percent: null };
  if (cur === 'absent' && prev === 'absent') return { ...base, codes: [] };
  if (cur === 'absent') return { ...base, codes: ['GONE_SINCE_COMPARISON'] };
  if (prev === 'absent') return { ...base, codes: ['NEW_SINCE_COMPARISON'] };
  if (cur === 'not_billed' || prev === 'not_billed') {
    const notBilledIn = cur === prev ? 'both' : cur === 'not_billed' ? 'current' : 'comparison';
    return { ...base, codes: ['COMPARISON_NOT_BILLED'], notBilledIn };
  }
  const a = dec(current!.value);
  const b = dec(previous!.value);
  const change = changePercent(current!.value, previous!.value);
  const result = { ...base, change_percent: change };
  if (a.isZero() && b.isZero()) return { ...result, codes: [] };
  if (a.isZero() || b.isZero()) return { ...result, codes: ['COMPARISON_ZERO'] };
  return { ...result, codes: dec(change!).abs().greaterThan(threshold) ? ['CONSUMPTION_CHANGE'] : [] };
}
