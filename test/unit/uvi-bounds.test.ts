// What the uvi's pure core refuses by itself, whatever billing says: a kWh figure above the
// plausibility bounds (bounds.ts), an area no usage unit has, two devices on one day (as
// billing's SEGMENTS_OVERLAP judges them, and in O(n log n)), and a start value of an origin
// the contract does not name. Every bound is worked out here from its source.
import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { KWH_PER_M2_MONTH, KWH_PER_M3_WARM_WATER } from '../../src/uvi/bounds.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { pointMonths } from '../../src/uvi/point-months.js';
import { propertyUvi, type PlantPoints } from '../../src/uvi/property.js';
import type { Service } from '../../src/uvi/types.js';
import { PROPERTY, aPlantPoint, aSegment, aUnitEntry } from '../helpers/builders.js';
import { MONTHS, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

const noPlant: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [] };
const flat = (v: number) => Array<number>(13).fill(v);
const metered = (metric: string, monthly: number[], start = 1000): MeasuringPointConsumption => point(metric, [series(start, cumulative(start, monthly))]);
const run = (units: ReturnType<typeof aUnitEntry>[], plant: PlantPoints = noPlant) =>
  propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units, plant, benchmark: DEFAULT_BENCHMARK });
function nov(r: ReturnType<typeof run>, i: number, s: Service) {
  const m = r.units[i]!.services.find((x) => x.service === s)!.months[12]!;
  return { kwh: n(m.kwh), native: n(m.native), reasons: m.reasons, benchmark: n(m.benchmark_kwh) };
}

describe('plausibility bounds', () => {
  it('are 20 times the default table’s average user in its largest month, and § 9 Abs. 2’s heat of water heated to 100 °C, doubled', () => {
    // 118 kWh/m²·a × 20 × 170 ‰ (January, VDI 2067); 24 kWh/m²·a × 20 × 31/365; 2.5 kWh/(m³·K) × 90 K × 2
    expect(KWH_PER_M2_MONTH.HEATING.toNumber()).toBeCloseTo(401.2, 9);
    expect(KWH_PER_M2_MONTH.HOT_WATER.toNumber()).toBeCloseTo((24 * 20 * 31) / 365, 9);
    expect(KWH_PER_M3_WARM_WATER.toNumber()).toBe(450);
  });

  it('a heat segment’s factor of 10⁶ gives no figure (918,395,000 kWh for a flat of 72.5 m²), the reason above_bound', () => {
    const heat = metered('heat', flat(918.395));
    heat.segments[0]!.factor = 1e6;
    const r = run([aUnitEntry('WE 01', [heat])]);
    expect(nov(r, 0, 'HEATING')).toMatchObject({ kwh: null, native: null, reasons: ['above_bound'] });
    expect(r.units[0]!.findings.map((f) => f.code)).toContain('MONTH_MISSING');
  });

  it('900,000,000,000 kWh in one month is above the bound, also for a unit without an area; the months before stand', () => {
    const r = run([aUnitEntry('WE 01', [metered('heat', [...flat(100).slice(0, 12), 9e11])], { area_heated_m2: null })]);
    expect(nov(r, 0, 'HEATING').reasons).toEqual(['above_bound']);
    expect(n(r.units[0]!.services[0]!.months[11]!.kwh)).toBe(100);
  });

  it('just below the bound stands, just above it does not (72.5 m² × 401.2 kWh/m² = 29,087 kWh)', () => {
    const below = run([aUnitEntry('WE 01', [metered('heat', [...flat(100).slice(0, 12), 29_087])])]);
    const above = run([aUnitEntry('WE 01', [metered('heat', [...flat(100).slice(0, 12), 29_088])])]);
    expect(nov(below, 0, 'HEATING').kwh).toBe(29_087);
    expect(nov(above, 0, 'HEATING').reasons).toEqual(['above_bound']);
  });

  it('a warm-water heat meter of 100,000 kWh for 3 m³ (33,333 kWh per m³), though below the bound per m², is not used: § 9 Abs. 2 instead, with a finding', () => {
    const wwHeat = aPlantPoint({
      point: { localization: 'Wärmezähler Warmwasser', metric: 'heat', unit: 'kWh' },
      consumption: { metric: 'heat', unit: 'kWh', segments: metered('heat', flat(100_000), 5000).segments },
    });
    const big = { area_heated_m2: 9000, area_ww_m2: 9000 };
    const r = run(
      [aUnitEntry('WE 01', [metered('water_warm', flat(2), 10)], big), aUnitEntry('WE 02', [metered('water_warm', flat(1), 10)], big)],
      classifyPlant([wwHeat]),
    );
    // 100,000 × 2/3 = 66,667 kWh on 9,000 m² is 7.4 kWh/m² (below 40.8), but 33,333 kWh per m³,
    // far above what warm water can carry (plant.ts, WW_MAX_KWH_PER_M3): 2.5 × m³ × (60 − 10) K instead
    expect(nov(r, 0, 'HOT_WATER')).toMatchObject({ kwh: 250, reasons: [] });
    expect(nov(r, 1, 'HOT_WATER')).toMatchObject({ kwh: 125, reasons: [] });
    expect(r.findings.map((f) => f.code)).toContain('WARM_WATER_HEAT_IMPLAUSIBLE');
  });

  it.each([72_500, 0.001])('an area of %s m² gives no average user and a finding, not NO_FLOOR_AREA; 918 kWh stand', (area) => {
    const r = run([aUnitEntry('WE 01', [metered('heat', flat(918))], { area_heated_m2: area })]);
    expect(nov(r, 0, 'HEATING')).toMatchObject({ kwh: 918, benchmark: null });
    const codes = r.units[0]!.findings.map((f) => f.code);
    expect(codes).toContain('AREA_IMPLAUSIBLE');
    expect(codes).not.toContain('NO_FLOOR_AREA');
  });

  it('an area of 1 m² and of 10,000 m² is believed (the average user is given)', () => {
    for (const area of [1, 10_000]) {
      const r = run([aUnitEntry('WE 01', [metered('heat', flat(100))], { area_heated_m2: area })]);
      expect(nov(r, 0, 'HEATING').benchmark).toBeGreaterThan(0);
      expect(r.units[0]!.findings.map((f) => f.code)).not.toContain('AREA_IMPLAUSIBLE');
    }
  });
});

