// Builders for the monthly consumption information tests: device segments with month-end
// readings over the 13 months ending November 2025, and the expectations' plain arithmetic.
import type { DeviceSegment, MeasuringPointConsumption, MeterReading } from '../../src/api/types.js';
import { aPointConsumption, aSegment } from './builders.js';

/** The letter's month and its 13 months, written out (not computed by the code under test). */
export const MONTH = '2025-11';
export const MONTHS = [
  '2024-11',
  '2024-12',
  '2025-01',
  '2025-02',
  '2025-03',
  '2025-04',
  '2025-05',
  '2025-06',
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
];
export const ENDS = [
  '2024-11-30',
  '2024-12-31',
  '2025-01-31',
  '2025-02-28',
  '2025-03-31',
  '2025-04-30',
  '2025-05-31',
  '2025-06-30',
  '2025-07-31',
  '2025-08-31',
  '2025-09-30',
  '2025-10-31',
  '2025-11-30',
];
/** The month end before the range: the baseline of a device installed earlier. */
export const BEFORE = '2024-10-31';

/** One reading: a value (measured), [value, status], or null for no reading at that month end. */
export type R = number | [number, string] | null;

export function readings(values: readonly R[], ends: readonly string[] = ENDS): MeterReading[] {
  return values.flatMap((v, i) => {
    if (v === null) return [];
    const [value, status] = typeof v === 'number' ? [v, 'measured'] : v;
    return [
      { at: ends[i]!, value, status, substitution_method: status === 'calculated' ? 'degree_day_weighted' : null, is_synthetic: status === 'calculated' },
    ];
  });
}

/** A device measuring from BEFORE (baseline `start`) with one reading per month end of MONTHS. */
export function series(start: number, values: readonly R[], more: Partial<DeviceSegment> = {}): DeviceSegment {
  const last = values.at(-1);
  const end = typeof last === 'number' ? last : Array.isArray(last) ? last[0] : 0;
  return aSegment({
    installed_at: '2019-05-01',
    baseline_value: start,
    baseline_date: BEFORE,
    baseline_origin: 'month_end_before_range',
    readings: readings(values),
    period_consumption: { end_value: end, billable_value: end - start, weighted_billable_value: undefined, status: 'measured' },
    ...more,
  });
}

/** A point under a unit with the given segments. */
export function point(metric: string, segments: DeviceSegment[], share = 1, more: Partial<MeasuringPointConsumption> = {}): MeasuringPointConsumption {
  const unit = metric === 'hca' ? 'unit' : metric === 'heat' ? 'kWh' : 'm3';
  return aPointConsumption({ metric, unit, unit_share: share, segments, ...more });
}

/** Month-by-month differences of a start value and readings, as a person writes them down. */
export function differences(start: number, values: readonly number[]): number[] {
  return values.map((v, i) => v - (i === 0 ? start : values[i - 1]!));
}

/** Cumulative readings from a start value and monthly consumption. */
export function cumulative(start: number, monthly: readonly number[]): number[] {
  let v = start;
  return monthly.map((m) => (v += m));
}

/** A Decimal or null as a plain number for toBeCloseTo. */
export const n = (d: { toNumber(): number } | null | undefined): number | null => (d == null ? null : d.toNumber());

/** A Property of two units with allocators and warm-water meters and a plant heat meter: monthly figures, MONTHS order. */
export const ALLOCATOR_PROPERTY: Record<'hcaA' | 'hcaB' | 'wwA' | 'wwB' | 'plantHeat', number[]> = {
  hcaA: [40, 35, 50, 45, 30, 20, 5, 0, 0, 2, 10, 25, 30],
  hcaB: [60, 65, 50, 55, 50, 30, 5, 1, 0, 2, 15, 35, 50],
  wwA: [2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2],
  wwB: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  plantHeat: [3000, 3500, 4000, 3600, 2800, 1800, 700, 600, 600, 800, 1500, 2600, 3200],
};
