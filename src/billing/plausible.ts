// Server values that cannot be right (spec "Billing rules" apply only to values a meter can
// show): such a value is never billed, whatever its status claims, and never reaches a
// number cell, because a spreadsheet reads Infinity or an overflowing sum as 0 or an error.
import type { DeviceSegment } from '../api/types.js';
import { Dec, dec, formatDecimal, type Decimal } from './decimal.js';
import { registerBackwards } from './register.js';
import type { DecimalString, FlagCode } from './types.js';

/** |sum of shares - 1| above this is a SHARE_SUM_MISMATCH: shares are taken as exact to half of it. */
export const SHARE_TOLERANCE = dec('0.0001');

/** More than any meter register holds (12 digits before the point); also keeps every sum exact in a workbook cell. */
export const METER_LIMIT = 1e12;

/** One value that cannot be right: the flag it raises and what the message shows. */
export interface Implausible {
  code: Extract<FlagCode, 'IMPLAUSIBLE_VALUE' | 'IMPLAUSIBLE_SHARE' | 'WEIGHTED_VALUE_MISMATCH' | 'REGISTER_BACKWARDS'>;
  facts: Record<string, string>;
}

/** A finite number a meter can show (|v| <= METER_LIMIT). */
export function representable(v: number | Decimal): boolean {
  const d = typeof v === 'number' ? v : v.toNumber();
  return Number.isFinite(d) && Math.abs(d) <= METER_LIMIT;
}

/** What a message shows for a received number: plain decimals where sane, else the short JS form (never "Infinity"). */
export function receivedText(v: number): string {
  if (Number.isNaN(v)) return 'NaN (not a number)';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  return representable(v) ? formatDecimal(v) : String(v);
}

/** A row's display of a value the server sent: null (empty cell) where the value cannot be shown as a number. */
export function shownValue(v: number | null | undefined): DecimalString | null {
  return v === null || v === undefined || !representable(v) ? null : formatDecimal(v);
}

/** unit_share must lie in (0, 1]: a unit's part of a meter. */
export function shareProblem(share: number): Implausible | null {
  if (Number.isFinite(share) && share > 0 && share <= 1) return null;
  return { code: 'IMPLAUSIBLE_SHARE', facts: { field: 'unit_share', received: receivedText(share) } };
}

/** Half a unit in the last decimal place a value was sent with: how far rounding can move it. */
function halfUlp(v: number): Decimal {
  return dec(10).pow(-dec(v).decimalPlaces()).div(2);
}

const problem = (field: string, v: number, more: Record<string, string> = {}): Implausible => ({
  code: 'IMPLAUSIBLE_VALUE',
  facts: { field, received: receivedText(v), ...more },
});

/** The segment's numbers the contract requires: one not sent breaks it (received: not_sent, a fact word). */
const REQUIRED = new Set(['billable_value', 'end_value', 'baseline_value', 'factor']);

/** Numbers of a segment no meter can show (whatever its status), or required ones not sent: they never reach a row. */
export function unrepresentable(seg: DeviceSegment): Implausible[] {
  const pc = seg.period_consumption;
  const numbers: [string, number | undefined, Record<string, string>?][] = [
    ['billable_value', pc.billable_value],
    ['weighted_billable_value', pc.weighted_billable_value],
    ['end_value', pc.end_value],
    ['baseline_value', seg.baseline_value],
    ['factor', seg.factor],
    // The date as a fact of its own, so a German message shows it as dd.mm.yyyy.
    ...seg.readings.map((r): [string, number, Record<string, string>] => ['readings.value', r.value, { reading_date: r.at }]),
  ];
  return numbers.flatMap(([field, v, more]) => {
    if (typeof v === 'number') return representable(v) ? [] : [problem(field, v, more)];
    return REQUIRED.has(field) && v === undefined ? [{ code: 'IMPLAUSIBLE_VALUE' as const, facts: { field, received: 'not_sent', ...more } }] : [];
  });
}

/**
 * Why one segment with a billable status cannot be billed, if it cannot. unitShare: the
 * unit's share (a share already found impossible is passed as null, so it is not blamed
 * twice), or null for a plant point. metric: the point's (register.ts: which registers only count up), or
 * null where the point's segments break the contract (readings twice, say): named there, they are no series to judge.
 */
export function segmentProblems(seg: DeviceSegment, unitShare: number | null, metric: string | null): Implausible[] {
  const out = unrepresentable(seg);
  if (out.length > 0) return out; // the checks below compare these numbers
  const pc = seg.period_consumption;
  const weighted = pc.weighted_billable_value;
  if (pc.billable_value < 0) out.push(problem('billable_value', pc.billable_value));
  if (typeof weighted === 'number' && weighted < 0) out.push(problem('weighted_billable_value', weighted));
  // A register counts up from 0: a negative start or end value is no meter's (its difference may still look fine).
  if (seg.baseline_value < 0) out.push(problem('baseline_value', seg.baseline_value));
  if (pc.end_value < 0) out.push(problem('end_value', pc.end_value));
  else if (seg.factor > 0 && pc.end_value < seg.baseline_value)
    out.push(problem('end_value', pc.end_value, { baseline_value: formatDecimal(seg.baseline_value) }));
  // A K-factor weights a radiator's or meter's count up (1 for most meters): at 0 nothing would count, and a
  // negative one turns a register running backwards (end below start) into a positive value to bill.
  if (!(seg.factor > 0)) out.push(problem('factor', seg.factor));
  const backwards = out.length === 0 && metric !== null ? registerBackwards(seg, metric) : null;
  if (backwards) out.push({ code: 'REGISTER_BACKWARDS', facts: backwards });
  if (out.length === 0 && unitShare !== null && typeof weighted === 'number') {
    const expected = dec(pc.billable_value).times(unitShare);
    // A share such as 1/3 is sent rounded (0.3333): the service may weight with the exact one.
    const shareRounding = Dec.min(halfUlp(unitShare), SHARE_TOLERANCE.div(2));
    const tolerance = halfUlp(weighted)
      .plus(halfUlp(pc.billable_value).times(unitShare))
      .plus(dec(pc.billable_value).abs().plus(halfUlp(pc.billable_value)).times(shareRounding));
    if (dec(weighted).minus(expected).abs().greaterThan(tolerance)) {
      out.push({
        code: 'WEIGHTED_VALUE_MISMATCH',
        facts: { field: 'weighted_billable_value', received: formatDecimal(weighted), expected: formatDecimal(expected), unit_share: formatDecimal(unitShare) },
      });
    }
  }
  return out;
}

/**
 * A billed segment's value against its own register: (end - start) x K-factor, as the value the interface
 * bills is made (rule 4 names the start value and the factor; the sandbox's 27,103 billed segments of seed s1
 * with 1,500 units and of the default data set, over five ranges from 2019 to 2026, all match). The value stays billed (billing rules 1, 2): a hint, with
 * what the register gives. Only for segments without an implausible value (segmentProblems).
 */
export function meterDifferenceOff(seg: DeviceSegment): { received: string; meter_difference: string } | null {
  const pc = seg.period_consumption;
  const expected = dec(pc.end_value).minus(seg.baseline_value).times(seg.factor);
  // each figure as sent may be rounded by half its last place; the factor is exact
  const tolerance = halfUlp(pc.billable_value).plus(halfUlp(pc.end_value).plus(halfUlp(seg.baseline_value)).times(seg.factor));
  if (!dec(pc.billable_value).minus(expected).abs().greaterThan(tolerance)) return null;
  return { received: receivedText(pc.billable_value), meter_difference: formatDecimal(expected) };
}
