// Wohnbau Rheinblick eG, a third customer organisation with three fixed Properties for the
// monthly consumption information (§ 6a HeizkostenV): allocators behind a plant heat meter,
// heat meters with a warm-water heat meter, allocators without a plant meter, and the month
// cases the letter must handle (docs/sandbox-data.md, "Monthly information cases"). Its
// Properties and units sit at indices from RHEINBLICK_BASE on, far past the generated bulk
// (at most 50,000 units, about 250 Properties): no id collides, and --units leaves them alone.
import { mi } from './dates.js';
import { device, point, propertySlot, replace, unitSlot, type DeviceOpts } from './devices.js';
import type { AddressRec, KnownMetricName, PointRec, PropertyRec, UnitRec } from './model.js';
import type { Part } from './special.js';

export const RHEINBLICK_TENANT_NAME = 'Wohnbau Rheinblick eG';
export const RHEINBLICK_BASE = 1_000_000;

/** Monthly kWh per m² of a typical flat before the season (118 kWh/(m²·a), the sum of the heating season's 11.1 month weights). */
const HEAT_PER_M2 = 118 / 11.1;
/** Warm water per flat and month, milli-m³ (18 m³ a year). */
const WARM = 1_500;
const COLD = 3_200;
/** § 9 Abs. 2 HeizkostenV at 60 °C: 2.5 kWh/(m³·K) × 50 K, in kWh per m³. */
const WW_KWH_PER_M3 = 125;

const addr = (street: string, house_number: string, postal_code: string, city: string): AddressRec => ({
  street,
  house_number,
  house_number_addition: null,
  postal_code,
  city,
  country_code: 'DE',
});

type UnitSpec = [name: string, floor: string, position: string | null, area: number | null];
interface PropertySpec {
  name: string;
  address: AddressRec;
  installed: string;
  units: UnitSpec[];
}

export const RHEINBLICK_PROPERTIES: PropertySpec[] = [
  {
    name: 'Rheinuferstraße 12',
    address: addr('Rheinuferstraße', '12', '50668', 'Köln'),
    installed: '2022-04-20',
    units: [
      ['WE 01', 'EG', 'links', 62.5],
      ['WE 02', 'EG', 'rechts', 74.0],
      ['WE 03', '1. OG', 'links', 62.5],
      ['WE 04', '1. OG', 'rechts', 74.0],
      ['WE 05', '2. OG', 'links', 81.3],
      ['WE 06', 'DG', null, null],
    ],
  },
  {
    name: 'Rheinuferstraße 14',
    address: addr('Rheinuferstraße', '14', '50668', 'Köln'),
    installed: '2022-05-10',
    units: [
      ['WE 01', 'EG', 'links', 58.2],
      ['WE 02', 'EG', 'rechts', 71.6],
      ['WE 03', '1. OG', 'links', 58.2],
      ['WE 04', '1. OG', 'rechts', 71.6],
      ['WE 05', '2. OG', 'links', 58.2],
      ['WE 06', '2. OG', 'rechts', 71.6],
    ],
  },
  {
    name: 'Am Leinpfad 3',
    address: addr('Am Leinpfad', '3', '53111', 'Bonn'),
    installed: '2022-09-01',
    units: [
      ['WE 01', 'EG', null, 88.0],
      ['WE 02', '1. OG', null, 88.0],
      ['WE 03', '2. OG', null, 88.0],
      ['WE 04', 'DG', null, 64.5],
    ],
  },
];

/** How much each flat heats against the typical flat (so the letters differ). */
const HABIT = [0.85, 1.1, 0.95, 1.2, 1.0, 0.9];
const HCA_ROOMS: [room: string, factor: string, rateMilli: number][] = [
  ['Wohnzimmer', '1.25', 60_000],
  ['Schlafzimmer', '0.85', 35_000],
  ['Küche', '1', 40_000],
];

/** The tenant's Properties (tenant index `tenantIdx`) with their units and points. */
export function rheinblick(seed: string, tenantIdx: number): { properties: PropertyRec[]; part: Part } {
  const properties: PropertyRec[] = [];
  const part: Part = { units: [], points: [] };
  let unitIdx = RHEINBLICK_BASE;
  RHEINBLICK_PROPERTIES.forEach((spec, i) => {
    const prop: PropertyRec = {
      idx: RHEINBLICK_BASE + i,
      tenantIdx,
      name: spec.name,
      addresses: [spec.address],
      unitCountUnknown: false,
      unitStart: unitIdx,
      unitEnd: unitIdx + spec.units.length,
    };
    unitIdx = prop.unitEnd;
    properties.push(prop);
    const units = spec.units.map(([name, floor, position, area], k): UnitRec => ({
      idx: prop.unitStart + k,
      propertyIdx: prop.idx,
      name,
      addressIdx: 0,
      floor,
      position,
      type: 'residential',
      areaHeated: area,
      areaWw: area,
    }));
    part.units.push(...units);
    part.points.push(...[allocatorProperty, heatMeterProperty, noPlantProperty][i]!(seed, prop, units, spec.installed));
  });
  return { properties, part };
}

type Devices = (key: number) => PointRec['devices'];

