// From a Property's raw answers to the letter and uvi.csv: two units with heat cost
// allocators and warm-water meters, a plant-room heat meter, no warm-water heat meter. The
// expected figures are worked out here by hand from the readings, not by the code.
import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { letterModel } from '../../src/uvi/letter/index.js';
import { uviRows } from '../../src/uvi/portal/index.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { PROPERTY, aUnitEntry } from '../helpers/builders.js';
import { ALLOCATOR_PROPERTY, MONTH, MONTHS, cumulative, point, series } from '../helpers/uvi-fixtures.js';

const metered = (metric: string, monthly: readonly number[], start = 1000): MeasuringPointConsumption =>
  point(metric, [series(start, cumulative(start, monthly))]);

describe('the letter of WE 01 from the Property’s answers', () => {
  const { hcaA, hcaB, wwA, wwB, plantHeat } = ALLOCATOR_PROPERTY;
  const units = [
    aUnitEntry('WE 01', [metered('hca', hcaA), metered('water_warm', wwA)]),
    aUnitEntry('WE 02', [metered('hca', hcaB), metered('water_warm', wwB)]),
  ];
  const { unit_share: _share, ...plant } = metered('heat', plantHeat, 5000);
  const r = propertyUvi({
    property_id: PROPERTY.id,
    months: MONTHS,
    units,
    plant: { heat: [{ ...plant, unit: 'kWh' }], warmWaterHeat: [], warmWaterVolume: [] },
    benchmark: DEFAULT_BENCHMARK,
  });
  const unit = units[0]!.unit;
  const m = letterModel({
    property: PROPERTY,
    address: unit.address,
    unit,
    erpRef: null,
    month: MONTH,
    uvi: r.units[0]!,
    benchmarkSource: DEFAULT_BENCHMARK.source,
    wwTemperature: 60,
    lang: 'de',
  });

  it('heating: (plant heat − 2.5 × 3 m³ × 50 K) × 30 / 80 allocator units, against October, November 2024 and the average user', () => {
    // Nov 2025: (3200 − 375) × 30/80 = 1059.375; Oct: (2600 − 375) × 25/60 = 927.083…; Nov 2024: (3000 − 375) × 40/100 = 1050
    // average user: 118 kWh/(m²·a) × 72.5 m² × 120 ‰ = 1026.6
    expect(m.services[0]!.rows.map((x) => [x.figure, x.words])).toEqual([
      ['1.059,4 kWh', ''],
      ['927,1 kWh', '14 % mehr als im Oktober 2025'],
      ['1.050,0 kWh', '1 % mehr als im November 2024'],
      ['1.026,6 kWh', '3 % mehr als der Durchschnittsnutzer'],
    ]);
    expect(m.services[0]!.method).toContain('30,0 Einheiten');
  });

  it('warm water: 2 m³ × 2.5 × 50 = 250 kWh; the average user 24 × 72.5 × 30/365 = 143.0', () => {
    expect(m.services[1]!.rows.map((x) => x.figure)).toEqual(['250,0 kWh', '250,0 kWh', '250,0 kWh', '143,0 kWh']);
    expect(m.services[1]!.rows[3]!.words).toBe('75 % mehr als der Durchschnittsnutzer');
    expect(m.services[1]!.method).toContain('2,00 m³');
  });

  it('uvi.csv carries the same figures unrounded to the Wh', () => {
    const rows = uviRows({
      property: { id: PROPERTY.id, name: PROPERTY.name },
      month: MONTH,
      units: units.map((u, i) => ({ unit: u.unit, erpRef: null, uvi: r.units[i]! })),
      findings: r.findings,
    });
    const we01 = rows.filter((x) => x.usage_unit_name === 'WE 01' && x.service === 'HEATING');
    expect(we01.at(-1)).toMatchObject({ month: MONTH, amount: '1059.375', native_amount: '30', benchmark_amount: '1026.6', converted: true });
    expect(we01[11]!.amount).toBe('927.083');
    expect(we01[8]).toMatchObject({ month: '2025-07', amount: null, errors: ['allocator_sum_zero'] });
  });
});
