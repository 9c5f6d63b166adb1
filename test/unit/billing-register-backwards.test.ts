// A heat or water meter's register only counts up: a segment whose readings or end value fall
// below an earlier value is not billed, even where end minus start looks plausible (src/billing/register.ts).
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import type { DeviceSegment } from '../../src/api/types.js';
import { PROPERTY, RANGE, aPointConsumption, aReading, aSegment, aUnitEntry, pointListOf } from '../helpers/builders.js';

const bill = (segments: DeviceSegment[], metric = 'water_cold', unit = 'm3') => {
  const e = aUnitEntry('WE 01', [aPointConsumption({ metric, unit, segments })]);
  const b = billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points: pointListOf({ property: PROPERTY, units: [e] }) });
  return { value: b.billing[0]!.billable_value, flags: b.flags.filter((f) => f.code === 'REGISTER_BACKWARDS') };
};
const yearOf = (readings: { at: string; value: number }[], end = 110) =>
  aSegment({
    baseline_value: 100,
    readings: readings.map((r) => aReading(r)),
    period_consumption: { end_value: end, billable_value: end - 100, weighted_billable_value: end - 100 },
  });

describe('a register that runs backwards', () => {
  it('a June reading 5,000 above the end value of 110 is not billed, with both readings named', () => {
    const { value, flags } = bill([
      yearOf([
        { at: '2025-06-30', value: 5000 },
        { at: '2025-12-31', value: 110 },
      ]),
    ]);
    expect(value).toBe('0');
    expect(flags.map((f) => [f.severity, f.facts])).toEqual([
      ['not_billed', { serial: expect.any(String), reading_date: '2025-12-31', value: '110', before_date: '2025-06-30', before_value: '5000' }],
    ]);
  });

  it('a January reading below the start value of 100 is not billed', () => {
    const { value, flags } = bill(
      [
        yearOf([
          { at: '2025-01-31', value: 20 },
          { at: '2025-12-31', value: 110 },
        ]),
      ],
      'heat',
      'kWh',
    );
    expect(value).toBe('0');
    expect(flags[0]!.facts).toMatchObject({ reading_date: '2025-01-31', value: '20', before_date: '2024-12-31', before_value: '100' });
  });

  it('an end value on a removal day below the last month-end reading is not billed', () => {
    const seg = aSegment({
      installed_at: '2019-01-01',
      deinstalled_at: '2025-06-15',
      replacement_reason: 'DeviceRemoval',
      readings: [aReading({ at: '2025-05-31', value: 140 })],
      period_consumption: { end_value: 120, billable_value: 20, weighted_billable_value: 20 },
    });
    const { value, flags } = bill([seg]);
    expect(value).toBe('0');
    expect(flags[0]!.facts).toMatchObject({ end_value: '120', before_date: '2025-05-31', before_value: '140' });
  });

  it('a register counting up, a reading marked missing (placeholder 0) and a reading equal to the one before are billed', () => {
    const { value, flags } = bill([
      yearOf([
        { at: '2025-03-31', value: 104 },
        { at: '2025-04-30', value: 0, status: 'missing' } as never,
        { at: '2025-05-31', value: 104 },
        { at: '2025-12-31', value: 110 },
      ]),
    ]);
    expect([value, flags]).toEqual(['10', []]);
  });

  it('a heat cost allocator, whose register starts again from 0 on its reading date, is not judged so', () => {
    const { value, flags } = bill(
      [
        yearOf([
          { at: '2025-06-30', value: 5000 },
          { at: '2025-12-31', value: 110 },
        ]),
      ],
      'hca',
      'unit',
    );
    expect([value, flags]).toEqual(['10', []]);
  });
});

describe('a start value dated after readings of the same device', () => {
  const late = (baselineDate: string, june: { value: number; status?: string }) =>
    aSegment({
      baseline_value: 100,
      baseline_date: baselineDate,
      readings: [aReading({ at: '2025-06-30', ...june } as never), aReading({ at: '2025-12-31', value: 110 })],
      period_consumption: { end_value: 110, billable_value: 10, weighted_billable_value: 10 },
    });

  it('a June reading of 5,000 before a start value of 100 dated 31 July or 31 December is not billed', () => {
    for (const date of ['2025-07-31', '2025-12-31']) {
      const { value, flags } = bill([late(date, { value: 5000 })]);
      expect(value).toBe('0');
      expect(flags.map((f) => f.facts)).toEqual([
        { serial: expect.any(String), baseline_date: date, baseline_value: '100', before_date: '2025-06-30', before_value: '5000' },
      ]);
    }
  });

  it('a June reading marked missing (a placeholder, no count) before the late start value is passed over', () => {
    expect(bill([late('2025-12-31', { value: 5000, status: 'missing' })])).toEqual({ value: '10', flags: [] });
  });

  it('a June reading below the late start value, and a late first_reading start value with no earlier reading, are billed', () => {
    expect(bill([late('2025-07-31', { value: 60 })])).toEqual({ value: '10', flags: [] });
    const first = aSegment({
      baseline_value: 300,
      baseline_date: '2025-09-30',
      baseline_origin: 'first_reading',
      readings: [aReading({ at: '2025-09-30', value: 300 }), aReading({ at: '2025-12-31', value: 325 })],
      period_consumption: { end_value: 325, billable_value: 25, weighted_billable_value: 25 },
    });
    expect(bill([first], 'heat', 'kWh')).toEqual({ value: '25', flags: [] });
  });
});

describe('an estimated month-end value is no count of the register', () => {
  const calculated = (at: string, value: number) =>
    aReading({ at, value, status: 'calculated', is_synthetic: true, substitution_method: 'degree_day_weighted' } as Partial<ReturnType<typeof aReading>>);
  const heatYear = (readings: ReturnType<typeof aReading>[], end = 200) =>
    aSegment({
      baseline_value: 100,
      baseline_date: '2024-12-31',
      readings,
      period_consumption: { end_value: end, billable_value: end - 100, weighted_billable_value: end - 100 },
    });

  it('a degree-day estimate for 31 March above the measured 30 April count is billed (start and end are measured)', () => {
    const seg = heatYear([calculated('2025-03-31', 150), aReading({ at: '2025-04-30', value: 145 }), aReading({ at: '2025-12-31', value: 200 })]);
    expect(bill([seg], 'heat', 'kWh')).toEqual({ value: '100', flags: [] });
  });

  it('a measured count below the measured one before it is still refused, with an estimate between them', () => {
    const seg = heatYear([
      aReading({ at: '2025-03-31', value: 150 }),
      calculated('2025-04-30', 160),
      aReading({ at: '2025-05-31', value: 145 }),
      aReading({ at: '2025-12-31', value: 200 }),
    ]);
    const { value, flags } = bill([seg], 'heat', 'kWh');
    expect(value).toBe('0');
    expect(flags.map((f) => f.facts)).toEqual([
      { serial: expect.any(String), reading_date: '2025-05-31', value: '145', before_date: '2025-03-31', before_value: '150' },
    ]);
  });

  it('an end value below the last measured count is still refused, whatever an estimate after it says', () => {
    const seg = heatYear([aReading({ at: '2025-06-30', value: 5000 }), calculated('2025-11-30', 100), aReading({ at: '2025-12-31', value: 110 })], 110);
    expect(bill([seg], 'heat', 'kWh').value).toBe('0');
  });
});