function builder(seed: string, prop: PropertyRec, installed: string) {
  const points: PointRec[] = [];
  const one =
    (metric: KnownMetricName, opts: DeviceOpts): Devices =>
    (key) => [device(seed, key, 0, metric, { installedAt: installed, ...opts })];
  const own = (u: UnitRec, j: number, metric: KnownMetricName, loc: string, devs: Devices) => {
    const key = unitSlot(u.idx, j);
    points.push(point(prop.idx, key, metric, loc, { allocations: [{ unitIdx: u.idx, share: '1' }], devices: devs(key) }));
  };
  const water = (u: UnitRec, opts: DeviceOpts = {}) => {
    own(u, 0, 'water_cold', 'Bad', one('water_cold', { rateMilli: COLD, ...opts }));
    own(u, 1, 'water_warm', 'Bad', one('water_warm', { rateMilli: WARM, ...opts }));
  };
  const allocators = (u: UnitRec, k: number, rooms: number, opts: DeviceOpts = {}) => {
    HCA_ROOMS.slice(0, rooms).forEach(([room, factor, rate], r) =>
      own(u, 2 + r, 'hca', `Heizkörper ${room}`, one('hca', { factor, rateMilli: Math.round(rate * (HABIT[k] ?? 1)), ...opts })),
    );
  };
  const plant = (j: number, metric: KnownMetricName, loc: string, opts: DeviceOpts) => {
    const key = propertySlot(prop.idx, j);
    points.push(point(prop.idx, key, metric, loc, { devices: one(metric, opts)(key) }));
  };
  return { points, one, own, water, allocators, plant };
}

/** Flat heat per month before the season: the typical flat's kWh for its area, milli-kWh. */
const heatRate = (area: number, k: number): number => Math.round(area * HEAT_PER_M2 * (HABIT[k] ?? 1) * 1000);

/**
 * Rheinuferstraße 12: three allocators per flat, warm water by § 9 Abs. 2 from the flats'
 * warm-water meters, a plant heat meter. Its flat part (warm water and circulation, 2,000 kWh
 * a month ± 5 %) stays above the formula's heat of all six flats' warm water (at most
 * 6 × 1.5 m³ × 1.15 × 1.25 × 125 kWh/m³ = 1,617 kWh), so the heating heat is never negative.
 * WE 06 has no floor area.
 */
function allocatorProperty(seed: string, prop: PropertyRec, units: UnitRec[], installed: string): PointRec[] {
  const b = builder(seed, prop, installed);
  units.forEach((u, k) => {
    b.water(u);
    b.allocators(u, k, 3);
  });
  const area = units.reduce((s, u) => s + (u.areaHeated ?? 70), 0);
  b.plant(0, 'water_cold', 'Hauptwasserzähler Hausanschluss', { rateMilli: Math.round(COLD * 6 * 1.1) });
  b.plant(1, 'heat', 'Wärmemengenzähler Heizzentrale', { rateMilli: Math.round(area * HEAT_PER_M2 * 1000), baseMilli: 2_000_000 });
  return b.points;
}

/**
 * Rheinuferstraße 14: a heat meter per flat, a plant-room heat meter for the warm-water heating
 * (§ 9 Abs. 2 Satz 1; about 125 kWh per m³ of the flats' warm water, flat over the year) and one for
 * the whole plant (the flats' heat × 1.3 ± 3 % plus warm water: always above their sum).
 * WE 03's heat meter is replaced on 2025-11-14; WE 04's reading of 2025-11-30 is calculated;
 * WE 05's reading of 2024-11-30 is missing, so November and December 2024 have no value.
 */
function heatMeterProperty(seed: string, prop: PropertyRec, units: UnitRec[], installed: string): PointRec[] {
  const b = builder(seed, prop, installed);
  let heat = 0;
  units.forEach((u, k) => {
    b.water(u);
    const rateMilli = heatRate(u.areaHeated!, k);
    heat += rateMilli;
    const loc = 'Heizkreisverteiler Flur';
    if (u.name === 'WE 03')
      b.own(u, 2, 'heat', loc, (key) => replace(seed, b.one('heat', { rateMilli })(key)[0]!, '2025-11-14', { rateMilli, startMilli: 4_000 }));
    else if (u.name === 'WE 04') b.own(u, 2, 'heat', loc, b.one('heat', { rateMilli, overrides: { [mi(2025, 11)]: 'calculated' } }));
    else if (u.name === 'WE 05') b.own(u, 2, 'heat', loc, b.one('heat', { rateMilli, overrides: { [mi(2024, 11)]: 'missing' } }));
    else b.own(u, 2, 'heat', loc, b.one('heat', { rateMilli }));
  });
  const wwHeat = units.length * WARM * WW_KWH_PER_M3;
  b.plant(0, 'water_cold', 'Hauptwasserzähler Hausanschluss', { rateMilli: Math.round(COLD * 6 * 1.1) });
  b.plant(1, 'heat', 'Wärmemengenzähler Heizzentrale', { rateMilli: Math.round(heat * 1.3), noise: 0.03, baseMilli: Math.round(wwHeat * 1.15) });
  b.plant(2, 'heat', 'Wärmezähler Warmwasserbereitung', { rateMilli: 0, baseMilli: wwHeat });
  return b.points;
}

/**
 * Am Leinpfad 3: two allocators per flat and no plant heat meter (the letter shows allocator
 * units); warm water by § 9 Abs. 2. WE 04, the attic flat converted in 2025, has every meter
 * from 2025-03-01 on (new meters, start value 0).
 */
function noPlantProperty(seed: string, prop: PropertyRec, units: UnitRec[], installed: string): PointRec[] {
  const b = builder(seed, prop, installed);
  units.forEach((u, k) => {
    const opts: DeviceOpts = u.name === 'WE 04' ? { installedAt: '2025-03-01', startMilli: 0 } : {};
    b.water(u, opts);
    b.allocators(u, k, 2, opts);
  });
  b.plant(0, 'water_cold', 'Hauptwasserzähler Hausanschluss', { rateMilli: Math.round(COLD * 4 * 1.1) });
  return b.points;
}
