// Browse's unit view shows what billing decided. A point whose answer sends the same segment
// twice bills 0 (DEVICE_REPEATED), but the monthly chart added the copies up (240 m³ over the
// year for a meter that moved 120, every bar doubled) and the copies' rows had the same keys
// (device row, baseline and end lines twice each), which React requires to be unique. A point
// billing refuses for any contract break (also one found across units, COPIES_DISAGREE) is now
// not charted, with a line saying why; every row's key is its own.
import { describe, expect, it } from 'vitest';
import { billProperty, makeFlag } from '../../src/billing/index.js';
import type { PropertyBundle } from '../../src/tui/data.js';
import { monthlySeries } from '../../src/tui/format.js';
import { pointBlock, unitScreen } from '../../src/tui/screens-unit.js';
import { PROPERTY, RANGE, aPointConsumption, aProperty, aPropertyInput, aReading, aSegment, aUnitEntry } from '../helpers/builders.js';

describe("browse's unit view of a point whose segment came twice", () => {
  const readings = Array.from({ length: 12 }, (_, m) => aReading({ at: new Date(Date.UTC(2025, m + 1, 0)).toISOString().slice(0, 10), value: 110 + m * 10 }));
  const seg = aSegment({ readings, period_consumption: { billable_value: 120, weighted_billable_value: 120, end_value: 220 } });
  const twice = aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [seg, structuredClone(seg)] });
  const once = { ...twice, segments: [seg] };
  const yearOf = (c: typeof twice) => monthlySeries(c, RANGE).reduce((s, m) => s + (m.use ?? 0), 0);
  const block = (consumption: typeof twice, codes: Parameters<typeof makeFlag>[0][]) => {
    const scope = { property_id: PROPERTY.id, usage_unit_id: null, measuring_point_id: consumption.measuring_point_id, device_id: null };
    return pointBlock({
      consumption,
      point: undefined,
      billed: '0',
      flags: codes.map((c) => makeFlag(c, scope)),
      range: RANGE,
      titleOf: () => '',
      keyPrefix: 'u:',
    });
  };
  const textOf = (rows: ReturnType<typeof block>) => rows.map((r) => r.spans.map((s) => s.text).join('')).join('\n');

  it('the honest point charts the 120 its register moved', () => {
    expect(yearOf(once)).toBe(120);
    expect(block(once, []).some((r) => r.key.endsWith(':c0t'))).toBe(true);
  });

  it('does not chart the copies added up (before: 240)', () => {
    expect(yearOf(twice)).toBeLessThanOrEqual(120);
  });

  it('gives each row its own key (before: three keys twice)', () => {
    const keys = block(twice, ['DEVICE_REPEATED']).map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a point billing refuses, here or across units (COPIES_DISAGREE), shows no chart but a line saying why', () => {
    for (const [point, code] of [
      [twice, 'DEVICE_REPEATED'],
      [once, 'COPIES_DISAGREE'],
    ] as const) {
      const rows = block(point, [code]);
      expect(
        rows.some((r) => r.key.includes(':c0')),
        code,
      ).toBe(false);
      expect(textOf(rows), code).toMatch(/no chart: .* not billed/);
    }
  });

  it("a unit's screen gives a point its answer names twice (POINT_REPEATED) keys of its own", () => {
    const entry = aUnitEntry('WE 01', [once, structuredClone(once)]);
    const input = aPropertyInput({ units: [entry] });
    const bundle = {
      property: aProperty({ id: PROPERTY.id }),
      range: RANGE,
      effective: RANGE,
      units: input.units,
      plant: [],
      points: new Map(),
      bill: billProperty(input),
    } as unknown as PropertyBundle;
    expect(bundle.bill.flags.map((f) => f.code)).toContain('POINT_REPEATED');
    const keys = unitScreen(bundle, entry.unit.id, () => '')!.rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
