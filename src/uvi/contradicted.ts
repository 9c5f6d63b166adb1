// An estimated month-end reading (calculated, substituted or synthetic) stands for a count nobody
// read. The device's own counts around it bound it: a register only counts up, so an estimate above
// the next count (or the end value, where that was read) or below the previous one (or the start
// value) cannot be what the device showed that day, and neither month resting on it can be told: a
// calculated 9,000 between a measured 1,700 and 1,900 printed June as 7,300 kWh*, and one flat's
// calculated allocator spike shrank every other flat's June through the Property's allocator sum. A
// degree-day estimate that honestly overshoots (150 above a measured 145) fails the same test: its
// months show no figure rather than one that cannot be right. Billing is not touched: it bills the
// year from the start and end values, and an estimate is no count there either (register.ts). Pure.
import { BASELINE_ORIGINS, isKnown, type DeviceSegment } from '../api/types.js';
import { isCount } from '../billing/register.js';

/** A value nobody read off the device: calculated, substituted (interpolated or carried forward) or synthetic. */
export const isEstimate = (status: string, synthetic: boolean): boolean => status === 'calculated' || status === 'substituted' || synthetic;

/**
 * A start value nobody read: an assumed one (a replacement allocator's, taken as 0), or one of an
 * origin the contract does not name (UNKNOWN_ENUM_VALUE), of which nobody can say it was read.
 */
export function startEstimated(seg: DeviceSegment): boolean {
  const known = typeof seg.baseline_origin === 'string' && isKnown(BASELINE_ORIGINS, seg.baseline_origin);
  return seg.baseline_origin === 'assumed_zero' || (seg.baseline_origin != null && !known);
}

type Count = { at: string; value: number };

/** An open segment's end value is the range's last day: after every month end it could bound. */
const RANGE_END = '9999-12-31';

/** The segment's read counts: the start value first (a reading of the same day counts after it), the readings, the end value. */
function countsOf(seg: DeviceSegment): Count[] {
  const start = seg.baseline_origin !== 'none' && !startEstimated(seg) ? [{ at: seg.baseline_date, value: seg.baseline_value }] : [];
  const readings = seg.readings.filter(isCount);
  const pc = seg.period_consumption;
  const end = pc.status === 'measured' || pc.status === 'calibration_expired' ? [{ at: seg.deinstalled_at ?? RANGE_END, value: pc.end_value }] : [];
  return [...start, ...readings, ...end].filter((c) => typeof c.value === 'number' && Number.isFinite(c.value));
}

/**
 * Whether the segment's own counts before and after `at` rule out the estimate `value` there.
 * `restarts`: the register may start again from 0 (a heat cost allocator, once a year on its
 * reading date, which the contract does not give); a heat or water meter's never does.
 */
export function contradicted(seg: DeviceSegment, at: string, value: number, restarts: boolean): boolean {
  let before: Count | undefined;
  let after: Count | undefined;
  for (const c of countsOf(seg)) {
    if (c.at < at && (before === undefined || c.at >= before.at)) before = c;
    if (c.at > at && (after === undefined || c.at < after.at)) after = c;
  }
  const above = after !== undefined && value > after.value;
  const below = before !== undefined && value < before.value;
  if (!restarts) return above || below;
  // The later count below the earlier: the register started again in between (an allocator on its
  // reading date), and the estimate may lie before the restart (at or above the earlier count) or
  // after it (at or below the later one). Where the counts did not fall, nothing but the estimate
  // says the register started again: 100 calculated between 1,700 and 1,900 would print July as
  // 1,800* and shrink every other flat's July through the Property's allocator sum, so it is ruled
  // out, and an honest estimate after a restart (450 read, 30 calculated, 500 read) loses its two
  // months to `–` with it: a missing month is never wrong, a figure that may be is.
  const fell = before !== undefined && after !== undefined && after.value < before.value;
  return fell ? above && below : above || below;
}
