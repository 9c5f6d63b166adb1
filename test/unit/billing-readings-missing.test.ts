// A segment's value stands on the reading at its window's last month end in the period (MeterReading:
// one reading per calendar month end in the range; range rules 3 to 5): the period's end, or the removal
// day where that is a month end (its reading is then the end value), or the last month end before a
// removal between two. Another year's answer with its readings left out (80,000 kWh billed in
// plant-points.csv with only an info), or with only its January reading, or only a mid-month one, was
// billed. Not billed: READINGS_MISSING, or END_VALUE_NOT_AS_READ where the reading is not the end value.
// A device whose window reaches no month end of the period has none to send.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import type { MeterReading } from '../../src/api/types.js';
import { aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, type SegmentOverrides } from '../helpers/builders.js';

const unread = (overrides: SegmentOverrides = {}) =>
  aSegment({
    serial: 'WMZ-80',
    installed_at: '2020-03-15',
    baseline_value: 10_000,
    baseline_date: '2023-12-31',
    readings: [],
    period_consumption: { billable_value: 80_000, end_value: 90_000, weighted_billable_value: 80_000 },
    ...overrides,
  });
const notBilled = (flags: { code: string; severity: string }[]) => flags.filter((f) => f.severity === 'not_billed').map((f) => f.code);
/** Month ends of 2025 from January to `last` (mm), each read at `value(month)`. */
const monthEnds = (last: number, value: (month: number) => number): MeterReading[] =>
  Array.from({ length: last }, (_, i) => {
    const day = new Date(Date.UTC(2025, i + 1, 0)).toISOString().slice(0, 10);
    return aReading({ at: day, value: value(i + 1) });
  });
const unitBill = (overrides: SegmentOverrides) => {
  const bill = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption({ segments: [unread(overrides)] })])] }));
  return { billed: bill.billing.map((r) => r.billable_value), notBilled: notBilled(bill.flags), flags: bill.flags };
};

