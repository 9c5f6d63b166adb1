// A device counts from its start value (baseline_value at baseline_date): where that was taken after the
// device began to count, the days before it are in no device's figure. Billed as sent, with a review
// finding naming the days (src/billing/gaps.ts startValueGaps).
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { flagMessage } from '../../src/billing/findings.js';
import type { DeviceSegment } from '../../src/api/types.js';
import { PROPERTY, RANGE, aPointConsumption, aReading, aSegment, aUnitEntry, pointListOf } from '../helpers/builders.js';

const bill = (segments: DeviceSegment[], metric = 'heat', unit = 'kWh') => {
  const e = aUnitEntry('WE 01', [aPointConsumption({ metric, unit, segments })]);
  const b = billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points: pointListOf({ property: PROPERTY, units: [e] }) });
  const late = b.flags.filter((f) => f.code === 'START_VALUE_LATE');
  return { value: b.billing[0]!.billable_value, late: late.map((f) => [f.severity, f.facts]), flags: late, codes: b.flags.map((f) => f.code) };
};
const one = (installed: string | null, baselineDate: string, origin: DeviceSegment['baseline_origin'] = 'first_reading') =>
  aSegment({
    serial: 'Z-1',
    installed_at: installed,
    baseline_value: 100,
    baseline_date: baselineDate,
    baseline_origin: origin,
    readings: [aReading({ at: '2025-12-31', value: 110 })],
    period_consumption: { end_value: 110, billable_value: 10, weighted_billable_value: 10 },
  });
const gap = (from: string, to: string, baselineDate: string, serial = 'Z-1', metric = 'heat') => [
  'review',
  { serial, baseline_date: baselineDate, gap_from: from, gap_to: to, point_metric: metric },
];

describe('a start value taken after the device began to count', () => {
  it('installed 2020, start value of 30 September (recorded, first reading): 1 January to 29 September named, 10 billed', () => {
    for (const origin of ['recorded', 'first_reading'] as const) {
      const { value, late } = bill([one('2020-03-15', '2025-09-30', origin)]);
      expect(value).toBe('10');
      expect(late).toEqual([gap('2025-01-01', '2025-09-29', '2025-09-30')]);
    }
  });

  it('a successor installed the day after the removal, its start value its first reading on 30 September: 1 April to 29 September', () => {
    const old = aSegment({
      serial: 'ALT-1',
      installed_at: '2019-01-01',
      deinstalled_at: '2025-03-31',
      replacement_reason: 'DeviceReplacement',
      readings: [aReading({ at: '2025-03-31', value: 125 })],
      period_consumption: { end_value: 125, billable_value: 25, weighted_billable_value: 25 },
    });
    const next = { ...one('2025-04-01', '2025-09-30'), readings: [aReading({ at: '2025-09-30', value: 100 }), aReading({ at: '2025-12-31', value: 110 })] };
    const { value, late, codes } = bill([old, next], 'water_warm', 'm3');
    expect(value).toBe('35');
    expect(late).toEqual([gap('2025-04-01', '2025-09-29', '2025-09-30', 'Z-1', 'water_warm')]);
    expect(codes).not.toContain('DEVICE_GAP');
  });

  it('a start value on the installation day, or the month end before the range for a device installed before it, is no gap', () => {
    expect(bill([one('2025-05-01', '2025-05-01')]).late).toEqual([]);
    expect(bill([one('2020-03-15', '2024-12-31', 'month_end_before_range')]).late).toEqual([]);
    expect(bill([one(null, '2024-12-31', 'month_end_before_range')]).late).toEqual([]);
  });

  it("a first device without installed_at and its first known value inside the range: named from the range's start", () => {
    expect(bill([one(null, '2025-09-30', 'first_known_in_range')]).late).toEqual([gap('2025-01-01', '2025-09-29', '2025-09-30')]);
  });

  it('a successor without installed_at is named once, as DEVICE_GAP up to its first known value', () => {
    const old = {
      ...one('2019-01-01', '2024-12-31', 'recorded'),
      serial: 'ALT-1',
      deinstalled_at: '2025-03-31',
      readings: [aReading({ at: '2025-03-31', value: 105 })],
    };
    old.period_consumption = { ...old.period_consumption, end_value: 105, billable_value: 5, weighted_billable_value: 5 };
    const { late, codes } = bill([old, one(null, '2025-10-31', 'first_known_in_range')]);
    expect(late).toEqual([]);
    expect(codes).toContain('DEVICE_GAP');
  });

  it('the German text names the Anfangsstand, the days and § 9a Abs. 1 HeizkostenV for heat; cold water names no paragraph', () => {
    const [heat] = bill([one('2020-03-15', '2025-09-30')]).flags;
    expect(flagMessage(heat!, 'de')).toMatch(
      /Anfangsstand erst später erfasst: Tage davor in keinem Zählerwert.*Stichtag: 30\.09\.2025.*nicht erfasst vom: 01\.01\.2025, nicht erfasst bis: 29\.09\.2025.*§ 9a Abs\. 1 HeizkostenV/,
    );
    const [cold] = bill([one('2020-03-15', '2025-09-30')], 'water_cold', 'm3').flags;
    expect(flagMessage(cold!, 'en')).toMatch(/start value .* taken only on the start date given/);
    expect(flagMessage(cold!, 'en')).not.toMatch(/HeizkostenV/);
  });

  it('names no day after the removal, and a start date or installation date that is no date throws nothing', () => {
    const removed = { ...one('2020-03-15', '2025-09-30'), deinstalled_at: '2025-06-30', replacement_reason: 'DeviceRemoval' as const };
    removed.readings = [aReading({ at: '2025-06-30', value: 110 })];
    expect(bill([removed]).late).toEqual([gap('2025-01-01', '2025-06-30', '2025-09-30')]);
    expect(() => bill([one('2020-03-15', '2025-13-45')])).not.toThrow();
    expect(() => bill([one('kein Datum', '2025-09-30')])).not.toThrow();
  });
});
