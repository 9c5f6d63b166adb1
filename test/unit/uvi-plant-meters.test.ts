// --plant-meters: the landlord says which plant-room heat meter measures warm water only
// (§ 9 Abs. 2 HeizkostenV), so a Property listed in the file has no name read; a line naming a point
// the Property lacks is a check row and its names are read instead. The file's bad lines: exit 2.
import { describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { UsageError } from '../../src/core/errors.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { parsePlantMeters, plantMetersOf, type PlantMeterEntry } from '../../src/uvi/inputs/index.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { uviReviewRows } from '../../src/uvi/portal/rows.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { PROPERTY, aPlantPoint, aUnitEntry, uuid } from '../helpers/builders.js';
import { MONTHS, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

const flat = (v: number) => Array<number>(13).fill(v);
const metered = (metric: string, monthly: number[], start = 1000): MeasuringPointConsumption => point(metric, [series(start, cumulative(start, monthly))], 1);
const plantHeat = (id: string, localization: string, monthly: number[]) =>
  aPlantPoint({
    point: { id, localization },
    consumption: { measuring_point_id: id, metric: 'heat', unit: 'kWh', segments: metered('heat', monthly, 5000).segments },
  });
const MAIN = uuid(901);
const WW = uuid(902);
const entry = (measuring_point_id: string, role: PlantMeterEntry['role'], line = 2): PlantMeterEntry => ({
  property_id: PROPERTY.id,
  measuring_point_id,
  role,
  line,
});
// Two flats with their own heat meters (300 kWh a month) and 3 m³ of warm water a month each.
const ownFlats = () => [1, 2].map((i) => aUnitEntry(`WE 0${i}`, [metered('heat', flat(300)), metered('water_warm', flat(3), 10)]));
// Two flats with allocators (50 units each) and 2 and 1 m³ of warm water a month.
const allocFlats = () => [
  aUnitEntry('WE 01', [metered('hca', flat(50)), metered('water_warm', flat(2), 10)]),
  aUnitEntry('WE 02', [metered('hca', flat(50)), metered('water_warm', flat(1), 10)]),
];
const run = (units: ReturnType<typeof ownFlats>, plant: ReturnType<typeof plantHeat>[], listed?: PlantMeterEntry[]) =>
  propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units, plant: classifyPlant(plant, listed), benchmark: DEFAULT_BENCHMARK });
const nov = (r: ReturnType<typeof run>, s: string) => r.units[0]!.services.find((x) => x.service === s)!.months[12]!;
const review = (r: ReturnType<typeof run>, lang: 'en' | 'de') =>
  uviReviewRows({ property: PROPERTY, month: '2025-11', findings: r.findings, units: [] } as unknown as Parameters<typeof uviReviewRows>[0], lang);

