// readings.csv lists a shared meter's readings once, from "the first unit (in unit order) that
// has it" (billProperty's readingsByPoint). That unit's copy may be one billing refuses: a unit the
// Property does not list for the meter (POINT_NOT_LISTED), whose copy the copies check leaves out
// as saying nothing about the meter. Then readings.csv shows that refused copy's month ends (9999)
// while the units billed show their own copies' (segments.csv end value 110, billed 5 and 5):
// the file a reviewer checks the bill against contradicts the bill, with no finding about it.
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import type { MeasuringPoint, Property } from '../../src/api/types.js';
import { narrowToUnit } from '../../src/export/pipeline/one-unit.js';
import { PROPERTY, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe("a shared meter whose first unit's copy is not listed for that unit", () => {
  const id = uuid();
  const device = uuid();
  const [we01, we02] = [uuid(), uuid()];
  const points: MeasuringPoint[] = [
    {
      id,
      property_id: PROPERTY.id,
      usage_unit_id: we01,
      metric: 'heat',
      unit: 'kWh',
      allocations: [
        { usage_unit_id: we01, share: 0.5 },
        { usage_unit_id: we02, share: 0.5 },
      ],
    },
  ];
  const copy = (reading: number, billable: number) =>
    aPointConsumption({
      measuring_point_id: id,
      unit_share: 0.5,
      segments: [
        aSegment({
          device_id: device,
          serial: 'SN-S',
          readings: [aReading({ at: '2025-12-31', value: reading })],
          period_consumption: { billable_value: billable, weighted_billable_value: billable / 2 },
        }),
      ],
    });
  // WE 00 sorts first and is not listed for the meter
  const units = [
    aUnitEntry('WE 00', [copy(9999, 9899)]),
    aUnitEntry('WE 01', [copy(110, 10)], { id: we01 }),
    aUnitEntry('WE 02', [copy(110, 10)], { id: we02 }),
  ];
  const bill = billProperty(aPropertyInput({ units, points }));

  it("is billed from the listed units' copies", () => {
    expect(bill.billing.map((r) => [r.usage_unit_name, r.billable_value])).toEqual([
      ['WE 00', '0'],
      ['WE 01', '5'],
      ['WE 02', '5'],
    ]);
    expect(bill.flags.map((f) => f.code)).toEqual(['POINT_NOT_LISTED']);
  });

  it('has in readings.csv the month end of the copies billed (110), not the refused copy (9999)', () => {
    expect(bill.readings.map((r) => [r.at, r.value])).toEqual([['2025-12-31', '110']]);
  });

  it("gives browse's one-unit export of the unit whose copy was refused no readings of the meter (narrowToUnit)", () => {
    const property = { ...PROPERTY, tenant_id: uuid(2), external_ref: null, addresses: [], usage_unit_count: 3 } as Property;
    const we00 = narrowToUnit(units[0]!.unit.id, { answers: { property, units, points, plantPoints: [] }, bill, found: [] });
    expect(we00.bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(we00.bill.readings).toEqual([]);
  });
});
