// The heating heat the allocators share: a warm-water heat meter is known by any of its usual German
// names (else it counted twice: once in the plant heat, once subtracted as nothing), several plant heat
// meters that measured together are never added up (one may measure behind another), and a heating heat
// below 0 says what was subtracted. Billing and the uvi run over the same answers, as the uvi step runs them.
import { describe, expect, it } from 'vitest';
import { reasonWords } from '../../src/uvi/compare.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import type { Service } from '../../src/uvi/types.js';
import { aSegment } from '../helpers/builders.js';
import { flat, metered, plantPoint, reviewed, unit, type Entry, type Plant } from '../helpers/uvi-billed.js';
import { cumulative, n, readings, series } from '../helpers/uvi-fixtures.js';

const plantHeat = (id: string, monthly: number[], localization: string) => plantPoint(id, localization, [series(5000, cumulative(5000, monthly))]);

const run = (units: Entry[], plant: Plant[]) => reviewed(units, plant);
type Run = ReturnType<typeof run>;
const month = ({ r }: Run, i: number, s: Service, at = 12) => r.units[i]!.services.find((x) => x.service === s)!.months[at]!;

// Two flats of 50 allocator units and 2 m³ of warm water a month each; the main heat meter 3,000 kWh a month.
const twoFlats = () => [
  unit('WE 01', [metered('hca', flat(50)), metered('water_warm', flat(2))]),
  unit('WE 02', [metered('hca', flat(50)), metered('water_warm', flat(2))]),
];
const main = () => plantHeat('mp-main', flat(3000), 'Hauptwärmezähler Heizraum');

describe("a warm-water heat meter behind the main heat meter, by its installer's name", () => {
  it.each([
    'WMZ Brauchwassererwärmung',
    'WMZ Speicherladung',
    'Wärmezähler Boiler',
    'WMZ Warmwasser',
    'WAERMEZAEHLER BRAUCHWASSERERWAERMUNG',
    'Wa\u0308rmezähler Trinkwassererwa\u0308rmung',
    'WMZ TWE',
    'WMZ WW-Bereitung',
    'Frischwasserstation',
    'Speicher-Ladekreis',
  ])('"%s" is subtracted once: WE 01 gets (3,000 − 500) / 2 kWh, without a finding', (name) => {
    const r = run(twoFlats(), [main(), plantHeat('mp-ww', flat(500), name)]);
    expect(n(month(r, 0, 'HEATING').kwh)).toBeCloseTo(1250, 9);
    // the warm-water heat meter's 500 kWh by WE 01's 2 of 4 m³
    expect(n(month(r, 0, 'HOT_WATER').kwh)).toBeCloseTo(250, 9);
    expect(r.r.findings).toEqual([]);
  });

  it.each(['Pufferspeicherladung', 'Boiler room', 'Gas boiler', 'Wärmemengenzähler Heizzentrale'])('"%s" names the heating plant, not warm water', (name) => {
    const plant = classifyPlant([plantHeat('mp-x', flat(500), name)]);
    expect([plant.heat.length, plant.warmWaterHeat.length]).toEqual([1, 0]);
  });
});

describe('a hostile meter name', () => {
  it('of 100,000 spaces is read in linear time, and the name is kept as sent', () => {
    const spaces = ' '.repeat(100_000);
    const names = [`warm${spaces}x`, `speicher${spaces}x`, `${spaces}${'speicherlad'.repeat(5000)}`, `gas${spaces}boiler`, `inkl${spaces}ww${spaces}hauptwmz`];
    const started = performance.now();
    const plant = classifyPlant(names.map((name, i) => plantHeat(`mp-${i}`, flat(1), name)));
    // 73 s on this machine before white space was folded (the patterns' \s*-?\s* tried every split; "warm" alone 29 s)
    expect(performance.now() - started).toBeLessThan(2000);
    // a 55,000-letter word is no installer's name: unclear, the plant's heat meter
    expect([plant.heat.length, plant.warmWaterHeat.length, plant.unclearNames?.length]).toEqual([5, 0, 2]);
    expect(plant.names?.['mp-0']).toBe(names[0]);
  });
});

