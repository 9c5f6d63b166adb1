// Which plant-room heat meter is the warm-water heat meter: a name with any word beside warm water
// that meterdata does not know to be harmless there is the whole plant's meter (listed for review);
// a warm-water heat meter giving more kWh per m³ than § 9 Abs. 2 allows at 80 °C is not used.
import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { uviReviewRows } from '../../src/uvi/portal/rows.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { PROPERTY, aPlantPoint, aUnitEntry } from '../helpers/builders.js';
import { MONTHS, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

const flat = (v: number) => Array<number>(13).fill(v);
const metered = (metric: string, monthly: number[], start = 1000): MeasuringPointConsumption => point(metric, [series(start, cumulative(start, monthly))], 1);
const plantHeat = (localization: string, monthly: number[]) =>
  aPlantPoint({ point: { localization }, consumption: { metric: 'heat', unit: 'kWh', segments: metered('heat', monthly, 5000).segments } });
// Two flats with allocators (50 units each a month) and warm water (2 and 1 m³ a month): 3 m³ in all.
const units = () => [
  aUnitEntry('WE 01', [metered('hca', flat(50)), metered('water_warm', flat(2), 10)]),
  aUnitEntry('WE 02', [metered('hca', flat(50)), metered('water_warm', flat(1), 10)]),
];
const run = (plant: ReturnType<typeof plantHeat>[]) =>
  propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units: units(), plant: classifyPlant(plant), benchmark: DEFAULT_BENCHMARK });
const nov = (r: ReturnType<typeof run>, s: string) => r.units[0]!.services.find((x) => x.service === s)!.months[12]!;

