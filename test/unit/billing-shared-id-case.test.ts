// A shared meter whose id one unit's answer writes in capitals is the same meter (idKey: the
// copies check, share sums and the Property's list compare ids so): it is billed at each unit's
// share with no finding, as it should be. Its readings, though, are kept once per id as written
// (billProperty's readingsByPoint keys on the raw measuring_point_id), so readings.csv lists the
// meter's month ends twice, once under each spelling of its id.
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import type { MeasuringPoint, Property } from '../../src/api/types.js';
import { narrowToUnit } from '../../src/export/pipeline/one-unit.js';
import { PROPERTY, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe('a shared meter whose id one unit writes in capitals', () => {
  const id = 'abcdef00-0000-4000-8000-00000000abcd';
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
  const units = [aUnitEntry('WE 01', [copy(id)], { id: we01 }), aUnitEntry('WE 02', [copy(id.toUpperCase())], { id: we02 })];
  const bill = billProperty(aPropertyInput({ units, points }));

  it('is billed at each share without a finding', () => {
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['5', '5']);
    expect(bill.flags).toEqual([]);
  });

  it('lists its two month-end readings once, not once per spelling of its id (4 rows today)', () => {
    expect(bill.readings.map((r) => r.at)).toEqual(['2025-11-30', '2025-12-31']);
  });

  it("keeps them in browse's one-unit export of the unit that writes the id in capitals (narrowToUnit compares ids so too)", () => {
    const property = { ...PROPERTY, tenant_id: uuid(2), external_ref: null, addresses: [], usage_unit_count: 2 } as Property;
    const mine = narrowToUnit(we02, { answers: { property, units, points, plantPoints: [] }, bill, found: [] });
    expect(mine.bill.readings.map((r) => r.at)).toEqual(['2025-11-30', '2025-12-31']);
    expect(mine.answers.points.map((p) => p.id)).toEqual([id]);
  });
});
