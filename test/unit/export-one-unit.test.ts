// The browser's export of one unit narrows a Property billed and reviewed whole
// (src/export/pipeline/one-unit.ts): what of the bill and of the steps' findings it keeps.
import { describe, expect, it } from 'vitest';
import type { PropertyAnswers } from '../../src/api/walk.js';
import { billProperty } from '../../src/billing/index.js';
import type { Flag } from '../../src/billing/types.js';
import { narrowToUnit } from '../../src/export/pipeline/one-unit.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aUnitEntry, uuid } from '../helpers/builders.js';

const flag = (code: string, usage_unit_id: string | null, measuring_point_id: string | null): Flag =>
  ({ code, severity: 'review', property_id: PROPERTY.id, usage_unit_id, measuring_point_id, device_id: null }) as Flag;

describe('a Property billed whole, narrowed to one unit', () => {
  const shared = uuid();
  const a = aUnitEntry('WE 01', [aPointConsumption({ measuring_point_id: shared, unit_share: 0.5 }), aPointConsumption()]);
  const b = aUnitEntry('WE 02', [aPointConsumption({ measuring_point_id: shared, unit_share: 0.5 })]);
  const plant = aPlantPoint();
  const input = aPropertyInput({ units: [a, b], plantPoints: [plant] });
  const bill = billProperty(input);
  const answers = { property: { id: PROPERTY.id, name: PROPERTY.name }, units: [a, b], points: [], plantPoints: [plant] } as unknown as PropertyAnswers;
  const steps = [
    {
      tables: [
        [
          'plausibility',
          [
            { usage_unit_id: a.unit.id, v: 1 },
            { usage_unit_id: b.unit.id, v: 2 },
            { usage_unit_id: null, v: 3 },
          ],
        ],
      ] as never,
      flags: [
        flag('PER_M2_OUTLIER', a.unit.id, null),
        flag('PER_M2_OUTLIER', b.unit.id, null),
        flag('X_SHARED', null, shared),
        flag('X_PLANT', null, plant.point.id!),
        flag('X_PROPERTY', null, null),
      ],
      marks: [
        { usage_unit_id: a.unit.id, metric: 'heat', checks: [] },
        { usage_unit_id: b.unit.id, metric: 'heat', checks: [] },
      ],
    },
  ];
  const one = narrowToUnit(a.unit.id, { answers, bill, found: steps });

  it("keeps the unit's rows and its points' readings, no plant-room meter", () => {
    expect(one.bill.billing.map((r) => r.usage_unit_id)).toEqual(bill.billing.filter((r) => r.usage_unit_id === a.unit.id).map((r) => r.usage_unit_id));
    expect(one.bill.billing.length).toBeGreaterThan(0);
    expect(new Set(one.bill.segments.map((s) => s.usage_unit_id))).toEqual(new Set([a.unit.id]));
    expect(new Set(one.bill.readings.map((r) => r.measuring_point_id))).toEqual(new Set(a.consumption.measuring_points.map((p) => p.measuring_point_id)));
    expect(one.bill.plant).toEqual([]);
    expect(one.answers.units.map((u) => u.unit.id)).toEqual([a.unit.id]);
    expect(one.answers.plantPoints).toEqual([]);
  });

  it("keeps the steps' rows and findings about the unit, its shared meter and the Property; not another unit's or a plant meter's", () => {
    expect(one.found[0]!.tables![0]![1]).toEqual([{ usage_unit_id: a.unit.id, v: 1 }]);
    expect(one.found[0]!.flags!.map((f) => f.code)).toEqual(['PER_M2_OUTLIER', 'X_SHARED', 'X_PROPERTY']);
    expect(one.found[0]!.marks!.map((m) => m.usage_unit_id)).toEqual([a.unit.id]);
  });
});