describe('a value to bill without its last month-end reading of the period', () => {
  it('of a plant-room meter without readings: 0 in plant-points.csv, READINGS_MISSING naming the device and the month end', () => {
    const seg = unread({
      period_consumption: { billable_value: 80_000, end_value: 90_000, weighted_billable_value: undefined },
    });
    const plant = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh', segments: [seg] }, point: { metric: 'heat', unit: 'kWh' } });
    const bill = billProperty(aPropertyInput({ plantPoints: [plant] }));
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['0']);
    const flag = bill.flags.find((f) => f.code === 'READINGS_MISSING')!;
    expect(flag).toMatchObject({ severity: 'not_billed', facts: { serial: 'WMZ-80', reading_date: '2025-12-31' } });
    expect(flagMessage(flag, 'de')).toMatch(/^Verbrauch ohne Ablesewert zum letzten Monatsende: nicht abgerechnet \(Gerät: WMZ-80/);
  });

  it('of a plant-room meter whose only reading is 31 January (80,000 to bill): 0 in plant-points.csv', () => {
    const seg = unread({
      readings: [aReading({ at: '2025-01-31', value: 90_000 })],
      period_consumption: { billable_value: 80_000, end_value: 90_000, weighted_billable_value: undefined },
    });
    const plant = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh', segments: [seg] }, point: { metric: 'heat', unit: 'kWh' } });
    const bill = billProperty(aPropertyInput({ plantPoints: [plant] }));
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['0']);
    expect(bill.flags.find((f) => f.code === 'READINGS_MISSING')?.facts).toMatchObject({ reading_date: '2025-12-31' });
  });

  it("of a unit's meter: without readings, with only 31 January, or only a mid-month reading, the unit's row 0", () => {
    expect(unitBill({})).toMatchObject({ billed: ['0'], notBilled: ['READINGS_MISSING'] });
    expect(unitBill({ readings: [aReading({ at: '2025-01-31', value: 90_000 })] })).toMatchObject({ billed: ['0'], notBilled: ['READINGS_MISSING'] });
    expect(unitBill({ readings: [aReading({ at: '2025-12-15', value: 90_000 })] })).toMatchObject({ billed: ['0'], notBilled: ['READINGS_MISSING'] });
  });

  it('with the reading at the last month end differing from the end value: END_VALUE_NOT_AS_READ, 0', () => {
    const r = unitBill({ readings: monthEnds(12, (m) => 10_000 + m * 6_000) });
    expect(r).toMatchObject({ billed: ['0'], notBilled: ['END_VALUE_NOT_AS_READ'] });
    const flag = r.flags.find((f) => f.code === 'END_VALUE_NOT_AS_READ')!;
    expect(flag.facts).toEqual({ serial: 'WMZ-80', reading_date: '2025-12-31', value: '82000', end_value: '90000' });
    expect(flagMessage(flag, 'en')).toMatch(/^End value differs from the month-end reading of the same day: not billed \(device: WMZ-80/);
    expect(flagMessage(flag, 'de')).toContain('Endstand: 90000');
  });

  it('of a device removed on 30 June whose reading of that day is its end value: billed', () => {
    const r = unitBill({
      deinstalled_at: '2025-06-30',
      readings: monthEnds(6, (m) => 10_000 + m * 5_000),
      period_consumption: { billable_value: 30_000, end_value: 40_000, weighted_billable_value: 30_000 },
    });
    expect(r).toMatchObject({ billed: ['30000'], notBilled: [] });
    // the same removal with another end value than the day's reading (rule 4: that value is the month's reading)
    const off = unitBill({
      deinstalled_at: '2025-06-30',
      readings: monthEnds(6, (m) => 10_000 + m * 5_000),
      period_consumption: { billable_value: 31_000, end_value: 41_000, weighted_billable_value: 31_000 },
    });
    expect(off).toMatchObject({ billed: ['0'], notBilled: ['END_VALUE_NOT_AS_READ'] });
  });

  it("of a device removed on 17 June, read at the month ends to 31 May: billed (its end value is the removal day's)", () => {
    const r = unitBill({
      deinstalled_at: '2025-06-17',
      readings: monthEnds(5, (m) => 10_000 + m * 5_000),
      period_consumption: { billable_value: 28_000, end_value: 38_000, weighted_billable_value: 28_000 },
    });
    expect(r).toMatchObject({ billed: ['28000'], notBilled: [] });
    // read only to 30 April: the month end before the removal is not read
    const short = unitBill({
      deinstalled_at: '2025-06-17',
      readings: monthEnds(4, (m) => 10_000 + m * 5_000),
      period_consumption: { billable_value: 28_000, end_value: 38_000, weighted_billable_value: 28_000 },
    });
    expect(short).toMatchObject({ billed: ['0'], notBilled: ['READINGS_MISSING'] });
    expect(short.flags[0]?.facts).toMatchObject({ reading_date: '2025-05-31' });
  });

  it('read at every month end, the last one its end value: billed', () => {
    const r = unitBill({ readings: monthEnds(12, (m) => (m === 12 ? 90_000 : 10_000 + m * 6_000)) });
    expect(r).toMatchObject({ billed: ['80000'], notBilled: [] });
  });

  it('of a device installed after the last month end it could read (13 to 20 December, removed): billed', () => {
    const r = unitBill({
      installed_at: '2025-12-13',
      deinstalled_at: '2025-12-20',
      baseline_date: '2025-12-13',
      baseline_value: 10_000,
      period_consumption: { billable_value: 5, end_value: 10_005, weighted_billable_value: 5 },
    });
    expect(r).toMatchObject({ billed: ['5'], notBilled: [] });
  });

  it('with a status that bills nothing anyway: no READINGS_MISSING', () => {
    const missing = unitBill({ period_consumption: { billable_value: 0, end_value: 10_000, weighted_billable_value: 0, status: 'missing' } });
    expect(missing.billed).toEqual(['0']);
    expect(missing.flags.map((f) => f.code)).not.toContain('READINGS_MISSING');
  });
});
