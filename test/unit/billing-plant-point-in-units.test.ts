// A Property list entry with usage_unit_id null (a plant-room or main meter) that also gives
// allocations to units breaks the contract (null goes with empty allocations). It was billed both
// ways: through /readings as a plant point (500 in plant-points.csv with only UNALLOCATED_POINT,
// whose text asks for an own allocation key) and to WE 01 and WE 02 as their shared meter (500 each).
// Now it is billed nowhere, each unit's copy with PLANT_POINT_ALLOCATED (not_billed).
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe("a plant-room meter the Property lists with allocations, in the units' answers too", () => {
  it('is billed nowhere (not as a plant point, 0 in each unit) with a not_billed finding naming it', () => {
    const id = uuid();
    const device = uuid();
    const copy = (share: number) =>
      aPointConsumption({
        measuring_point_id: id,
        metric: 'water_cold',
        unit: 'm3',
        unit_share: share,
        segments: [aSegment({ device_id: device, serial: 'SN', period_consumption: { billable_value: 1000, weighted_billable_value: 1000 * share } })],
      });
    const a = aUnitEntry('WE 01', [copy(0.5)]);
    const b = aUnitEntry('WE 02', [copy(0.5)]);
    // aPlantPoint's answer bills 500
    const plant = aPlantPoint({
      point: {
        id,
        property_id: PROPERTY.id,
        allocations: [
          { usage_unit_id: a.unit.id, share: 0.5 },
          { usage_unit_id: b.unit.id, share: 0.5 },
        ],
      },
      consumption: { measuring_point_id: id },
    });
    const bill = billProperty(aPropertyInput({ units: [a, b], plantPoints: [plant], points: [plant.point] }));
    expect(bill.plant).toEqual([]);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '0']);
    expect(bill.flags.filter((f) => f.severity === 'not_billed').map((f) => [f.code, f.usage_unit_id, f.measuring_point_id])).toEqual([
      ['PLANT_POINT_ALLOCATED', a.unit.id, id],
      ['PLANT_POINT_ALLOCATED', b.unit.id, id],
    ]);
    expect(bill.flags.map((f) => f.code)).not.toContain('UNALLOCATED_POINT');
  });

  it("in no unit's answer is named at the Property and not billed as a plant point", () => {
    const id = uuid();
    const a = aUnitEntry('WE 01', []);
    const plant = aPlantPoint({
      point: { id, property_id: PROPERTY.id, allocations: [{ usage_unit_id: a.unit.id, share: 1 }] },
      consumption: { measuring_point_id: id },
    });
    const bill = billProperty(aPropertyInput({ units: [a], plantPoints: [plant], points: [plant.point] }));
    expect(bill.plant).toEqual([]);
    expect(bill.flags.map((f) => [f.code, f.severity, f.usage_unit_id, f.measuring_point_id])).toEqual([['PLANT_POINT_ALLOCATED', 'not_billed', null, id]]);
  });

  it('a plant-room meter listed with empty allocations stays a plant point', () => {
    const plant = aPlantPoint({ point: { allocations: [] } });
    const bill = billProperty(aPropertyInput({ units: [], plantPoints: [plant], points: [plant.point] }));
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['500']);
  });
});
