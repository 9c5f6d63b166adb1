// The generated bulk of the data set: units, points and devices are pure functions of
// (seed, index), computed when asked for, so 50,000 units cost almost no memory.
import { mi, monthEnd } from './dates.js';
import { device, point, propertySlot, replace, unitSlot } from './devices.js';
import type { AddressRec, DeviceRec, PointRec, PropertyRec, UnitRec } from './model.js';
import { rand } from './prng.js';

const STREETS = [
  'Lindenallee',
  'Birkenweg',
  'Goethestraße',
  'Schillerplatz',
  'Rosenstraße',
  'Hafenstraße',
  'Kastanienweg',
  'Bahnhofstraße',
  'Am Anger',
  'Mühlenweg',
  'Eichendorffstraße',
  'Holunderweg',
  'Am Stadtpark',
  'Fichtestraße',
];
const CITIES: [postal: string, city: string][][] = [
  [
    ['24103', 'Kiel'],
    ['23552', 'Lübeck'],
    ['28195', 'Bremen'],
    ['22303', 'Hamburg'],
  ],
  [
    ['80331', 'München'],
    ['86150', 'Augsburg'],
    ['93047', 'Regensburg'],
    ['90402', 'Nürnberg'],
  ],
];
const HCA_FACTORS = ['0.85', '1', '1.15', '1.25', '1.4', '2.1'];
const MAX_UNITS_PER_PROPERTY = 200;

/** A Property of Immobilien Süd KG with two addresses and no units at all, last in the list. */
export const EMPTY_PROPERTY_NAME = 'Gewerbehof Kanalstraße 2-4';

/**
 * Generated Properties 1..P holding units [first, total). Property q+1 belongs to tenant q % 2.
 * Then one Property without units (P+1, tenant 1). Lindenhof has at least two addresses.
 */
export function genericProperties(seed: string, first: number, total: number): PropertyRec[] {
  const r = total - first;
  if (r <= 0) return [];
  const p = Math.min(r, Math.max(2, Math.ceil(r / MAX_UNITS_PER_PROPERTY)));
  const out: PropertyRec[] = [];
  for (let q = 0; q < p; q++) {
    const idx = q + 1;
    const tenantIdx = q % 2;
    const unitStart = first + Math.floor((q * r) / p);
    const unitEnd = first + Math.floor(((q + 1) * r) / p);
    const street = STREETS[q % STREETS.length]!;
    const [postal_code, city] = CITIES[tenantIdx]![Math.floor(q / 2) % 4]!;
    const base = 1 + 2 * Math.floor(rand(seed, 'house', idx) * 40);
    const houses = Math.min(4, Math.max(q === 0 && unitEnd - unitStart > 1 ? 2 : 1, 1 + Math.floor((unitEnd - unitStart) / 40)));
    const addresses: AddressRec[] = Array.from({ length: houses }, (_, i) => ({
      street,
      house_number: String(base + 2 * i),
      house_number_addition: null,
      postal_code,
      city,
      country_code: 'DE',
    }));
    const name = q === 0 ? 'Lindenhof' : houses > 1 ? `${street} ${base}-${base + 2 * (houses - 1)}` : `${street} ${base}`;
    out.push({ idx, tenantIdx, name, addresses, unitCountUnknown: q === 1, unitStart, unitEnd });
  }
  const kanal = (house_number: string): AddressRec => ({
    street: 'Kanalstraße',
    house_number,
    house_number_addition: null,
    postal_code: '93047',
    city: 'Regensburg',
    country_code: 'DE',
  });
  // Empty unit range at the very end, so unit lookups by index never land on it.
  out.push({
    idx: p + 1,
    tenantIdx: 1,
    name: EMPTY_PROPERTY_NAME,
    addresses: [kanal('2'), kanal('4')],
    unitCountUnknown: false,
    unitStart: total,
    unitEnd: total,
  });
  return out;
}

