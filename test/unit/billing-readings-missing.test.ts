// A segment with a value to bill but not one reading dated in the period: the contract gives one
// reading per month end in the range, so such a value stands on no reading of this period (another
// year's answer with its readings left out passed the plant meter's period check, which looks at
// readings, and was billed: 80,000 kWh in plant-points.csv with only an info). Not billed,
// READINGS_MISSING; a device whose window reaches no month end of the period has none to send.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
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

describe('a value to bill without a reading of the period', () => {
  it('of a plant-room meter: 0 in plant-points.csv, READINGS_MISSING naming the device and the first month end', () => {
    const seg = unread({
      period_consumption: { billable_value: 80_000, end_value: 90_000, weighted_billable_value: undefined },
    });
    const plant = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh', segments: [seg] }, point: { metric: 'heat', unit: 'kWh' } });
    const bill = billProperty(aPropertyInput({ plantPoints: [plant] }));
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['0']);
    const flag = bill.flags.find((f) => f.code === 'READINGS_MISSING')!;
    expect(flag).toMatchObject({ severity: 'not_billed', facts: { serial: 'WMZ-80', reading_date: '2025-01-31' } });
    expect(flagMessage(flag, 'de')).toMatch(/^Verbrauch ohne Ablesewert zum Monatsende im Zeitraum: nicht abgerechnet \(Gerät: WMZ-80/);
  });

  it("of a unit's meter: the unit's row 0", () => {
    const we01 = aUnitEntry('WE 01', [aPointConsumption({ metric: 'heat', unit: 'kWh', segments: [unread()] })]);
    const bill = billProperty(aPropertyInput({ units: [we01] }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(notBilled(bill.flags)).toEqual(['READINGS_MISSING']);
  });

  it('of a device installed after the last month end it could read (13 to 20 December, removed): billed', () => {
    const seg = unread({
      installed_at: '2025-12-13',
      deinstalled_at: '2025-12-20',
      baseline_date: '2025-12-13',
      period_consumption: { billable_value: 5, end_value: 10_005, weighted_billable_value: 5 },
    });
    const bill = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption({ segments: [seg] })])] }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['5']);
    expect(notBilled(bill.flags)).toEqual([]);
  });

  it('with a reading of the period, or a status that bills nothing anyway: no READINGS_MISSING', () => {
    const read = unread({ readings: [aReading({ at: '2025-12-31', value: 90_000 })] });
    const missing = unread({ period_consumption: { billable_value: 0, end_value: 10_000, weighted_billable_value: 0, status: 'missing' } });
    const bill = billProperty(
      aPropertyInput({
        units: [aUnitEntry('WE 01', [aPointConsumption({ segments: [read] })]), aUnitEntry('WE 02', [aPointConsumption({ segments: [missing] })])],
      }),
    );
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['80000', '0']);
    expect(bill.flags.map((f) => f.code)).not.toContain('READINGS_MISSING');
  });
});
