// A Property list entry with usage_unit_id null (a plant-room or main meter) that also gives
// allocations to units: the walk reads it through /readings as a plant point (src/api/walk.ts),
// and the units' answers carry it as a shared meter, listed for them by the allocations. Its
// /readings answer and the units' copies are two copies of one meter, but only the units'
// copies are compared (disagreeingCopies, src/billing/copies.ts). Probe (report only): the
// plant answer's 500 against the units' 1000 gives WE 01 500 and WE 02 500 in billing.csv and
// 500 in plant-points.csv with only UNALLOCATED_POINT (info), whose text says the service does
// not split it over the units and to apply an own allocation key: it is split already, so
// following the text bills it twice. Marked it.fails; the assertion fails today.
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe("a plant-room meter the Property lists with allocations, in the units' answers too", () => {
  it.fails("whose /readings answer (500) disagrees with the units' copies (1000) is not billed without a finding", () => {
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
    expect(bill.plant.map((p) => p.billable_value)).toEqual(['500']);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['500', '500']);
    expect(bill.flags.filter((f) => f.severity === 'not_billed').length).toBeGreaterThan(0);
  });
});
