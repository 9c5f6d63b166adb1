// Report-only probe (issue 22, item 1, in browse): a point whose answer sends the same segment
// twice bills 0 (DEVICE_REPEATED), but browse's unit view still adds the copies up in its
// monthly chart (240 m³ over the year for a meter that moved 120, every bar doubled) and gives
// the copies' rows the same keys (device row, baseline and end lines twice each), which React
// requires to be unique. it.fails: each assertion fails today.
import { describe, expect, it } from 'vitest';
import { monthlySeries } from '../../src/tui/format.js';
import { pointBlock } from '../../src/tui/screens-unit.js';
import { RANGE, aPointConsumption, aReading, aSegment } from '../helpers/builders.js';

describe("browse's unit view of a point whose segment came twice", () => {
  const readings = Array.from({ length: 12 }, (_, m) => aReading({ at: new Date(Date.UTC(2025, m + 1, 0)).toISOString().slice(0, 10), value: 110 + m * 10 }));
  const seg = aSegment({ readings, period_consumption: { billable_value: 120, weighted_billable_value: 120, end_value: 220 } });
  const twice = aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [seg, structuredClone(seg)] });
  const yearOf = (c: typeof twice) => monthlySeries(c, RANGE).reduce((s, m) => s + (m.use ?? 0), 0);

  it('the honest point charts the 120 its register moved', () => {
    expect(yearOf({ ...twice, segments: [seg] })).toBe(120);
  });

  it.fails('does not chart the copies added up (today 240)', () => {
    expect(yearOf(twice)).toBeLessThanOrEqual(120);
  });

  it.fails('gives each row its own key (today three keys twice)', () => {
    const keys = pointBlock({ consumption: twice, point: undefined, billed: '0', flags: [], range: RANGE, titleOf: () => '', keyPrefix: 'u:' }).map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
