// A --compare folder written when the service sent its UUIDs in one case, compared with answers that
// send them in another: the figures are the same (ids compare as billing compares them, idKey). Before,
// every figure was new since the comparison and the real changes were lost (round 19).
import { describe, expect, it } from 'vitest';
import { figureKey } from '../../src/plausibility/index.js';

describe('a figure in the comparison period', () => {
  it('is the same figure whatever the case of its unit and point ids', () => {
    const f = { kind: 'unit', usage_unit_id: 'ab12cd34-0000-4000-8000-00000000000a', measuring_point_id: null, metric: 'heat', unit: 'kWh' };
    expect(figureKey({ ...f, usage_unit_id: f.usage_unit_id.toUpperCase() })).toBe(figureKey(f));
    const p = { kind: 'plant', usage_unit_id: null, measuring_point_id: 'ee12cd34-0000-4000-8000-00000000000b', metric: 'heat', unit: 'kWh' };
    expect(figureKey({ ...p, measuring_point_id: p.measuring_point_id.toUpperCase() })).toBe(figureKey(p));
    expect(figureKey({ ...f, metric: 'hca', unit: 'unit' })).not.toBe(figureKey(f));
  });
});