describe('segments of one point', () => {
  const zeroLength = (day: string, value: number) =>
    aSegment({
      installed_at: day,
      deinstalled_at: day,
      baseline_value: 0,
      baseline_date: day,
      readings: [],
      period_consumption: { end_value: value, billable_value: value, weighted_billable_value: undefined },
    });

  it('a device installed and removed on one day inside another’s window overlaps it (as billing’s SEGMENTS_OVERLAP): no 5,000 kWh added', () => {
    const heat = metered('heat', flat(918));
    const p = pointMonths({ ...heat, segments: [...heat.segments, zeroLength('2025-11-10', 5000)] }, MONTHS, 1);
    expect(p.months[12]!).toMatchObject({ value: null, reasons: ['overlapping_segments'] });
    expect(n(p.months[11]!.value)).toBe(918);
  });

  it('16,000 devices on one day are judged in well under a second (every pair compared took 4.6 s)', () => {
    const heat = metered('heat', flat(918));
    const many = Array.from({ length: 16_000 }, () => zeroLength('2025-11-10', 1));
    const started = performance.now();
    const p = pointMonths({ ...heat, segments: [...heat.segments, ...many] }, MONTHS, 1);
    const took = performance.now() - started;
    expect(p.months[12]!.reasons).toEqual(['overlapping_segments']);
    expect(took).toBeLessThan(1500);
  });
});

describe('a start value of an origin the contract does not name', () => {
  it('marks the month it starts estimated, as an assumed one does', () => {
    const known = pointMonths(metered('heat', flat(100)), MONTHS, 1);
    const unknown = metered('heat', flat(100));
    unknown.segments[0]!.baseline_origin = 'guessed_by_portal';
    const p = pointMonths(unknown, MONTHS, 1);
    expect(known.months[0]!.estimated).toBe(false);
    expect(p.months[0]).toMatchObject({ estimated: true, reasons: [] });
    expect(n(p.months[0]!.value)).toBe(100);
  });
});
