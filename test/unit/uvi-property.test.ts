// Per unit and service the 13 months in kWh for one Property: heat meters as measured,
// allocators converted with the plant-room heat meter, warm water by the warm-water heat
// meter's share or § 9 Abs. 2 HeizkostenV. Every expected figure is worked out here.
import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { ownAverage } from '../../src/uvi/own-average.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { propertyUvi, warmWaterKwh, type PlantPoints } from '../../src/uvi/property.js';
import type { Service } from '../../src/uvi/types.js';
import { PROPERTY, aPlantPoint, aUnitEntry } from '../helpers/builders.js';
import { ALLOCATOR_PROPERTY, MONTHS, type R, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';
import { dec } from '../../src/billing/decimal.js';

const noPlant: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [] };

/** A point whose monthly consumption is `monthly` (readings counted up from `start`); a null month has no reading at its end. */
function metered(metric: string, monthly: (number | null)[], share = 1, start = 1000): MeasuringPointConsumption {
  const rs: R[] = cumulative(
    start,
    monthly.map((m) => m ?? 0),
  ).map((v, i) => (monthly[i] === null ? null : v));
  return point(metric, [series(start, rs)], share);
}

function plant(metric: string, monthly: (number | null)[]): MeasuringPointConsumption {
  const p = metered(metric, monthly, 1, 5000);
  const { unit_share: _omit, ...rest } = p;
  return { ...rest, unit: metric === 'heat' ? 'kWh' : 'm3' };
}

const flat = (v: number) => Array<number | null>(13).fill(v);
const run = (units: ReturnType<typeof aUnitEntry>[], p: PlantPoints, wwTemperature?: number) =>
  propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units, plant: p, benchmark: DEFAULT_BENCHMARK, ...(wwTemperature ? { wwTemperature } : {}) });
const svc = (r: ReturnType<typeof run>, i: number, s: Service) => r.units[i]!.services.find((x) => x.service === s)!;
const kwh = (r: ReturnType<typeof run>, i: number, s: Service) => svc(r, i, s).months.map((m) => n(m.kwh));