describe('a plant heat meter named for heating and warm water', () => {
  for (const name of [
    'Wärmemengenzähler Heizung und Warmwasser',
    'WMZ Heizung + TWW',
    'Heizzentrale (ohne Warmwasser)',
    'Kessel Heizung/Trinkwasser',
    // warm water alongside something else, or beside the whole supply's meter
    'Heizzentrale inkl. TWW',
    'Hauptwärmezähler inkl. Warmwasser',
    'Gesamt-WMZ inkl. WW',
    'WMZ Fernwärme incl. Warmwasser',
    'Fernwärme-Übergabestation mit TWW',
    'Wärmemengenzähler Hausanschluss (mit Warmwasserbereitung)',
    'Hauptzähler Fernwärme (Heizung + WW)',
    'Hauptwärmezähler Warmwasser',
    // the included warm water a word or two after the inclusion, other inclusion words, the supply's own word
    'Heizzentrale inkl. zentraler Warmwasserbereitung',
    'Übergabestation inkl. der Warmwasserbereitung',
    'Fernwärme zzgl. TWW',
    'Fernwärme Übergabe samt Warmwasser',
    'Fernwärme/Warmwasser',
    'Fernwärme, Warmwasser inbegriffen',
    'Wärme-Hauptzähler Warmwasser',
    'Wärmehauptzähler TWW',
    'Wärmeerzeuger gesamt (TWW)',
    'Main heat meter including DHW',
    'Total heat & hot water',
    // heating, its radiators or the supply in a word meterdata does not know, anywhere in the name
    'WMZ Warmwasser und Heizkörper',
    'WW + HK',
    'TWW und HK',
    'WW/HK',
    'Heizkörper, Warmwasser',
    'Nahwärme TWW',
    'Wärmeerzeugung gesamt (TWW)',
    'WMZ Kessel für Heizkörper und Warmwasser',
    'Wärmemengenzähler Gaskessel (Raumheizung + Trinkwassererwärmung)',
    'Primärzähler Fernwärme inkl.TWW',
    'Fernwärme + WW-Bereitung',
    'Gesamtwärmezähler TWW',
    'Heizungswarmwasser',
    'WMZ Warmwasser Nahwärme Heizwerk',
    'hot water heating plant',
    'WW Radiatoren',
    'TWW Heizen',
    // a letter after warm water and "+" or "/" may be heating's H; the plant room after an "und": the plant beside warm water
    'WMZ WW+H',
    'WW/H',
    'WMZ TWW und Heizzentrale',
    // after an "und", "+" or ",": the plant, its circuits, its generation or supply, the whole or a boiler beside warm water
    'TWW + Gesamtanlage',
    'Warmwasser und Gesamtanlage',
    'WW + gesamt',
    'TWW, Erzeugung gesamt',
    'TWW / Anlage gesamt',
    'Warmwasser und Versorgung gesamt',
    'TWW und Kreis 1',
    'WMZ TWW + Kreis 1 + Kreis 2',
    'Warmwasser + Anlage',
    'Warmwasser samt Anlage',
    'DHW and boiler',
    'Hot water + boiler',
    // English "heat" other than as the meter's own word: it may be the heating's
    'Hot water heat',
    'DHW + heat',
    'DHW heat and heating',
    'Heat DHW',
    'Hot water and heat meter',
    // an English name's boiler is the heating's; "main" after a meter word is the main meter, not the river
    'Boiler heat meter',
    'Boiler 2 heat meter',
    'Heat meter boiler',
    'Hot water boiler heat meter',
    'Boiler system heat meter',
    'DHW main heat meter',
    'Hot water main',
    'DHW main',
    // "Boiler" outside a German name: the heating's boiler, however joined, wherever placed
    'Boiler',
    'Boiler incl. DHW',
    'Boiler (incl. DHW)',
    'Boiler with DHW',
    'Boiler and DHW',
    'Boiler + DHW',
    'Boiler & DHW',
    'Boiler/DHW',
    'Boiler plus DHW',
    'Boiler meter and DHW',
    'Boiler meter incl. DHW',
    'Boiler 1 and DHW',
    'Domestic boiler and DHW',
    'Boiler meter',
    'Boiler system',
    'Boiler system meter',
    'Boiler station',
    'Hot water boiler',
    'Hot water boiler meter',
    'Boiler 1 + 2',
    'Boiler West',
    'West Boiler',
    'Boiler Block 2',
    'Block A Boiler',
    'Boiler + Block 2',
    // a negation, or a word of the meter's state meterdata does not know: checked rather than guessed
    'WMZ Warmwasser ohne Zirkulation',
    'WMZ TWW (nicht geeicht)',
  ]) {
    it(`"${name}" is the whole plant's heat meter, with a finding naming it`, () => {
      const r = run([plantHeat(name, flat(9000))]);
      // Warm water by § 9 Abs. 2 at 60 °C: 2 m³ × 2.5 × 50 = 250 kWh; the Property's 3 m³: 375 kWh.
      expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(250, 9);
      expect(r.units[0]!.services.find((x) => x.service === 'HOT_WATER')!.method).toBe('formula_9_2');
      // Heating: (9000 − 375) kWh by 50 of 100 units.
      expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo(4312.5, 9);
      expect(r.findings).toContainEqual(expect.objectContaining({ code: 'PLANT_METER_NAME_UNCLEAR', facts: expect.objectContaining({ localization: name }) }));
      expect(r.units[0]!.findings.map((f) => f.code)).not.toContain('NO_PLANT_HEAT_METER');
    });
  }

  it.each([
    'Wärmezähler Warmwasserbereitung',
    'WMZ Warmwasser Heizungskeller',
    'Wärmezähler TWW Heizraum',
    'WMZ Heizzentrale Warmwasser',
    'WMZ Warmwasser No. 2',
    'WMZ Warmwasser Heizzentrale',
    'Heizraum WMZ TWW',
    'WMZ TWW',
    'WMZ Speicherladung',
    // what it includes, the houses it serves, a street or place: still warm water's own meter
    'WMZ Speicherladung einschl. Zirkulation',
    'TWW mit Zirkulation',
    'TWW inkl. Zirkulation',
    'WMZ Warmwasser Haus 1 und 2',
    'WMZ Warmwasser Vorder- und Hinterhaus',
    'WMZ Trinkwassererwärmung Haus A & B',
    'WMZ WW Aufgang A+B',
    'WMZ Warmwasser (Funk, mit Fühlertauchhülse)',
    'Frischwasserstation Haus 1 und 2',
    'WMZ Warmwasser Hauptstraße 5',
    'WMZ TWW Hauptstr. 12',
    'Warmwasserbereitung Haupthaus',
    'WMZ Warmwasser Frankfurt am Main',
    'Wärmezähler Warmwasser Gesamt',
    'WMZ Warmwasser Gesamtanlage',
    'WW-Bereitung Totalstraße',
    // what the warm-water heating consists of, the houses and rooms it serves
    'Trinkwassererwärmung mit Speicherladesystem',
    'Warmwasserbereitung mit Frischwasserstation',
    'WMZ Speicherladung und Zirkulation',
    'WMZ WW-Speicher mit Warmwasser-Zirkulation',
    'WMZ Trinkwassererwärmung & Warmwasserspeicher',
    'WMZ Warmwasserspeicher 1 und Warmwasserspeicher 2',
    'Warmwasser Haus 1 + Warmwasser Haus 2',
    'WMZ TWW Haus A und TWW Haus B',
    'WMZ TWW Heizungs-Keller',
    'WMZ Warmwasser im Heizungskeller',
    'WMZ Warmwasser Kesselhaus',
    'WMZ Warmwasser HZG-Raum',
    'WMZ TWW Berliner Straße 7',
    'WMZ TWW 2. OG links',
    'Warmwasser Halle (Saale)',
    'WMZ Warmwasserbereiter',
    'Wärmezähler Trinkwassererwärmer',
    'WMZ Warmwasser - Zählernummer 12345',
    // the German warm-water store in a German name
    'WMZ Boiler',
    'Wärmezähler Boiler Haus 2',
    'Boiler-Speicherladung',
    // the English meter word
    'DHW heat meter',
    'Hot water heat meter',
    'Heat meter DHW',
    'Domestic hot water heat-meter',
  ])('"%s" (warm water alone, the plant room named or a number) stays the warm-water heat meter, without a finding', (name) => {
    const r = run([plantHeat('Heizzentrale', flat(9000)), plantHeat(name, flat(360))]);
    // 360 kWh for 3 m³ (120 kWh/m³): WE 01's 2 m³ get 240.
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(240, 9);
    expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo((9000 - 360) / 2, 9);
    expect(r.findings).toEqual([]);
  });

  it.each(['Heizzentrale inkl. TWW', 'WW + HK', 'Heizzentrale'])(
    '"%s" with flats of their own heat meters: hot water by § 9 Abs. 2, not the whole plant\'s heat by m³',
    (name) => {
      // 600 kWh of heating and 360 kWh of warm water a month; each flat 300 kWh on its heat meter and 3 m³ of warm water.
      const flats = [1, 2].map((i) => aUnitEntry(`WE 0${i}`, [metered('heat', flat(300)), metered('water_warm', flat(3), 10)]));
      const r = propertyUvi({
        property_id: PROPERTY.id,
        months: MONTHS,
        units: flats,
        plant: classifyPlant([plantHeat(name, flat(960))]),
        benchmark: DEFAULT_BENCHMARK,
      });
      // 2.5 × 3 m³ × 50 K = 375 kWh; read as the warm-water heat meter the plant's 960 kWh by 3 of 6 m³ gave 480
      expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(375, 9);
      expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo(300, 9);
      expect(r.findings.map((f) => f.code)).toEqual(name === 'Heizzentrale' ? [] : ['PLANT_METER_NAME_UNCLEAR']);
    },
  );

  it('review.csv names the unclear meter in a check row, in both languages, and cuts a hostile name', () => {
    const long = `Heizung Warmwasser ${'x'.repeat(5000)}`;
    const r = run([plantHeat('WMZ Heizung + TWW', flat(9000)), plantHeat(long, flat(9000))]);
    const p = { property: PROPERTY, month: '2025-11', findings: r.findings, units: [] } as unknown as Parameters<typeof uviReviewRows>[0];
    const en = uviReviewRows(p, 'en');
    // both read as the plant's heat meters: several of them, never added up (uvi-plant-heat.test.ts)
    expect(en.map((x) => [x.letter, x.code])).toEqual([
      ['check', 'PLANT_METER_NAME_UNCLEAR'],
      ['check', 'PLANT_METER_NAME_UNCLEAR'],
      ['check', 'PLANT_HEAT_METERS_SEVERAL'],
    ]);
    expect(en[0]!.message).toContain('"WMZ Heizung + TWW"');
    expect(en[1]!.message.length).toBeLessThan(500);
    expect(en[2]!.message.length).toBeLessThan(1000);
    expect(uviReviewRows(p, 'de')[0]!.message).toContain('„WMZ Heizung + TWW“');
  });
});