export function genericUnit(seed: string, prop: PropertyRec, idx: number): UnitRec {
  const local = idx - prop.unitStart;
  const commercial = local % 25 === 24;
  const perHouse = Math.ceil((prop.unitEnd - prop.unitStart) / prop.addresses.length);
  const inHouse = local % perHouse;
  const storey = Math.floor(inHouse / 2);
  const area = Math.round((45 + rand(seed, 'area', idx) * 60) * 10) / 10;
  return {
    idx,
    propertyIdx: prop.idx,
    name: `${commercial ? 'GE' : 'WE'} ${String(local + 1).padStart(2, '0')}`,
    addressIdx: Math.min(prop.addresses.length - 1, Math.floor(local / perHouse)),
    floor: storey === 0 ? 'EG' : `${storey}. OG`,
    position: inHouse % 2 === 0 ? 'links' : 'rechts',
    type: commercial ? 'commercial' : 'residential',
    areaHeated: area,
    areaWw: commercial ? null : area,
  };
}

function genericDevices(seed: string, key: number, metric: PointRec['metric'], factor: string): DeviceRec[] {
  const start = mi(2018, 1) + Math.floor(rand(seed, 'inst', key) * 60);
  const day = String(1 + Math.floor(rand(seed, 'day', key) * 28)).padStart(2, '0');
  const installedAt = `${monthEnd(start).slice(0, 8)}${day}`;
  const unknown = rand(seed, 'unknown', key) < 0.05;
  const d = device(seed, key, 0, metric, { installedAt: unknown ? null : installedAt, anchor: installedAt, factor, anomalies: true });
  if (rand(seed, 'repl', key) >= 0.03) return [d];
  const m = mi(2024, 2) + Math.floor(rand(seed, 'replm', key) * 10);
  return replace(seed, d, `${monthEnd(m).slice(0, 8)}${day}`, { startMilli: 0, startKind: metric === 'hca' ? 'assumed_zero' : 'recorded' });
}

/** Points of a generated unit (never shared), in slot order. */
export function genericUnitPoints(seed: string, unit: UnitRec): PointRec[] {
  const out: PointRec[] = [];
  const add = (j: number, metric: PointRec['metric'], loc: string, factor = '1') => {
    const key = unitSlot(unit.idx, j);
    out.push(
      point(unit.propertyIdx, key, metric, loc, { allocations: [{ unitIdx: unit.idx, share: '1' }], devices: genericDevices(seed, key, metric, factor) }),
    );
  };
  add(0, 'water_cold', 'Bad');
  if (unit.type === 'residential') add(1, 'water_warm', 'Bad');
  if (unit.type === 'commercial' || rand(seed, 'heat', unit.idx) < 0.4) {
    add(2, 'heat', 'Heizkreisverteiler Flur');
  } else {
    const rooms = ['Wohnzimmer', 'Schlafzimmer', 'Küche', 'Bad'];
    const n = 2 + Math.floor(rand(seed, 'hcas', unit.idx) * 3);
    for (let i = 0; i < n; i++) add(2 + i, 'hca', `Heizkörper ${rooms[i]}`, HCA_FACTORS[Math.floor(rand(seed, 'k', unit.idx, i) * HCA_FACTORS.length)]);
  }
  return out;
}

/** Plant-room and main meters of a generated Property (no unit); a Property without units has only its main water meter. */
export function genericPropertyPoints(seed: string, prop: PropertyRec): PointRec[] {
  const meters = [
    [0, 'water_cold', 'Hauptwasserzähler Hausanschluss'],
    [1, 'heat', 'Wärmemengenzähler Heizzentrale'],
  ] as const;
  return meters.slice(0, prop.unitEnd > prop.unitStart ? 2 : 1).map(([j, metric, loc]) => {
    const key = propertySlot(prop.idx, j);
    const devices = genericDevices(seed, key, metric, '1').map((d) => ({ ...d, rateMilli: d.rateMilli * 20 }));
    return point(prop.idx, key, metric, loc, { devices });
  });
}
