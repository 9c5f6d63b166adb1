// browse with a comparison range (`y 2025 vs 2024`): parsing, the review in BrowseData, and
// the comparison value and change beside the billed value on the unit screen.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { UnitConsumption } from '../../src/api/types.js';
import { billProperty, flagText } from '../../src/billing/index.js';
import { createBrowseData } from '../../src/tui/data.js';
import { parseRangeInput, rangeFlags, rangeKey, rangeLabel, shortRangeLabel } from '../../src/tui/range.js';
import { unitScreen } from '../../src/tui/screens-unit.js';
import { pointListOf } from '../helpers/builders.js';
import { aProperty, bundleFor } from '../helpers/tui-fake.js';

const Y2025 = { from: '2025-01-01', to: '2025-12-31' };
const Y2024 = { from: '2024-01-01', to: '2024-12-31' };

/** The service of `fixture`'s Property, each unit's consumption for a range as `answer` makes it of the fixture's. */
function fakeApi(fixture: ReturnType<typeof bundleFor>, answer: (c: UnitConsumption, range: { from: string; to: string }) => UnitConsumption): ApiClient {
  async function* each<T>(items: T[]) {
    yield* items;
  }
  return {
    listUsageUnits: () => each(fixture.units.map((u) => u.unit)),
    listPropertyMeasuringPoints: () => each(pointListOf(fixture)),
    unitConsumption: async (id: string, range: { from: string; to: string }) => answer(fixture.units.find((u) => u.unit.id === id)!.consumption, range),
    pointReadings: async () => fixture.plant[0]!.consumption,
    forgetProperty: () => undefined,
  } as unknown as ApiClient;
}

describe('a comparison range', () => {
  it('y accepts "<range> vs <range>" and refuses a bad comparison with the reason', () => {
    expect(parseRangeInput('2025 vs 2024')).toEqual({ ok: true, range: { ...Y2025, compare: Y2024 } });
    expect(parseRangeInput('2025-01-01..2025-06-30 VS 2024-01-01..2024-06-30')).toEqual({
      ok: true,
      range: { from: '2025-01-01', to: '2025-06-30', compare: { from: '2024-01-01', to: '2024-06-30' } },
    });
    expect(parseRangeInput('2025 vs 24')).toEqual({ ok: false, message: 'comparison: "24" is not a year; use four digits, e.g. 2025.' });
    expect(parseRangeInput('2025 vs 2024 vs 2023')).toMatchObject({ ok: false, message: expect.stringContaining('one comparison') });
    const r = { ...Y2025, compare: Y2024 };
    expect([rangeLabel(r), shortRangeLabel(r), rangeFlags(r)]).toEqual(['2025 vs 2024', '2025 vs 2024', '--year 2025 --compare 2024']);
    expect(rangeKey(r)).not.toBe(rangeKey(Y2025));
  });

  it('BrowseData loads the comparison range as a range of its own and adds the review findings to the bill', async () => {
    const fixture = bundleFor(aProperty(), Y2025);
    const calls: string[] = [];
    // The 2024 answer is 2025's scaled, its readings dated in 2024: a billable value no reading in
    // its period backs is not billed (READINGS_MISSING), so nothing could be compared.
    const scale = (c: UnitConsumption, k: number, year: string): UnitConsumption => ({
      ...c,
      measuring_points: c.measuring_points.map((p) => ({
        ...p,
        segments: p.segments.map((s) => ({
          ...s,
          readings: s.readings.map((r) => ({ ...r, at: `${year}${r.at.slice(4)}` })),
          period_consumption: { ...s.period_consumption!, billable_value: s.period_consumption!.billable_value! * k, weighted_billable_value: undefined },
        })),
      })),
    });
    const api = fakeApi(fixture, (c, range) => {
      calls.push(`consumption ${range.from}`);
      // 2024 had half of 2025's consumption: +100 %.
      return { ...scale(c, range.from.startsWith('2024') ? 0.5 : 1, range.from.slice(0, 4)), from: range.from, to: range.to };
    });
    const data = createBrowseData({ api, billProperty, flagText });
    const b = await data.loadProperty(fixture.property, { ...Y2025, compare: Y2024 });
    expect(calls.filter((c) => c.endsWith('2024-01-01'))).toHaveLength(fixture.units.length);
    expect(b.review!.compare).toEqual(Y2024);
    const changed = b.review!.rows.filter((r) => r.checks.includes('CONSUMPTION_CHANGE'));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((r) => r.change_percent === '100.0')).toBe(true);
    expect(b.bill.flags.filter((f) => f.code === 'CONSUMPTION_CHANGE')).toHaveLength(changed.length);
    // The plain range stays as it was, and the 2024 bundle is reused from the cache.
    const plain = await data.loadProperty(fixture.property, Y2025);
    expect(plain.review).toBeUndefined();
    expect(plain.bill.flags.some((f) => f.code === 'CONSUMPTION_CHANGE')).toBe(false);
    await data.loadProperty(fixture.property, Y2024);
    expect(calls.filter((c) => c.endsWith('2024-01-01'))).toHaveLength(fixture.units.length);

    const unit = changed[0]!.usage_unit_id!;
    const screen = unitScreen(b, unit, (f) => flagText(f.code, 'en').title)!;
    const text = screen.rows.map((r) => r.spans.map((s) => s.text).join('')).join('\n');
    expect(text).toMatch(/Compared with 2024-01-01\.\.2024-12-31: .*\+100\.0 %/);
    expect(text).toContain('Consumption changed markedly against the comparison period');
  });

  it("a range the service answered for fewer months (this year's up to its last completed month) is compared with the same months of the comparison year", async () => {
    const fixture = bundleFor(aProperty(), Y2025);
    const asked: string[] = [];
    const api = fakeApi(fixture, (c, range) => {
      asked.push(`${range.from}..${range.to}`);
      // 2025 answered up to October, as the service answers the current year in November
      return { ...c, from: range.from, to: range.from.startsWith('2025') ? '2025-10-31' : range.to };
    });
    const data = createBrowseData({ api, billProperty, flagText });
    const b = await data.loadProperty(fixture.property, { ...Y2025, compare: Y2024 });
    // before: all of 2024 beside ten months of 2025
    expect(b.review!.compare).toEqual({ from: '2024-01-01', to: '2024-10-31' });
    expect(asked.filter((a) => a.startsWith('2024'))).toEqual(fixture.units.map(() => '2024-01-01..2024-10-31'));
  });
});
