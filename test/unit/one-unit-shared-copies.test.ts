// Browse's one-unit export narrows a Property billed whole to one unit (narrowToUnit) and compares
// point ids as billing does (idKey): a unit whose answer writes a shared meter's id in capitals
// keeps that meter's readings. A unit whose copy billing refused (not listed for it:
// POINT_NOT_LISTED) is not billed for the meter, so its export carries no readings of it.
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { narrowToUnit } from '../../src/export/pipeline/one-unit.js';
import type { MeasuringPoint, Property } from '../../src/api/types.js';
import { PROPERTY, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe("browse's one-unit export of a shared meter", () => {
  const id = 'abcdef00-0000-4000-8000-00000000beef';
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
  const copy = (pointId: string) =>
    aPointConsumption({
      measuring_point_id: pointId,
      unit_share: 0.5,
      segments: [
        aSegment({
          device_id: device,
          serial: 'SN-S',
          readings: [aReading({ at: '2025-11-30', value: 105 }), aReading({ at: '2025-12-31', value: 110 })],
          period_consumption: { billable_value: 10, weighted_billable_value: 5 },
        }),
      ],
    });
  const units = [aUnitEntry('WE 00', [copy(id)]), aUnitEntry('WE 01', [copy(id)], { id: we01 }), aUnitEntry('WE 02', [copy(id.toUpperCase())], { id: we02 })];
  const bill = billProperty(aPropertyInput({ units, points }));
  const property = { ...PROPERTY, tenant_id: uuid(2), external_ref: null, addresses: [], usage_unit_count: 3 } as Property;
  const whole = { answers: { property, units, points, plantPoints: [] }, bill, found: [] };

  it('keeps the readings for a unit that writes the id in capitals', () => {
    const mine = narrowToUnit(we02, whole);
    expect(mine.bill.readings.map((r) => r.at)).toEqual(['2025-11-30', '2025-12-31']);
    expect(mine.answers.points.map((p) => p.id)).toEqual([id]);
  });

  it('gives a unit whose copy was refused no readings of the meter', () => {
    const we00 = narrowToUnit(units[0]!.unit.id, whole);
    expect(we00.bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(we00.bill.readings).toEqual([]);
  });
});