describe('heat cost allocators converted with the plant-room heat meter', () => {
  // Two units with allocators and warm water; the Property's heat meter and no warm-water heat meter.
  const { hcaA, hcaB, wwA, wwB, plantHeat } = ALLOCATOR_PROPERTY;
  const units = () => [
    aUnitEntry('WE 01', [metered('hca', hcaA), metered('water_warm', wwA)]),
    aUnitEntry('WE 02', [metered('hca', hcaB), metered('water_warm', wwB)]),
  ];

  it('heating heat = plant heat − 2.5 × (V_A + V_B) × (60 − 10), shared by allocator units; warm water per § 9 Abs. 2', () => {
    const r = run(units(), { ...noPlant, heat: [plant('heat', plantHeat)] });
    const expected = MONTHS.map((_, i) => {
      const heating = plantHeat[i]! - 2.5 * (wwA[i]! + wwB[i]!) * 50;
      const sum = hcaA[i]! + hcaB[i]!;
      return sum === 0 ? null : (heating * hcaA[i]!) / sum;
    });
    kwh(r, 0, 'HEATING').forEach((v, i) => (expected[i] === null ? expect(v).toBeNull() : expect(v).toBeCloseTo(expected[i]!, 9)));
    expect(svc(r, 0, 'HEATING').months[8]!.reasons).toEqual(['allocator_sum_zero']);
    expect(svc(r, 0, 'HEATING')).toMatchObject({ method: 'allocators', native_unit: 'unit' });
    expect(svc(r, 0, 'HEATING').months.map((m) => n(m.native))).toEqual(hcaA);
    expect(svc(r, 0, 'HEATING').months.every((m) => m.converted)).toBe(true);
    expect(kwh(r, 1, 'HOT_WATER')).toEqual(wwB.map((v) => 2.5 * v * 50));
    expect(svc(r, 1, 'HOT_WATER')).toMatchObject({ method: 'formula_9_2', native_unit: 'm3' });
  });

  it('with a warm-water heat meter: heating heat = plant − that meter; warm water = that meter × V_unit / ΣV', () => {
    const wwHeat = [500, 520, 540, 500, 480, 450, 300, 280, 290, 420, 460, 480, 510];
    const r = run(units(), { ...noPlant, heat: [plant('heat', plantHeat)], warmWaterHeat: [plant('heat', wwHeat)] });
    const i = 12;
    expect(kwh(r, 0, 'HEATING')[i]).toBeCloseTo(((3200 - 510) * 30) / 80, 9);
    expect(kwh(r, 0, 'HOT_WATER')[i]).toBeCloseTo((510 * 2) / 3, 9);
    expect(kwh(r, 1, 'HOT_WATER')[i]).toBeCloseTo((510 * 1) / 3, 9);
    expect(svc(r, 0, 'HOT_WATER').method).toBe('ww_heat_meter_share');
  });

  it("the warm-water heat meter's month missing: warm water and heating of that month say the Property's heat is missing, not the unit's reading", () => {
    const gappy = [500, 520, 540, 500, 480, 450, 300, 280, 290, 420, 460, 480, null];
    const r = run(units(), { ...noPlant, heat: [plant('heat', plantHeat)], warmWaterHeat: [plant('heat', gappy)] });
    expect(svc(r, 0, 'HOT_WATER').months[12]).toMatchObject({ kwh: null, reasons: ['warm_water_heat_missing'] });
    expect(n(svc(r, 0, 'HOT_WATER').months[12]!.native)).toBe(2);
    expect(svc(r, 0, 'HEATING').months[12]).toMatchObject({ kwh: null, reasons: ['warm_water_heat_missing'] });
  });

  it('the warm-water temperature is a parameter (55 °C: 2.5 × V × 45); one at or below 10 °C is refused', () => {
    const r = run(units(), { ...noPlant, heat: [plant('heat', plantHeat)] }, 55);
    expect(kwh(r, 0, 'HOT_WATER')[0]).toBe(2.5 * 2 * 45);
    expect(kwh(r, 0, 'HEATING')[0]).toBeCloseTo(((3000 - 2.5 * 3 * 45) * 40) / 100, 9);
    expect(() => warmWaterKwh(dec(1), 10)).toThrow(RangeError);
    expect(() => warmWaterKwh(dec(1), Number.NaN)).toThrow(RangeError);
  });

  it('without a plant heat meter: allocator units with the reason, no kWh, and a finding', () => {
    const r = run(units(), noPlant);
    expect(kwh(r, 0, 'HEATING')).toEqual(Array(13).fill(null));
    expect(svc(r, 0, 'HEATING').months.map((m) => n(m.native))).toEqual(hcaA);
    expect(svc(r, 0, 'HEATING').months[12]!.reasons).toEqual(['no_plant_heat_meter']);
    expect(r.units[0]!.findings.map((f) => f.code)).toContain('NO_PLANT_HEAT_METER');
  });

  it('allocator units shown without kWh keep their own estimated mark', () => {
    const a = metered('hca', hcaA);
    a.segments[0]!.readings[12] = { ...a.segments[0]!.readings[12]!, status: 'calculated', is_synthetic: true };
    const r = run([aUnitEntry('WE 01', [a])], noPlant);
    expect(svc(r, 0, 'HEATING').months.map((m) => m.estimated)).toEqual(MONTHS.map((_, i) => i === 12));
    expect(svc(r, 0, 'HEATING').months[12]!.kwh).toBeNull();
  });

  it("the plant meter's month missing, or another unit's allocator missing: that month has no kWh for anyone, with the reason", () => {
    const gappy = [...plantHeat] as (number | null)[];
    gappy[5] = null; // no reading at 2025-04-30: April and May are missing
    const b = [...hcaB] as (number | null)[];
    b[10] = null; // WE 02 has no reading at 2025-09-30
    const r = run(
      [aUnitEntry('WE 01', [metered('hca', hcaA), metered('water_warm', wwA)]), aUnitEntry('WE 02', [metered('hca', b), metered('water_warm', wwB)])],
      { ...noPlant, heat: [plant('heat', gappy)] },
    );
    const a = svc(r, 0, 'HEATING').months;
    expect([a[5]!.kwh, a[6]!.kwh, a[10]!.kwh, a[11]!.kwh]).toEqual([null, null, null, null]);
    expect(a[5]!.reasons).toEqual(['plant_heat_missing']);
    expect(a[10]!.reasons).toEqual(['allocator_sum_incomplete']);
    expect(n(a[10]!.native)).toBe(10); // WE 01's own allocator units still shown
    expect(n(a[4]!.kwh)).toBeCloseTo(((2800 - 2.5 * 3 * 50) * 30) / 80, 9);
  });

  it('warm-water heat above the plant heat: no kWh (heating_heat_negative), never a negative figure', () => {
    // August 2025: 650 kWh of warm-water heat against the plant's 600 (the 13 months stay at 148 kWh/m³, a plausible meter).
    const wwHeat = flat(390);
    wwHeat[7] = 650;
    const r = run(units(), { ...noPlant, heat: [plant('heat', plantHeat)], warmWaterHeat: [plant('heat', wwHeat)] });
    expect(svc(r, 0, 'HEATING').months[7]!.reasons).toEqual(['heating_heat_negative']);
    expect(svc(r, 0, 'HEATING').months[7]!.kwh).toBeNull();
    expect(n(svc(r, 0, 'HEATING').months[2]!.kwh)).toBeCloseTo(((4000 - 390) * 50) / 100, 9);
  });

  it("a unit with heat meters beside allocator units: its kWh as measured, and subtracted from the allocators' heat", () => {
    const heatC = [100, 120, 140, 130, 100, 60, 20, 10, 10, 30, 60, 90, 110];
    const r = run([...units(), aUnitEntry('WE 03', [metered('heat', heatC)])], { ...noPlant, heat: [plant('heat', plantHeat)] });
    expect(kwh(r, 2, 'HEATING')).toEqual(heatC);
    expect(svc(r, 2, 'HEATING')).toMatchObject({ method: 'heat_meter', native_unit: 'kWh' });
    expect(svc(r, 2, 'HEATING').months.every((m) => !m.converted)).toBe(true);
    expect(kwh(r, 0, 'HEATING')[0]).toBeCloseTo(((3000 - 2.5 * 3 * 50 - 100) * 40) / 100, 9);
  });
});

