// The reading a segment's value stands on. The contract gives one reading per calendar month end
// in the range (MeterReading; range rule 3), takes end_value at the end of the range, `missing`
// when there is none there (PeriodConsumption; range rule 5), and for a device removed inside the
// range the value of its removal day, which is that month's reading when the day is a month end
// (range rule 4). A value to bill whose last month-end reading is absent stands on nothing of this
// period (one reading anywhere, or one between two month ends, passed before); one whose end value
// is not the reading of its end day cannot be the device's consumption.
import type { DeviceSegment, MeasuringPointConsumption } from '../api/types.js';
import type { ContractBreak } from './contract.js';
import { receivedText } from './plausible.js';
import { BILLABLE_STATUSES } from './types.js';

const pad = (n: number): string => String(n).padStart(2, '0');
const lastDayOf = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The latest month end on or before a yyyy-mm-dd text, compared as the window's texts are (so a
 * 31 June still comes after 30 June, and a month 13 after December).
 */
export function monthEndOnOrBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  if (m > 12) return `${y}-12-31`;
  if (m < 1) return `${y - 1}-12-31`;
  const last = lastDayOf(y, m);
  if (d >= last) return `${date.slice(0, 8)}${pad(last)}`;
  return m === 1 ? `${y - 1}-12-31` : `${date.slice(0, 5)}${pad(m - 1)}-${pad(lastDayOf(y, m - 1))}`;
}

/**
 * What breaks the month-end rule for one segment with a value to bill, given its installation
 * window (installationWindow; start '' when it places the device nowhere, which other findings
 * name) and the answer's range: READINGS_MISSING when the reading at the window's last month
 * end inside the range is absent; END_VALUE_NOT_AS_READ when that month end is the window's last
 * day in the range (not removed inside it, or removed on a month end) and its reading is not the
 * end value. A device removed between two month ends has its end value on the removal day, which
 * no reading shows; its last month end must still be read. A window that reaches no month end of
 * the range (installed and removed between two) has no reading to send.
 */
export function monthEndBreak(seg: DeviceSegment, window: { start: string; end: string }, range: { from: string; to: string }): ContractBreak | null {
  if (!BILLABLE_STATUSES.includes(seg.period_consumption.status) || window.start === '') return null;
  const first = window.start > range.from ? window.start : range.from;
  const last = window.end < range.to ? window.end : range.to;
  const monthEnd = monthEndOnOrBefore(last);
  if (monthEnd < first) return null;
  const reading = seg.readings.find((r) => r.at === monthEnd);
  if (!reading) return { code: 'READINGS_MISSING', facts: { serial: seg.serial, reading_date: monthEnd } };
  // Both are the device's own count (the K-factor applies to their difference from the baseline only), as sent.
  const endValue = seg.period_consumption.end_value;
  if (monthEnd === last && reading.value !== endValue) {
    return {
      code: 'END_VALUE_NOT_AS_READ',
      facts: { serial: seg.serial, reading_date: monthEnd, value: receivedText(reading.value), end_value: receivedText(endValue) },
    };
  }
  return null;
}

/**
 * The earliest reading of the point dated at none of the range's month ends (MeterReading.at: "month end; one
 * reading per calendar month end in the range"): between two month ends, or (where the range is known) outside
 * it. Billing's value stands on the readings at the range's end and at a removal (monthEndBreak) and is not changed
 * by it; the monthly information uses no such reading (uvi series.ts seriesOnly) and says why its months
 * around it have no figure (round 29 F6; round 32 F1, F3: one such reading decided allocator letters).
 */
export function notInSeries(c: MeasuringPointConsumption, range?: { from: string; to: string }): { serial: string; reading_date: string } | null {
  const off = (at: string) => monthEndOnOrBefore(at) !== at || (range !== undefined && (at < range.from || at > range.to));
  let found: { serial: string; reading_date: string } | null = null;
  for (const seg of c.segments)
    for (const r of seg.readings) if (off(r.at) && (found === null || r.at < found.reading_date)) found = { serial: seg.serial, reading_date: r.at };
  return found;
}
