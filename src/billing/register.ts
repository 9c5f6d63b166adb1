// A meter's register only counts up: heat and water meters add what flowed through them, so a
// month-end reading below the start value or below an earlier reading, or an end value below the
// last reading, cannot be that device's count (a mis-read register, or another device's values).
// The difference of end and start alone may still look honest (a June reading of 5,000 beside an
// end value of 110 over a start value of 100 billed 10). A heat cost allocator is left out: an
// electronic one starts again from 0 on its annual reading date (Stichtag), which the contract
// does not give, so its readings may fall within a range. Pure.
import type { DeviceSegment } from '../api/types.js';
import { formatDecimal } from './decimal.js';

/** The metric whose register may start again inside a range: the heat cost allocator's. */
const RESETS = new Set(['hca']);

/** Whether the metric's register may start again inside a range (the heat cost allocator's, on its Stichtag). */
export const mayRestart = (metric: string): boolean => RESETS.has(metric);

/**
 * The first place a billed segment's register runs backwards, in date order: a reading below the
 * value before it (the start value, or the earlier reading), the start value below a reading dated
 * before it, or the end value below the last reading, with both values and their dates. A reading
 * that is no count (isCount: missing, or an estimate) is passed over. A reading before
 * baseline_date is still this device's count (one before installed_at is another window's, refused as
 * READING_OUTSIDE_WINDOW before this runs): a late start value does not hide a June reading of 5,000.
 * null: the register counts up, or the metric is left out.
 */
export function registerBackwards(seg: DeviceSegment, metric: string): Record<string, string> | null {
  if (mayRestart(metric)) return null;
  const start: Count = { at: seg.baseline_date, value: seg.baseline_value, start: true };
  // the start value before a reading of its own day: that reading is compared with it, as before
  const counts = [start, ...seg.readings.filter(isCount)].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  let before = counts[0]!;
  for (const c of counts.slice(1)) {
    if (c.value < before.value) {
      const what: Record<string, string> =
        'start' in c ? { baseline_date: c.at, baseline_value: formatDecimal(c.value) } : { reading_date: c.at, value: formatDecimal(c.value) };
      return { ...what, ...earlier(before) };
    }
    before = c;
  }
  const end = seg.period_consumption.end_value;
  return end < before.value ? { end_value: formatDecimal(end), ...earlier(before) } : null;
}

type Count = { at: string; value: number; start?: true };

/**
 * A reading that is the device's own count: measured, or read after the calibration period ended. A
 * `missing` one's value is a placeholder; a `calculated` (or substituted, or any `is_synthetic`) one is
 * an estimate between two counts, and a degree-day estimate may lie above the next measured count (31
 * March calculated 150, 30 April measured 145) without any register running backwards. A status the
 * contract does not know yet is no count either.
 */
export const isCount = (r: DeviceSegment['readings'][number]): boolean =>
  (r.status === 'measured' || r.status === 'calibration_expired') && r.is_synthetic !== true;

const earlier = (before: { at: string; value: number }): Record<string, string> => ({
  before_date: before.at,
  before_value: formatDecimal(before.value),
});
