// A Property list entry without `allocations` (the contract gives them for every point: "empty
// for a point without a unit; otherwise every unit with its share", but does not say the field is
// required) names only its usage_unit_id and the units whose own measuring_points name the point:
// another unit's answer carrying the point is not billed (found by an adversarial probe: both rows
// billed 20.697 with no finding, and a plant-room meter's 500 billed to WE 01).
import { describe, expect, it } from 'vitest';
import type { MeasuringPoint } from '../../src/api/types.js';
import { billProperty } from '../../src/billing/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

const notBilled = (flags: { severity: string }[]) => flags.filter((f) => f.severity === 'not_billed').length;

describe('a list entry without allocations', () => {
  it("WE 01's meter (usage_unit_id WE 01) answered by WE 02 too at 0.5/0.5 is not billed to WE 02", () => {
    const id = uuid();
    const device = uuid();
    const half = (name: string) =>
      aUnitEntry(name, [
        aPointConsumption({
          measuring_point_id: id,
          metric: 'water_cold',
          unit: 'm3',
          unit_share: 0.5,
          segments: [aSegment({ device_id: device, period_consumption: { billable_value: 41.394, weighted_billable_value: 20.697, end_value: 141.394 } })],
        }),
      ]);
    const we01 = half('WE 01');
    const we02 = half('WE 02');
    const points: MeasuringPoint[] = [{ id, usage_unit_id: we01.unit.id, property_id: PROPERTY.id, metric: 'water_cold', unit: 'm3' }];
    const bill = billProperty(aPropertyInput({ units: [we01, we02], points }));
    expect(bill.billing.find((b) => b.usage_unit_name === 'WE 02')!.billable_value).toBe('0');
    expect(notBilled(bill.flags)).toBeGreaterThan(0);
  });

  it('a plant-room meter (usage_unit_id null) answered under WE 01 is not billed to WE 01', () => {
    const { point, consumption } = aPlantPoint();
    const { allocations: _omitted, ...listed } = point;
    const we01 = aUnitEntry('WE 01', [
      { ...consumption, unit_share: 1, segments: [aSegment({ period_consumption: { billable_value: 500, weighted_billable_value: 500, end_value: 600 } })] },
    ]);
    const bill = billProperty(aPropertyInput({ units: [we01], plantPoints: [{ point: listed, consumption }], points: [listed] }));
    expect(bill.billing[0]!.billable_value).toBe('0');
    expect(notBilled(bill.flags)).toBeGreaterThan(0);
  });
});