describe('several plant heat meters not recognised as warm water', () => {
  it('are never added up: no heating heat for the allocators, the reason on the letter and a check row naming the meters', () => {
    const r = run(twoFlats(), [main(), plantHeat('mp-2', flat(500), 'Wärmezähler 2')]);
    const m = month(r, 0, 'HEATING');
    // summed they gave (3,000 + 500 − 2 × 4 m³ × 125 kWh/m³) / 2 = 1,500 kWh: the sub-meter's heat twice
    expect([m.kwh, n(m.native), m.reasons]).toEqual([null, 50, ['plant_heat_meters_several']]);
    expect(r.r.heatingHeat!.every((x) => x.value === null)).toBe(true);
    expect(r.r.findings.map((f) => f.code)).toEqual(['PLANT_HEAT_METERS_SEVERAL']);
    const de = r.review('de').find((x) => x.code === 'PLANT_HEAT_METERS_SEVERAL')!;
    expect(de.letter).toBe('check');
    expect(de.message).toContain('2 Wärmezähler');
    expect(de.message).toContain('„Hauptwärmezähler Heizraum“, „Wärmezähler 2“');
    expect(r.review('en').find((x) => x.code === 'PLANT_HEAT_METERS_SEVERAL')!.message).toContain('"Wärmezähler 2"');
    expect(reasonWords(m.reasons, 'de')[0]).toContain('mehrere Wärmezähler');
    // warm water by § 9 Abs. 2 is untouched: 2 m³ × 2.5 × (60 − 10)
    expect(n(month(r, 0, 'HOT_WATER').kwh)).toBeCloseTo(250, 9);
  });

  it('a warm-water heat meter named with what it includes ("inkl. Zirkulation") is warm water\'s, subtracted once', () => {
    const r = run(twoFlats(), [main(), plantHeat('mp-ww', flat(500), 'WMZ Warmwasser inkl. Zirkulation')]);
    // read as a second plant heat meter (round 12's first reading of "inkl."), the allocators got no heating kWh
    expect(n(month(r, 0, 'HEATING').kwh)).toBeCloseTo(1250, 9);
    expect(r.r.findings).toEqual([]);
  });

  it('one replacing another at a new point (the old removed in February, the new one installed on 1 March) is no such case', () => {
    const old = cumulative(5000, flat(3000)).slice(0, 4);
    const removed = series(5000, [...old, ...Array<null>(9).fill(null)], {
      deinstalled_at: '2025-02-28',
      period_consumption: { end_value: old[3]!, billable_value: 0, weighted_billable_value: undefined, status: 'measured' },
    });
    const installed = aSegment({
      installed_at: '2025-03-01',
      baseline_value: 0,
      baseline_date: '2025-03-01',
      baseline_origin: 'recorded',
      readings: readings([...Array<null>(4).fill(null), ...cumulative(0, flat(3000).slice(4))]),
      // its end value is its last month-end reading (else billing refuses it: END_VALUE_NOT_AS_READ)
      period_consumption: { end_value: 27000, billable_value: 27000, weighted_billable_value: undefined, status: 'measured' },
    });
    const r = run(twoFlats(), [plantPoint('mp-old', 'WMZ Heizzentrale alt', [removed], false), plantPoint('mp-new', 'WMZ Heizzentrale', [installed])]);
    expect(r.r.findings).toEqual([]);
    // (3,000 − 4 m³ × 125 kWh/m³) / 2 in February (the old meter) and November (the new one)
    expect([n(month(r, 0, 'HEATING', 3).kwh), n(month(r, 0, 'HEATING').kwh)]).toEqual([1250, 1250]);
  });
});

describe('several warm-water heat meters measuring in one month', () => {
  it('are not added up either: hot water by § 9 Abs. 2 instead, with a check row naming them', () => {
    const r = run(twoFlats(), [main(), plantHeat('mp-ww', flat(500), 'WMZ Warmwasser'), plantHeat('mp-zirk', flat(100), 'WW-Zirkulation')]);
    // summed, 600 kWh of warm water: WE 01 300 kWh of hot water and (3,000 − 600) / 2 of heating
    expect(n(month(r, 0, 'HOT_WATER').kwh)).toBeCloseTo(250, 9);
    expect(r.r.units[0]!.services.find((x) => x.service === 'HOT_WATER')!.method).toBe('formula_9_2');
    expect(n(month(r, 0, 'HEATING').kwh)).toBeCloseTo(1250, 9);
    expect(r.r.findings.map((f) => f.code)).toEqual(['WARM_WATER_HEAT_METERS_SEVERAL']);
    const de = r.review('de').find((x) => x.code === 'WARM_WATER_HEAT_METERS_SEVERAL')!;
    expect([de.letter, de.service]).toEqual(['check', 'HOT_WATER']);
    expect(de.message).toContain('2 Wärmezähler für Warmwasser an denselben Tagen gemessen („WMZ Warmwasser“, „WW-Zirkulation“)');
  });
});

describe('a heating heat below 0 names what was subtracted', () => {
  // The main heat meter 1,000 kWh a month; the allocator flats WE 01 and WE 02 share what is left.
  const plant = () => [plantHeat('mp-p', flat(1000), 'Heizzentrale')];
  const ownHeat = (kwh: number) => unit('WE 03', [metered('heat', flat(kwh))]);
  const allocators = (ww: number) => [1, 2].map((i) => unit(`WE 0${i}`, [metered('hca', flat(50)), ...(ww ? [metered('water_warm', flat(ww))] : [])]));

  it("the units' own heat meters alone (no warm water): their words, not warm water's", () => {
    const r = run([...allocators(0), ownHeat(1200)], plant());
    const m = month(r, 0, 'HEATING');
    expect(m.reasons).toEqual(['heating_heat_negative_unit_heat']);
    expect(reasonWords(m.reasons, 'de')).toEqual([
      'die Wärmezähler einzelner Nutzeinheiten zeigen zusammen mehr Wärme als der Hauptwärmezähler der Liegenschaft',
    ]);
  });

  it('warm water and the units’ own heat meters, only together above the plant heat', () => {
    // warm water 2 × 3 m³ × 125 kWh/m³ = 750 kWh, WE 03's 400 kWh: 1,150 > 1,000, neither alone
    const r = run([...allocators(3), ownHeat(400)], plant());
    expect(month(r, 0, 'HEATING').reasons).toEqual(['heating_heat_negative_both']);
    expect(reasonWords(['heating_heat_negative_both'], 'en')[0]).toContain('hot water and the heat meters of individual units together');
  });

  it.each([0, 400])('warm water alone above the plant heat keeps its words (WE 03 %d kWh)', (own) => {
    // 2 × 5 m³ × 125 kWh/m³ = 1,250 > 1,000 whatever WE 03's heat meter counted
    const r = run([...allocators(5), ownHeat(own)], plant());
    expect(month(r, 0, 'HEATING').reasons).toEqual(['heating_heat_negative']);
  });
});