describe('the same point twice in an answer', () => {
  it('counts once where both copies are the same, and gives no month where they differ', () => {
    const heat = metered('heat', flat(7));
    expect(kwh(run([aUnitEntry('WE 01', [heat, structuredClone(heat)])], noPlant), 0, 'HEATING')).toEqual(flat(7));
    const other = metered('heat', flat(9));
    const r = run([aUnitEntry('WE 01', [heat, { ...other, measuring_point_id: heat.measuring_point_id }])], noPlant);
    expect(kwh(r, 0, 'HEATING')).toEqual(Array(13).fill(null));
    expect(svc(r, 0, 'HEATING').months[0]!.reasons).toEqual(['duplicate_point']);
  });
});

describe('the same unit twice in the input', () => {
  it('counts once where both copies are the same; with different answers its allocators count for no one that month', () => {
    const one = aUnitEntry('WE 01', [metered('hca', flat(10))]);
    const two = aUnitEntry('WE 02', [metered('hca', flat(30))]);
    const plantHeat = { ...noPlant, heat: [plant('heat', flat(1000))] };
    expect(kwh(run([one, two, structuredClone(one)], plantHeat), 1, 'HEATING')).toEqual(flat(750));
    const changed = { unit: one.unit, consumption: { ...one.consumption, measuring_points: [metered('hca', flat(20))] } };
    const r = run([one, two, changed], plantHeat);
    expect(r.units).toHaveLength(2);
    expect(kwh(r, 1, 'HEATING')).toEqual(Array(13).fill(null));
    expect(svc(r, 1, 'HEATING').months[0]!.reasons).toEqual(['allocator_sum_incomplete']);
    expect(svc(r, 0, 'HEATING').months[0]!.reasons).toEqual(['duplicate_point']);
  });
});

