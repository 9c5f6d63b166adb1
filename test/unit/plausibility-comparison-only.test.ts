// A meter only the comparison period's answers name (removed since, so the Property's current
// list of measuring points no longer lists it) is not billed in the comparison bill
// (POINT_NOT_LISTED), so the unit's figure there is COMPARISON_NOT_BILLED. Its text said the
// cause was a missing value or an expired calibration, untrue for this meter; it now names it.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { makeFlag } from '../../src/findings/index.js';
import { compareFigure, figuresOf } from '../../src/plausibility/index.js';
import { PROPERTY, aPointConsumption, aPropertyInput, aSegment, aUnitEntry } from '../helpers/builders.js';

describe("a meter only the comparison period's answers name", () => {
  const kept = aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [aSegment()] });
  const removed = aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [aSegment({ deinstalled_at: '2024-12-31' })] });
  const now = aUnitEntry('WE 01', [kept], { measuring_points: [] });
  const then = { unit: now.unit, consumption: { ...now.consumption, from: '2024-01-01', to: '2024-12-31', measuring_points: [kept, removed] } };
  const points = [
    {
      id: kept.measuring_point_id,
      property_id: PROPERTY.id,
      usage_unit_id: now.unit.id,
      metric: 'water_cold',
      unit: 'm3',
      allocations: [{ usage_unit_id: now.unit.id, share: 1 }],
    },
  ];

  it('is COMPARISON_NOT_BILLED, whose text names a meter the current list no longer lists (en, de)', () => {
    const current = figuresOf(billProperty(aPropertyInput({ units: [now], points })), PROPERTY)[0]!;
    const comparison = figuresOf(billProperty(aPropertyInput({ range: { from: '2024-01-01', to: '2024-12-31' }, units: [then], points })), PROPERTY)[0]!;
    expect(comparison.flags).toContain('POINT_NOT_LISTED');
    const c = compareFigure(current, comparison, '25');
    expect(c).toMatchObject({ codes: ['COMPARISON_NOT_BILLED'], notBilledIn: 'comparison' });
    const flag = makeFlag(
      'COMPARISON_NOT_BILLED',
      { property_id: PROPERTY.id, usage_unit_id: now.unit.id, measuring_point_id: null, device_id: null },
      { not_billed_in: 'comparison' },
    );
    expect(flagMessage(flag, 'en')).toMatch(/only that period's answers name, which the Property's current list of measuring points no longer lists/);
    expect(flagMessage(flag, 'de')).toMatch(/nicht mehr führt, weil er inzwischen ausgebaut wurde/);
  });
});
