// The uvi over a Property's answers as the uvi step runs it: billing's verdict on the same
// answers (billProperty → uviVerdict), the meters the Property lists but a unit's answer lacks
// (absentPoints) and the removed ones (removedPoints). Shared by the tests that build such answers.
import type { DeviceSegment, MeasuringPoint, MeasuringPointConsumption } from '../../src/api/types.js';
import { billProperty } from '../../src/billing/index.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { propertyUvi } from '../../src/uvi/property.js';
import type { Service } from '../../src/uvi/types.js';
import { absentPoints, removedPoints } from '../../src/uvi/absent.js';
import { uviReviewRows } from '../../src/uvi/portal/index.js';
import { shownFinding, uviVerdict } from '../../src/uvi/verdict.js';
import { PROPERTY, aPlantPoint, aUnitEntry, pointListOf } from './builders.js';
import { MONTHS, cumulative, n, point, series } from './uvi-fixtures.js';

export const RANGE13 = { from: '2024-11-01', to: '2025-11-30' };
export type Entry = ReturnType<typeof aUnitEntry>;
export type Plant = ReturnType<typeof aPlantPoint>;
export const flat = (v: number) => Array<number>(13).fill(v);

export function metered(metric: string, monthly: number[], share = 1, more: Partial<MeasuringPointConsumption> = {}, start = 1000): MeasuringPointConsumption {
  return point(metric, [series(start, cumulative(start, monthly))], share, more);
}

export function unit(name: string, points: MeasuringPointConsumption[]): Entry {
  const e = aUnitEntry(name, points);
  return { unit: e.unit, consumption: { ...e.consumption, ...RANGE13 } };
}

export function plantHeat(id: string, monthly: number[], localization = 'Heizzentrale'): Plant {
  const c = metered('heat', monthly, 1, { measuring_point_id: id }, 5000);
  const { unit_share: _none, ...consumption } = c;
  return aPlantPoint({ point: { id, metric: 'heat', unit: 'kWh', localization }, consumption });
}

/** A plant-room heat meter of the given segments; `active: false` where the list shows its device removed. */
export function plantPoint(id: string, localization: string, segments: DeviceSegment[], active = true): Plant {
  const { unit_share: _none, ...consumption } = point('heat', segments, 1, { measuring_point_id: id });
  return aPlantPoint({ point: { id, metric: 'heat', unit: 'kWh', localization, ...(active ? {} : { active_device: null }) }, consumption });
}

/** Billing and the uvi over the same answers, as the uvi step runs them. */
export function run(units: Entry[], plant: Plant[] = [], points: MeasuringPoint[] = pointListOf({ property: PROPERTY, units, plant })) {
  const bill = billProperty({ property: PROPERTY, range: RANGE13, units, plantPoints: plant, points });
  const r = propertyUvi({
    property_id: PROPERTY.id,
    months: MONTHS,
    units,
    plant: classifyPlant(plant),
    benchmark: DEFAULT_BENCHMARK,
    refused: uviVerdict(bill).refused,
    absent: absentPoints(points, units),
    removed: removedPoints(points),
  });
  return { bill, r };
}

export type Run = ReturnType<typeof run>;
/** The letter's month (November 2025) of one unit's service. */
export function nov({ r }: Run, i: number, s: Service) {
  const m = r.units[i]!.services.find((x) => x.service === s)!.months[12]!;
  return { kwh: n(m.kwh), reasons: m.reasons };
}
export const codes = ({ bill }: Run) => bill.flags.map((f) => f.code);

/** run(), and the uvi's review.csv rows over it: its own findings, then billing's it shows (shownFinding), as the uvi step builds them. */
export function reviewed(units: Entry[], plant: Plant[] = []) {
  const { bill, r } = run(units, plant);
  const portal = { property: PROPERTY, month: '2025-11', units: r.units.map((uvi, i) => ({ unit: units[i]!.unit, erpRef: null, uvi })), findings: r.findings };
  return { bill, r, review: (lang: 'en' | 'de') => uviReviewRows(portal, lang, bill.flags.filter(shownFinding)) };
}
