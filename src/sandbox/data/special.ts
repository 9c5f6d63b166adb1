// Property 1 "Musterstraße 1-5" of Hausverwaltung Nordlicht: every special case of the contract at a
// fixed, documented place (docs/sandbox-data.md has the table). Kept free of random anomalies.
import { mi } from './dates.js';
import { device, point, propertySlot, replace, unitSlot } from './devices.js';
import type { AddressRec, PointRec, PropertyRec, UnitRec, UnitTypeName } from './model.js';

const addr = (house_number: string, house_number_addition: string | null = null): AddressRec => ({
  street: 'Musterstraße',
  house_number,
  house_number_addition,
  postal_code: '22085',
  city: 'Hamburg',
  country_code: 'DE',
});
/** Musterstraße 5 has no units (the contract lists addresses without units too). */
export const SPECIAL_ADDRESSES = [addr('1'), addr('3'), addr('3', 'a'), addr('5')];

type U = [name: string, type: UnitTypeName, floor: string | null, position: string | null, addressIdx: number, area: number | null];
const UNITS: U[] = [
  ['WE 01', 'residential', 'EG', 'links', 0, 78.4],
  ['WE 02', 'residential', 'EG', 'rechts', 0, 64.2],
  ['WE 03', 'residential', '1. OG', 'links', 0, 78.4],
  ['WE 04', 'residential', '1. OG', 'rechts', 0, 64.2],
  ['WE 05', 'residential', '2. OG', 'links', 0, 78.4],
  ['WE 06', 'residential', '2. OG', 'rechts', 0, 64.2],
  ['WE 07', 'residential', 'DG', null, 0, 92.7],
  ['WE 08', 'residential', 'EG', 'links', 1, 71.0],
  ['WE 09', 'residential', 'EG', 'rechts', 1, 55.3],
  ['WE 10', 'residential', '1. OG', 'links', 1, 71.0],
  ['WE 11', 'residential', '1. OG', 'rechts', 1, 55.3],
  ['WE 12', 'residential', '2. OG', 'links', 1, 71.0],
  ['WE 13', 'residential', '2. OG', 'rechts', 1, 55.3],
  ['WE 14', 'residential', '3. OG', 'links', 1, 68.9],
  ['WE 15', 'residential', '3. OG', 'rechts', 1, 68.9],
  ['WE 16', 'residential', 'EG', null, 2, 48.5],
  ['WE 17', 'residential', '1. OG', null, 2, 48.5],
  ['WE 18', 'residential', '2. OG', null, 2, 48.5],
  ['GE 01', 'commercial', 'EG', 'Ladenlokal', 2, 120.0],
  ['Treppenhaus', 'traffic', null, null, 0, null],
  ['Technikraum', 'technical', 'KG', null, 1, null],
];
export const SPECIAL_UNIT_COUNT = UNITS.length;

export interface Part {
  units: UnitRec[];
  points: PointRec[];
}

/** Property 0 with its first `count` units (all of them when count >= SPECIAL_UNIT_COUNT). */
export function specialProperty(seed: string, count: number): { property: PropertyRec; part: Part } {
  const n = Math.min(count, SPECIAL_UNIT_COUNT);
  const units: UnitRec[] = UNITS.slice(0, n).map(([name, type, floor, position, addressIdx, area], idx) => ({
    idx,
    propertyIdx: 0,
    name,
    type,
    floor,
    position,
    addressIdx,
    areaHeated: area,
    areaWw: type === 'residential' ? area : null,
  }));
  const points = specialPoints(seed).filter((p) => p.allocations.every((a) => a.unitIdx < n));
  const property: PropertyRec = {
    idx: 0,
    tenantIdx: 0,
    name: 'Musterstraße 1-5',
    addresses: SPECIAL_ADDRESSES,
    unitCountUnknown: false,
    unitStart: 0,
    unitEnd: n,
  };
  return { property, part: { units, points } };
}