describe('a warm-water heat meter giving more heat per m³ than warm water can carry', () => {
  const hotWater = (r: ReturnType<typeof run>) => r.units[0]!.services.find((x) => x.service === 'HOT_WATER')!;
  const review = (r: ReturnType<typeof run>, lang: 'en' | 'de') =>
    uviReviewRows({ property: PROPERTY, month: '2025-11', findings: r.findings, units: [] } as unknown as Parameters<typeof uviReviewRows>[0], lang);

  it('above 200 kWh/m³ (2.5 × (80 °C − 0 °C)) over the 13 months: § 9 Abs. 2 instead, with a finding', () => {
    const r = run([plantHeat('Heizzentrale', flat(9000)), plantHeat('WMZ Warmwasser', flat(3 * 201))]);
    expect(hotWater(r).method).toBe('formula_9_2');
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(250, 9);
    expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo(4312.5, 9);
    expect(r.findings).toEqual([
      expect.objectContaining({
        code: 'WARM_WATER_HEAT_IMPLAUSIBLE',
        service: 'HOT_WATER',
        facts: { from: '2024-11', to: '2025-11', kwh_per_m3: '201.0', max: '200' },
      }),
    ]);
    expect(review(r, 'de')[0]!.message).toContain('von November 2024 bis November 2025 201 kWh je m³');
    expect(review(r, 'en')[0]).toMatchObject({ letter: 'check', code: 'WARM_WATER_HEAT_IMPLAUSIBLE' });
  });

  it('at exactly 200 kWh/m³ the meter is used, and one month of little tapping above it does not drop the meter', () => {
    let r = run([plantHeat('Heizzentrale', flat(9000)), plantHeat('WMZ Warmwasser', flat(3 * 200))]);
    expect(hotWater(r).method).toBe('ww_heat_meter_share');
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(400, 9);
    const ww = flat(360);
    ww[7] = 900; // July 2025: 300 kWh/m³, the 13 months 133.8 kWh/m³
    r = run([plantHeat('Heizzentrale', flat(9000)), plantHeat('WMZ Warmwasser', ww)]);
    expect(hotWater(r).method).toBe('ww_heat_meter_share');
    expect(r.findings).toEqual([]);
  });
});