describe('the same unit twice with its id in other case', () => {
  const upper = (e: ReturnType<typeof aUnitEntry>) => ({
    unit: { ...e.unit, id: e.unit.id.toUpperCase() },
    consumption: { ...e.consumption, usage_unit_id: e.consumption.usage_unit_id.toUpperCase() },
  });
  it('counts once where both copies are the same, and gives no month where they differ, as billing compares ids', () => {
    const one = aUnitEntry('WE 01', [metered('hca', flat(10))]);
    const two = aUnitEntry('WE 02', [metered('hca', flat(30))]);
    const plantHeat = { ...noPlant, heat: [plant('heat', flat(1000))] };
    const same = run([one, two, upper(structuredClone(one))], plantHeat);
    expect(same.units).toHaveLength(2);
    expect(kwh(same, 1, 'HEATING')).toEqual(flat(750));
    const changed = upper({ unit: one.unit, consumption: { ...one.consumption, measuring_points: [metered('hca', flat(20))] } });
    const r = run([one, two, changed], plantHeat);
    expect(r.units).toHaveLength(2);
    expect(svc(r, 0, 'HEATING').months[0]!.reasons).toEqual(['duplicate_point']);
  });
});

describe('estimated months', () => {
  it("a calculated reading of one unit's allocator marks every unit's converted kWh of that month estimated (the sum rests on it)", () => {
    const a = metered('hca', flat(10));
    a.segments[0]!.readings[12] = { ...a.segments[0]!.readings[12]!, status: 'calculated', is_synthetic: true };
    const r = run([aUnitEntry('WE 01', [a]), aUnitEntry('WE 02', [metered('hca', flat(30))])], { ...noPlant, heat: [plant('heat', flat(1000))] });
    expect(svc(r, 1, 'HEATING').months[12]!.estimated).toBe(true);
    expect(svc(r, 1, 'HEATING').months[11]!.estimated).toBe(false);
    expect(n(svc(r, 1, 'HEATING').months[12]!.kwh)).toBe(750);
    expect(r.units[1]!.findings.map((f) => f.code)).toContain('MONTH_ESTIMATED');
  });
});

describe('the average user', () => {
  it('yearly kWh/m² × area × the month share: 118 × 72.5 × 120 ‰ for November heating, 24 × 72.5 × 30/365 for warm water', () => {
    const r = run([aUnitEntry('WE 01', [metered('heat', flat(100)), metered('water_warm', flat(1))])], noPlant);
    expect(n(svc(r, 0, 'HEATING').months[12]!.benchmark_kwh)).toBeCloseTo(118 * 72.5 * 0.12, 9);
    expect(n(svc(r, 0, 'HEATING').months[7]!.benchmark_kwh)).toBeCloseTo((118 * 72.5 * 40) / 3 / 1000, 9); // June
    expect(n(svc(r, 0, 'HOT_WATER').months[12]!.benchmark_kwh)).toBeCloseTo((24 * 72.5 * 30) / 365, 9);
  });

  it('a unit without floor area gets no benchmark and a finding; a commercial unit none either (no default value)', () => {
    const r = run(
      [
        aUnitEntry('WE 01', [metered('heat', flat(100))], { area_heated_m2: null }),
        aUnitEntry('Laden', [metered('heat', flat(100))], { unit_type: 'commercial' }),
      ],
      noPlant,
    );
    expect(svc(r, 0, 'HEATING').months.every((m) => m.benchmark_kwh === null)).toBe(true);
    expect(r.units[0]!.findings.map((f) => f.code)).toEqual(['NO_FLOOR_AREA']);
    expect(r.units[1]!.findings.map((f) => f.code)).toEqual(['NO_BENCHMARK_FOR_TYPE']);
  });
});

