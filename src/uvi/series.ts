// The readings the monthly information reads: those the contract gives. Pure.
import type { DeviceSegment } from '../api/types.js';
import { monthEnd, type Month } from './months.js';

/**
 * The segments with the readings the contract gives: one per month end of the range (MeterReading.at), the
 * range being the months asked for (rangeOf). Any other reading, dated between two month ends or outside the
 * range, decides nothing here: not a month (readingAt reads month ends only) and not the bounds of an estimate
 * (contradicted.ts), where one such reading turned a ruled-out allocator estimate into a figure in every
 * allocator letter of the Property (round 32 F1, F3). Billing names it (READING_NOT_IN_SERIES).
 */
export function seriesOnly(segments: readonly DeviceSegment[], months: readonly Month[]): readonly DeviceSegment[] {
  const ends = new Set(months.map(monthEnd));
  return segments.map((seg) => (seg.readings.every((r) => ends.has(r.at)) ? seg : { ...seg, readings: seg.readings.filter((r) => ends.has(r.at)) }));
}
