import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { PROPERTY, aPlantPoint, aUnitEntry } from '../helpers/builders.js';
import { MONTHS, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

// Plant heat 5,000 kWh a month, warm-water heat 180 kWh (60 kWh per m³ of WE 01's 2 and WE 02's 1 m³):
// heating 4,820 kWh shared half and half by equal allocator units, 2,410 kWh each.
const flat = (v: number) => Array<number>(13).fill(v);
const metered = (metric: string, monthly: number[], start = 1000): MeasuringPointConsumption => point(metric, [series(start, cumulative(start, monthly))]);
const plantPt = (name: string, monthly: number[]) =>
  aPlantPoint({
    point: { localization: name, metric: 'heat', unit: 'kWh' },
    consumption: { metric: 'heat', unit: 'kWh', segments: metered('heat', monthly, 5000).segments },
  });
const november = (
  wwHeat: number[],
  we02Volume: MeasuringPointConsumption = metered('water_warm', flat(1), 10),
  we01Volume = metered('water_warm', flat(2), 10),
) => {
  const r = propertyUvi({
    property_id: PROPERTY.id,
    months: MONTHS,
    units: [aUnitEntry('WE 01', [metered('hca', flat(100)), we01Volume]), aUnitEntry('WE 02', [metered('hca', flat(100)), we02Volume])],
    plant: classifyPlant([plantPt('Wärmezähler Gesamt', flat(5000)), plantPt('Wärmezähler Warmwasser', wwHeat)]),
    benchmark: DEFAULT_BENCHMARK,
  });
  const month = (service: string) => r.units[0]!.services.find((s) => s.service === service)!.months[12]!;
  return { heating: month('HEATING'), hotWater: month('HOT_WATER'), findings: r.findings.map((f) => f.code) };
};

describe('a warm-water heat month the uvi cannot take is not subtracted from the plant heat', () => {
  it('takes a plausible month off the plant heat', () => {
    const { heating, hotWater } = november(flat(180));
    expect(n(heating.kwh)).toBe(2410);
    expect(n(hotWater.kwh)).toBe(120);
  });

  it('leaves heating missing, with the reason, in a month above 450 kWh per m³ (the 13 months pass the 200 kWh per m³ check)', () => {
    const { heating, hotWater, findings } = november([...flat(180).slice(0, 12), 1800]);
    expect(findings).not.toContain('WARM_WATER_HEAT_IMPLAUSIBLE');
    expect(heating.kwh).toBeNull();
    expect(heating.reasons).toEqual(['warm_water_heat_above_bound', 'warm_water_heat_missing']);
    expect(hotWater.kwh).toBeNull();
    expect(hotWater.reasons).toEqual(['warm_water_heat_above_bound']);
  });

  it('leaves heating missing where a unit’s warm-water volume of the month is missing', () => {
    const we02 = metered('water_warm', flat(1), 10);
    we02.segments[0]!.readings.pop();
    const { heating } = november(flat(180), we02);
    expect(heating.kwh).toBeNull();
    expect(heating.reasons).toContain('warm_water_heat_unjudged');
  });

  it('leaves heating missing where no warm water at all was counted in the month but heat was', () => {
    const none = [...flat(1).slice(0, 12), 0];
    const { heating } = november(flat(180), metered('water_warm', none, 10), metered('water_warm', none, 10));
    expect(heating.kwh).toBeNull();
    expect(heating.reasons).toContain('warm_water_heat_unjudged');
  });
});
