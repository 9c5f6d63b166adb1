// A Property list entry with neither usage_unit_id nor allocations (the contract requires only
// property_id) is read by the walk as a plant-room meter (its /readings → plant-points.csv) and
// counted by billing as listed for any unit: carried by WE 01 too, it was billed 500 to WE 01 and
// 500 as a plant point. A point is billed in one place only: such an entry's point that a unit's
// answer carries is billed nowhere, with PLANT_POINT_IN_UNITS (not_billed) on each copy.
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

const neitherField = (id: string) => {
  const plant = aPlantPoint({ point: { id, property_id: PROPERTY.id }, consumption: { measuring_point_id: id } });
  const { usage_unit_id: _u, allocations: _a, ...point } = plant.point;
  return { ...plant, point };
};

describe('a Property list entry with neither usage_unit_id nor allocations', () => {
  it("carried in a unit's answer too is billed nowhere, with a not_billed finding naming it", () => {
    const id = uuid();
    const copy = aPointConsumption({
      measuring_point_id: id,
      metric: 'water_cold',
      unit: 'm3',
      segments: [aSegment({ period_consumption: { billable_value: 500, weighted_billable_value: 500 } })],
    });
    const a = aUnitEntry('WE 01', [copy]);
    const plant = neitherField(id);
    const bill = billProperty(aPropertyInput({ units: [a], plantPoints: [plant], points: [plant.point] }));
    expect(bill.plant).toEqual([]);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0']);
    expect(bill.flags.filter((f) => f.severity === 'not_billed').map((f) => [f.code, f.usage_unit_id, f.measuring_point_id])).toEqual([
      ['PLANT_POINT_IN_UNITS', a.unit.id, id],
    ]);
  });

  it("in no unit's answer stays a plant-room meter", () => {
    const plant = neitherField(uuid());
    const bill = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [])], plantPoints: [plant], points: [plant.point] }));
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['500']);
  });
});
