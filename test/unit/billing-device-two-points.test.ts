// One device (the same device_id, serial, window and readings) under two different points was
// billed at both: 20 instead of 10 in WE 01, or 10 in WE 01 and 10 in WE 02, with no finding. A
// device hangs at one place at a time: under two points with overlapping windows neither point is
// billed, DEVICE_AT_TWO_POINTS naming the serial and the other point on each. A shared meter (one
// point in two units) and a device moved on a day from one point to another are not affected.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import type { DeviceSegment } from '../../src/api/types.js';
import { aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, sharedCopies, uuid } from '../helpers/builders.js';

const device = (overrides: Partial<DeviceSegment> = {}) => aSegment({ device_id: uuid(), serial: 'WZ-4711', ...overrides });
const pointWith = (seg: DeviceSegment, id = uuid()) => aPointConsumption({ measuring_point_id: id, metric: 'water_cold', unit: 'm3', segments: [seg] });
const twice = (bill: ReturnType<typeof billProperty>) =>
  bill.flags.filter((f) => f.code === 'DEVICE_AT_TWO_POINTS').map((f) => [f.usage_unit_id, f.measuring_point_id, f.facts?.other_point, f.facts?.other_place]);

describe('one device under two points', () => {
  it('of one unit at the same time: neither is billed, each finding names the serial and the other point', () => {
    const seg = device();
    const [a, b] = [pointWith(seg), pointWith(structuredClone(seg))];
    const we01 = aUnitEntry('WE 01', [a, b]);
    const bill = billProperty(aPropertyInput({ units: [we01] }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(twice(bill).sort()).toEqual(
      [
        [we01.unit.id, a.measuring_point_id, b.measuring_point_id, 'WE 01'],
        [we01.unit.id, b.measuring_point_id, a.measuring_point_id, 'WE 01'],
      ].sort(),
    );
    const flag = bill.flags.find((f) => f.code === 'DEVICE_AT_TWO_POINTS')!;
    expect(flag.severity).toBe('not_billed');
    expect(flagMessage(flag, 'de')).toMatch(
      /^Dasselbe Gerät zur selben Zeit an zwei Messstellen geliefert: nicht abgerechnet \(Gerät: WZ-4711, auch geliefert unter Messstelle: /,
    );
    expect(flagMessage(flag, 'en')).toMatch(/\(device: WZ-4711, also sent under meter: [0-9a-f-]+, at: WE 01\)/);
  });

  it('of two units: neither unit is billed, each finding names the other unit', () => {
    const seg = device();
    const we01 = aUnitEntry('WE 01', [pointWith(seg)]);
    const we02 = aUnitEntry('WE 02', [pointWith(structuredClone(seg))]);
    const bill = billProperty(aPropertyInput({ units: [we01, we02] }));
    expect(bill.billing.map((r) => [r.usage_unit_name, r.billable_value])).toEqual([
      ['WE 01', '0'],
      ['WE 02', '0'],
    ]);
    expect(twice(bill).map((x) => x[3])).toEqual(['WE 02', 'WE 01']);
  });

  it('with a window left open (null) that reaches into the other: a conflict', () => {
    const id = uuid();
    const we01 = aUnitEntry('WE 01', [pointWith(device({ device_id: id, installed_at: null, deinstalled_at: '2025-06-30' }))]);
    const we02 = aUnitEntry('WE 02', [pointWith(device({ device_id: id, installed_at: '2025-03-01', deinstalled_at: null }))]);
    expect(billProperty(aPropertyInput({ units: [we01, we02] })).billing.map((r) => r.billable_value)).toEqual(['0', '0']);
  });

  it('moved on a day from one point to another (windows that do not overlap): both billed', () => {
    const id = uuid();
    const we01 = aUnitEntry('WE 01', [pointWith(device({ device_id: id, deinstalled_at: '2025-06-30' }))]);
    const we02 = aUnitEntry('WE 02', [pointWith(device({ device_id: id, installed_at: '2025-06-30' }))]);
    const bill = billProperty(aPropertyInput({ units: [we01, we02] }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['10', '10']);
    expect(twice(bill)).toEqual([]);
  });

  it("moved with neither installation documented: each window starts at its baseline day, as the point's own check reads it", () => {
    const id = uuid();
    const readings = ['2025-01-31', '2025-02-28', '2025-03-31'].map((at, i) => aReading({ at, value: 104 + 3 * i }));
    const before = device({ device_id: id, installed_at: null, deinstalled_at: '2025-03-31', baseline_date: '2024-12-31', baseline_value: 100, readings });
    const after = device({ device_id: id, installed_at: null, baseline_date: '2025-04-30', baseline_value: 110, baseline_origin: 'first_known_in_range' });
    const bill = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [pointWith(before)]), aUnitEntry('WE 02', [pointWith(after)])] }));
    expect(twice(bill)).toEqual([]);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['10', '10']);
  });

  it('moved before the period, the old place still sent: the old point is not billed (SEGMENT_OUTSIDE_RANGE), the new one is', () => {
    const id = uuid();
    const old = device({ device_id: id, installed_at: '2019-05-14', deinstalled_at: '2024-06-30', readings: [aReading({ at: '2024-06-30' })] });
    const bill = billProperty(
      aPropertyInput({
        units: [aUnitEntry('WE 01', [pointWith(old)]), aUnitEntry('WE 02', [pointWith(device({ device_id: id, installed_at: '2024-06-30' }))])],
      }),
    );
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '10']);
    expect(bill.flags.filter((f) => f.severity === 'not_billed').map((f) => f.code)).toEqual(['SEGMENT_OUTSIDE_RANGE']);
  });

  it('a shared meter (the same point in two units) is no conflict', () => {
    const units = sharedCopies(10, [0.5, 0.5]).map((c, i) => aUnitEntry(`WE 0${i + 1}`, [c]));
    const bill = billProperty(aPropertyInput({ units }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['5', '5']);
    expect(twice(bill)).toEqual([]);
  });

  it("a plant-room meter whose device is under a unit's point too: neither is billed", () => {
    const plant = aPlantPoint();
    const seg = structuredClone(plant.consumption.segments[0]!);
    const we01 = aUnitEntry('WE 01', [pointWith({ ...seg, period_consumption: { ...seg.period_consumption, weighted_billable_value: 500 } })]);
    const bill = billProperty(aPropertyInput({ units: [we01], plantPoints: [plant] }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(bill.plant.map((p) => [p.billable_value, p.review_flags.includes('DEVICE_AT_TWO_POINTS')])).toEqual([['0', true]]);
    expect(twice(bill).map((x) => x[3])).toEqual(['plant', 'WE 01']);
    const naming = bill.flags.find((f) => f.code === 'DEVICE_AT_TWO_POINTS' && f.usage_unit_id === we01.unit.id)!;
    expect(flagMessage(naming, 'de')).toMatch(/bei: den Technikraum- und Hauptzählern\)/);
  });

  it('under 2,000 points at once is billed at none of them, within a second', () => {
    const seg = device();
    const start = Date.now();
    const bill = billProperty(
      aPropertyInput({
        units: [
          aUnitEntry(
            'WE 01',
            Array.from({ length: 2000 }, () => pointWith(structuredClone(seg))),
          ),
        ],
      }),
    );
    expect(Date.now() - start).toBeLessThan(1000);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(twice(bill)).toHaveLength(2000);
  });
});
