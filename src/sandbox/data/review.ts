// Property "Lessingstraße 7" of Hausverwaltung Nordlicht: the cases of the pre-billing
// review (docs/sandbox-data.md, "Plausibility cases"). Its eight units are carved from the
// end of the last generated Property, so every other unit keeps its index, id and values.
import { mi } from './dates.js';
import { device, point, propertySlot, unitSlot } from './devices.js';
import type { AddressRec, PointRec, PropertyRec, UnitRec } from './model.js';
import type { Part } from './special.js';

export const REVIEW_PROPERTY_NAME = 'Lessingstraße 7';
export const REVIEW_UNIT_COUNT = 8;
/** The review Property exists from this many units on (the default data set has it). */
export const REVIEW_MIN_UNITS = 60;

const ADDRESS: AddressRec = {
  street: 'Lessingstraße',
  house_number: '7',
  house_number_addition: null,
  postal_code: '22087',
  city: 'Hamburg',
  country_code: 'DE',
};
const AREA = 70;
const HEAT = 600_000;
const COLD = 3_400;
const WARM = 2_100;
/** Devices here are young enough that no calibration period runs out before 2027, except WE 05's heat meter. */
const INSTALLED = '2022-03-15';

/**
 * Inserts the review Property before the Property without units, taking the last
 * REVIEW_UNIT_COUNT units of the last generated Property. `props` are the generated
 * Properties as genericProperties returns them (the unit-less one last).
 */
export function withReviewProperty(seed: string, props: PropertyRec[], total: number): { properties: PropertyRec[]; part: Part | null } {
  const donor = props[props.length - 2];
  const empty = props[props.length - 1];
  if (total < REVIEW_MIN_UNITS || !donor || !empty || donor.unitEnd - donor.unitStart <= REVIEW_UNIT_COUNT) return { properties: props, part: null };
  const start = donor.unitEnd - REVIEW_UNIT_COUNT;
  const idx = donor.idx + 1;
  const property: PropertyRec = {
    idx,
    tenantIdx: 0,
    name: REVIEW_PROPERTY_NAME,
    addresses: [ADDRESS],
    unitCountUnknown: false,
    unitStart: start,
    unitEnd: donor.unitEnd,
  };
  const properties = [...props.slice(0, -2), { ...donor, unitEnd: start }, property, { ...empty, idx: idx + 1 }];
  return { properties, part: reviewPart(seed, property) };
}

function reviewPart(seed: string, prop: PropertyRec): Part {
  const units: UnitRec[] = Array.from({ length: REVIEW_UNIT_COUNT }, (_, i) => ({
    idx: prop.unitStart + i,
    propertyIdx: prop.idx,
    name: `WE ${String(i + 1).padStart(2, '0')}`,
    addressIdx: 0,
    floor: i < 2 ? 'EG' : `${Math.floor(i / 2)}. OG`,
    position: i % 2 === 0 ? 'links' : 'rechts',
    type: 'residential',
    areaHeated: AREA,
    areaWw: AREA,
  }));
  const points: PointRec[] = [];
  const add = (unit: UnitRec, j: number, metric: PointRec['metric'], loc: string, rateMilli: number, opts: Parameters<typeof device>[4] = {}) => {
    const key = unitSlot(unit.idx, j);
    const d = device(seed, key, 0, metric, { installedAt: INSTALLED, rateMilli, ...opts });
    points.push(point(prop.idx, key, metric, loc, { allocations: [{ unitIdx: unit.idx, share: '1' }], devices: [d] }));
  };
  units.forEach((u, i) => {
    const we = i + 1;
    const opts = we === 8 ? { installedAt: '2025-02-01' } : {};
    // WE 01-03: the December reading of cold water is calculated, so more than 25 % of the Property's cold water is not measured.
    add(u, 0, 'water_cold', 'Bad', COLD, we <= 3 ? { ...opts, overrides: { [mi(2025, 12)]: 'calculated' } } : opts);
    add(u, 1, 'water_warm', 'Bad', we === 3 ? 0 : WARM, opts);
    const heat = we === 2 ? { rateChange: { from: mi(2025, 1), factor: 1.4 } } : we === 5 ? { installedAt: '2019-03-01' } : opts;
    add(u, 2, 'heat', 'Heizkreisverteiler Flur', we === 4 ? HEAT * 3.6 : HEAT, heat);
  });
  const plant = (j: number, metric: PointRec['metric'], loc: string, rate: number) => {
    const key = propertySlot(prop.idx, j);
    points.push(point(prop.idx, key, metric, loc, { devices: [device(seed, key, 0, metric, { installedAt: INSTALLED, rateMilli: rate })] }));
  };
  plant(0, 'water_cold', 'Hauptwasserzähler Hausanschluss', COLD * 20);
  plant(1, 'heat', 'Wärmemengenzähler Heizzentrale', HEAT * 20);
  return { units, points };
}