function specialPoints(seed: string): PointRec[] {
  const pts: PointRec[] = [];
  const own = (
    u: number,
    j: number,
    metric: PointRec['metric'],
    loc: string,
    devs: (key: number) => PointRec['devices'] = (key) => [device(seed, key, 0, metric, {})],
    rest: Partial<PointRec> = {},
  ) => {
    const key = unitSlot(u, j);
    pts.push(point(0, key, metric, loc, { allocations: [{ unitIdx: u, share: '1' }], devices: devs(key), ...rest }));
  };
  const standard = (u: number, skip: number[] = []) => {
    if (!skip.includes(0)) own(u, 0, 'water_cold', 'Bad, Vorwandinstallation');
    if (!skip.includes(1)) own(u, 1, 'water_warm', 'Bad, Vorwandinstallation');
    if (!skip.includes(2)) own(u, 2, 'heat', 'Heizkreisverteiler Flur');
  };
  const one = (metric: PointRec['metric'], opts: Parameters<typeof device>[4]) => (key: number) => [device(seed, key, 0, metric, opts)];

  standard(0);
  own(0, 3, 'water_outdoor', 'Gartenwasser Terrasse');
  standard(1, [2]);
  own(1, 2, 'heat', 'Heizkreisverteiler Flur', undefined, { isSystemLinked: false });
  standard(2, [2]);
  own(2, 2, 'heat', 'Heizkreisverteiler Flur', (key) =>
    replace(seed, device(seed, key, 0, 'heat', { installedAt: '2018-04-10' }), '2025-06-15', { startMilli: 12_500 }),
  );
  standard(3, [1]);
  own(3, 1, 'water_warm', 'Küche', (key) => [device(seed, key, 0, 'water_warm', { deinstalledAt: '2025-09-10', replacementReason: 'DeviceRemoval' })]);
  standard(4, [0]);
  own(4, 0, 'water_cold', 'Küche', (key) => [device(seed, key, 0, 'water_cold', { deinstalledAt: '2025-08-31', replacementReason: 'DeviceRemoval' })]);
  standard(5, [2]);
  own(5, 2, 'heat', 'Heizkreisverteiler Flur', one('heat', { installedAt: null, anchor: '2019-03-01' }));
  standard(6, [0]);
  own(6, 0, 'water_cold', 'Hauswirtschaftsraum', one('water_cold', { installedAt: null, anchor: '2025-04-20' }));
  standard(7, [2]);
  own(7, 2, 'hca', 'Heizkörper Wohnzimmer', (key) =>
    replace(seed, device(seed, key, 0, 'hca', { factor: '1.25' }), '2025-03-12', { startKind: 'assumed_zero' }),
  );
  own(7, 3, 'hca', 'Heizkörper Schlafzimmer', one('hca', { factor: '0.85' }));
  own(7, 4, 'hca', 'Heizkörper Bad', one('hca', { factor: '1' }));
  standard(8, [2]);
  own(8, 2, 'heat', 'Heizkreisverteiler Flur', one('heat', { calibrationFrom: mi(2025, 8) }));
  standard(9, [0, 1, 2]);
  own(9, 0, 'water_cold', 'Bad', one('water_cold', { overrides: { [mi(2025, 5)]: 'calculated' } }));
  own(9, 1, 'water_warm', 'Bad', one('water_warm', { overrides: { [mi(2025, 12)]: 'calculated' } }));
  own(9, 2, 'heat', 'Heizkreisverteiler Flur', one('heat', { overrides: { [mi(2025, 2)]: 'calculated' } }));
  own(9, 3, 'hca', 'Heizkörper Küche', one('hca', { factor: '1.1', overrides: { [mi(2025, 11)]: 'calculated' } }));
  standard(10, [1, 2]);
  own(10, 1, 'water_warm', 'Bad', one('water_warm', { overrides: { [mi(2025, 4)]: 'missing', [mi(2025, 12)]: 'missing' } }));
  own(10, 2, 'heat', 'Heizkreisverteiler Flur', one('heat', { overrides: { [mi(2024, 12)]: 'missing' } }));
  standard(11, [0]);
  own(11, 0, 'water_cold', 'Bad', one('water_cold', { installedAt: null, anchor: '2019-06-01', gap: [mi(2024, 11), mi(2025, 12)] }));
  standard(12, [0]);
  own(12, 0, 'water_cold', 'Bad', (key) => replace(seed, device(seed, key, 0, 'water_cold', {}), '2025-10-07', { startKind: 'unrecorded', startMilli: 1_000 }));
  // WE 14/WE 15 share one heat meter 60/40; WE 16-18 share one warm-water meter 50/25/25.
  standard(13, [2]);
  standard(14, [2]);
  own(13, 2, 'heat', 'Heizkreisverteiler Treppenhaus 3. OG', undefined, {
    allocations: [
      { unitIdx: 13, share: '0.6' },
      { unitIdx: 14, share: '0.4' },
    ],
  });
  for (const u of [15, 16, 17]) standard(u, [1]);
  own(15, 1, 'water_warm', 'Steigleitung Haus 3a', undefined, {
    allocations: [
      { unitIdx: 15, share: '0.5' },
      { unitIdx: 16, share: '0.25' },
      { unitIdx: 17, share: '0.25' },
    ],
  });
  standard(18, [1]);
  own(18, 3, 'heat', 'Differenzzähler Heizung Laden', () => [], { isDifference: true });
  own(19, 0, 'water_cold', 'Reinigungswasser Keller');
  own(20, 0, 'water_cold', 'Technikraum Ausguss');
  // A 50/50 tie: the primary unit is the one with the smaller id.
  own(19, 1, 'heat', 'Heizkreis Allgemeinräume', undefined, {
    allocations: [
      { unitIdx: 19, share: '0.5' },
      { unitIdx: 20, share: '0.5' },
    ],
  });
  const plant = (j: number, metric: PointRec['metric'], loc: string) => {
    const key = propertySlot(0, j);
    pts.push(point(0, key, metric, loc, { devices: [device(seed, key, 0, metric, { installedAt: '2017-09-01' })] }));
  };
  plant(0, 'water_cold', 'Hauptwasserzähler Hausanschluss');
  plant(1, 'heat', 'Wärmemengenzähler Heizzentrale');
  for (const p of pts) if (p.devices.length) for (const d of p.devices) if (p.key % 2 === 1) d.rateMilli *= 20;
  return pts;
}