describe('the plant meters the landlord names', () => {
  it('"WW + HK" listed as the plant\'s heat meter: hot water by § 9 Abs. 2 (375 kWh, not the 960 kWh by m³: 480), no unclear row', () => {
    const plant = [plantHeat(MAIN, 'WW + HK', flat(960))];
    const byName = run(ownFlats(), plant);
    expect(byName.findings.map((f) => f.code)).toEqual(['PLANT_METER_NAME_UNCLEAR']);
    const r = run(ownFlats(), plant, [entry(MAIN, 'plant_heat')]);
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(375, 9);
    expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo(300, 9);
    expect(r.findings).toEqual([]);
  });

  it('a warm-water heat meter whose name is unclear, listed as warm_water_heat: used as the warm-water heat meter, no row', () => {
    const plant = [plantHeat(MAIN, 'Heizzentrale', flat(9000)), plantHeat(WW, 'WMZ TWW kein Funk', flat(360))];
    expect(run(allocFlats(), plant).findings.map((f) => f.code)).toEqual(['PLANT_METER_NAME_UNCLEAR', 'PLANT_HEAT_METERS_SEVERAL']);
    const r = run(allocFlats(), plant, [entry(WW.toUpperCase(), 'warm_water_heat')]);
    // 360 kWh for 3 m³: WE 01's 2 m³ get 240; heating (9000 − 360) / 2
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(240, 9);
    expect(n(nov(r, 'HEATING').kwh)).toBeCloseTo((9000 - 360) / 2, 9);
    expect(r.findings).toEqual([]);
  });

  it("a name that reads as warm water is the plant's when the file lists only another point as warm water's", () => {
    const plant = [plantHeat(MAIN, 'WMZ Warmwasser', flat(9000)), plantHeat(WW, 'Zähler 2', flat(360))];
    const r = run(allocFlats(), plant, [entry(WW, 'warm_water_heat')]);
    expect(n(nov(r, 'HOT_WATER').kwh)).toBeCloseTo(240, 9);
    expect(r.findings).toEqual([]);
  });

  it.each([
    ['a point the Property does not have', uuid(999)],
    ['a heat meter of a unit, not of the plant room', 'unit'],
  ])('a line naming %s: a check row naming it in both languages, and the names are read instead', (_what, which) => {
    const units = ownFlats();
    const unitPoint = units[0]!.consumption.measuring_points[0]!.measuring_point_id;
    const listed = which === 'unit' ? unitPoint : which;
    const plant = [plantHeat(MAIN, 'WW + HK', flat(960))];
    const r = run(units, plant, [entry(MAIN, 'plant_heat', 2), entry(listed, 'warm_water_heat', 3)]);
    expect(r.findings.map((f) => f.code)).toEqual(['PLANT_METER_LISTED_UNKNOWN', 'PLANT_METER_NAME_UNCLEAR']);
    expect(review(r, 'en')[0]).toMatchObject({ letter: 'check', code: 'PLANT_METER_LISTED_UNKNOWN' });
    expect(review(r, 'en')[0]!.message).toContain(`line 3 of the --plant-meters file names meter ${listed}`);
    expect(review(r, 'de')[0]!.message).toContain(`Zeile 3 der Datei für --plant-meters nennt den Zähler ${listed}`);
  });

  it("only the Property's own lines count: another Property's lines leave its names read", () => {
    const other = { ...entry(WW, 'warm_water_heat'), property_id: uuid(77) };
    const meters = { file: 'p.csv', entries: [other] };
    expect(plantMetersOf(meters, PROPERTY.id)).toBeUndefined();
    expect(plantMetersOf(meters, uuid(77).toUpperCase())).toEqual([other]);
  });
});

describe('the --plant-meters file', () => {
  const P = uuid(1);
  const M = uuid(2);
  it('reads commas or semicolons, a byte order mark, ids in any case and repeated lines once', () => {
    const text = `\uFEFFRole;Property_ID;measuring_point_id\r\nwarm_water_heat;${P.toUpperCase()};${M}\r\n\r\nwarm_water_heat;${P};${M.toUpperCase()}\r\n`;
    expect(parsePlantMeters(text, 'p.csv').entries).toEqual([{ property_id: P, measuring_point_id: M, role: 'warm_water_heat', line: 2 }]);
    expect(parsePlantMeters(`property_id,measuring_point_id,role\n${P},${M},plant_heat\n`, 'p.csv').entries).toHaveLength(1);
  });

  it.each([
    ['no role column', `property_id,measuring_point_id\n${P},${M}\n`, 'p.csv line 1: no column role, or it is named twice.'],
    ['a column twice', `property_id,role,measuring_point_id,role\n${P},plant_heat,${M},plant_heat\n`, 'p.csv line 1: no column role, or it is named twice.'],
    ['an unknown role', `property_id,measuring_point_id,role\n${P},${M},water_warm\n`, 'p.csv line 2: unknown role "water_warm".'],
    [
      'a name for an id',
      `property_id,measuring_point_id,role\n${P},WMZ Warmwasser,plant_heat\n`,
      'p.csv line 2: "WMZ Warmwasser" is not an id of the metering service.',
    ],
    ['too few fields', `property_id,measuring_point_id,role\n${P},${M}\n`, 'p.csv line 2: fewer fields than the header names.'],
    ['an open quote', `property_id,measuring_point_id,role\n"${P},${M},plant_heat\n`, 'p.csv line 2: a quote is opened and never closed.'],
    [
      'one meter with two roles',
      `property_id,measuring_point_id,role\n${P},${M},plant_heat\n${P},${M},warm_water_heat\n`,
      'p.csv line 3: this meter is given a different role on line 2.',
    ],
  ])('%s: one line naming the file and line, exit 2', (_what, text, message) => {
    let e: unknown;
    try {
      parsePlantMeters(text, 'p.csv');
    } catch (thrown) {
      e = thrown;
    }
    expect(e).toBeInstanceOf(UsageError);
    expect([(e as UsageError).message, (e as UsageError).code, (e as UsageError).exitCode]).toEqual([
      `--plant-meters ${message}`,
      'UVI_PLANT_METERS_INVALID',
      2,
    ]);
  });
});