describe('cold water and missing months', () => {
  it('cold water is a separate service in m³ without kWh or benchmark', () => {
    const r = run([aUnitEntry('WE 01', [metered('water_cold', flat(4))])], noPlant);
    expect(svc(r, 0, 'COLD_WATER')).toMatchObject({ method: 'volume_only', native_unit: 'm3' });
    expect(kwh(r, 0, 'COLD_WATER')).toEqual(Array(13).fill(null));
    expect(svc(r, 0, 'COLD_WATER').months.map((m) => n(m.native))).toEqual(flat(4));
    expect(r.units[0]!.services.map((s) => s.service)).toEqual(['COLD_WATER']);
  });

  it("the letter's month missing gives a finding naming the reasons", () => {
    const m = flat(5);
    m[12] = null;
    const r = run([aUnitEntry('WE 01', [metered('heat', m)])], noPlant);
    expect(r.units[0]!.findings).toContainEqual(expect.objectContaining({ code: 'MONTH_MISSING', facts: { month: '2025-11', reasons: 'no_reading' } }));
  });
});

describe('plant points by localization', () => {
  it('a heat meter named for warm water is the warm-water heat meter; water_warm is the volume; unit points are left out', () => {
    const heat = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh' }, point: { localization: 'Heizungskeller' } });
    const ww = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh' }, point: { localization: 'WMZ Warmwasser' } });
    const vol = aPlantPoint({ consumption: { metric: 'water_warm' } });
    const unitPoint = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh' }, point: { usage_unit_id: PROPERTY.id } });
    const p = classifyPlant([heat, ww, vol, unitPoint]);
    expect(p.heat).toEqual([heat.consumption]);
    expect(p.warmWaterHeat).toEqual([ww.consumption]);
    expect(p.warmWaterVolume).toEqual([vol.consumption]);
  });
});

describe("the Property's own average per m²", () => {
  it('sums the kWh of the units of one type over their areas; units without kWh or area are left out, not counted as 0', () => {
    const a = aUnitEntry('WE 01', [metered('heat', flat(100))], { area_heated_m2: 50 });
    const b = aUnitEntry('WE 02', [metered('heat', flat(300))], { area_heated_m2: 100 });
    const noArea = aUnitEntry('WE 03', [metered('heat', flat(999))], { area_heated_m2: null });
    const gap = flat(999);
    gap[12] = null;
    const missing = aUnitEntry('WE 04', [metered('heat', gap)], { area_heated_m2: 80 });
    const shop = aUnitEntry('Laden', [metered('heat', flat(999))], { unit_type: 'commercial', area_heated_m2: 70 });
    const entries = [a, b, noArea, missing, shop];
    const r = run(entries, noPlant);
    const avg = ownAverage(
      entries.map((e, i) => ({ unit: e.unit, uvi: r.units[i]! })),
      'residential',
      'HEATING',
      MONTHS,
    );
    expect(n(avg[12]!.kwh_per_m2)).toBeCloseTo(400 / 150, 12);
    expect(avg[12]!.units).toBe(2);
    expect(n(avg[11]!.kwh_per_m2)).toBeCloseTo((400 + 999) / 230, 12);
    expect(ownAverage([], 'residential', 'HEATING', MONTHS)[0]).toEqual({ month: MONTHS[0], kwh_per_m2: null, units: 0 });
  });
});
