// The plant room's warm-water meters (m³), which give § 9 Abs. 2 HeizkostenV its volume where no
// warm-water heat meter exists: two that measured on the same days are not added up (one may sit
// behind another, as a circulation's meter does), as several heat meters are not (uvi-plant-heat).
import { describe, expect, it } from 'vitest';
import type { Service } from '../../src/uvi/types.js';
import { aPlantPoint } from '../helpers/builders.js';
import { flat, metered, plantHeat, reviewed, unit, type Entry, type Plant } from '../helpers/uvi-billed.js';
import { n } from '../helpers/uvi-fixtures.js';

function plantWater(id: string, monthly: number[], localization: string): Plant {
  const { unit_share: _none, ...consumption } = metered('water_warm', monthly, 1, { measuring_point_id: id, unit: 'm3' });
  return aPlantPoint({ point: { id, metric: 'water_warm', unit: 'm3', localization }, consumption });
}

const run = (units: Entry[], plant: Plant[]) => reviewed(units, plant);
const month = ({ r }: ReturnType<typeof run>, i: number, s: Service) => r.units[i]!.services.find((x) => x.service === s)!.months[12]!;

// Two allocator flats with 2 m³ of warm water a month each; the main heat meter 3,000 kWh a month, no warm-water heat meter:
// warm water is 125 kWh per m³ by § 9 Abs. 2 at 60 °C (2.5 × (60 − 10)).
const flats = (ww = true) => ['WE 01', 'WE 02'].map((name) => unit(name, [metered('hca', flat(50)), ...(ww ? [metered('water_warm', flat(2))] : [])]));
const main = () => plantHeat('mp-main', flat(3000), 'Hauptwärmezähler Heizraum');

describe("the plant room's warm-water meters", () => {
  it("one meter gives the volume, before the units' own meters: 6 m³ → (3,000 − 750) / 2 kWh of heating", () => {
    const r = run(flats(), [main(), plantWater('mp-ww', flat(6), 'Warmwasserzähler Heizraum')]);
    expect(n(month(r, 0, 'HEATING').kwh)).toBeCloseTo(1125, 9);
    expect(r.r.findings).toEqual([]);
  });

  it("two that measured on the same days are not added up: the units' 4 m³ instead of 6 + 1, with a check row naming both", () => {
    const r = run(flats(), [main(), plantWater('mp-ww', flat(6), 'Warmwasserzähler Heizraum'), plantWater('mp-zirk', flat(1), 'WW-Zirkulation')]);
    // summed, 7 m³ (875 kWh) gave 1,062.5; the units' 4 m³ (500 kWh) give (3,000 − 500) / 2
    expect(n(month(r, 0, 'HEATING').kwh)).toBeCloseTo(1250, 9);
    expect(r.r.findings.map((f) => f.code)).toEqual(['WARM_WATER_VOLUME_METERS_SEVERAL']);
    const de = r.review('de').find((x) => x.code === 'WARM_WATER_VOLUME_METERS_SEVERAL')!;
    expect([de.letter, de.service]).toEqual(['check', 'HOT_WATER']);
    expect(de.message).toContain('2 Warmwasserzähler an denselben Tagen gemessen („Warmwasserzähler Heizraum“, „WW-Zirkulation“)');
    expect(r.review('en').find((x) => x.code === 'WARM_WATER_VOLUME_METERS_SEVERAL')!.message).toContain('2 hot-water meters');
  });

  it('two and no warm-water meter in the units: the heat for warm water is not known, so no heating kWh (never the sum)', () => {
    const r = run(flats(false), [main(), plantWater('mp-ww', flat(6), 'Warmwasserzähler Heizraum'), plantWater('mp-zirk', flat(1), 'WW-Zirkulation')]);
    const m = month(r, 0, 'HEATING');
    expect(m.kwh).toBeNull();
    expect(m.reasons).toContain('warm_water_heat_missing');
    expect(r.r.findings.map((f) => f.code)).toContain('WARM_WATER_VOLUME_METERS_SEVERAL');
  });
});
