// The Property's heating heat for its allocators: the plant-room heat meter less the warm-water
// heat less the units' own heat meters (docs/uvi.md, "How each kWh figure is found"). Pure.
import type { MeasuringPointConsumption } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import { sortSegments } from '../billing/point.js';
import { addMonths, monthEnd, type Month } from './months.js';
import { covers, distinctPointMonths, gapsOf, minus, missingMonth, notInstalled, overlapping, sumMonths } from './point-months.js';
import type { MissingReason, PointMonth, PointMonths } from './types.js';

/** Whether a plant point is refused by billing, and the points the Property's list shows removed (idKey). */
export interface PlantUse {
  refused: (unitId: string | null, pointId: string) => boolean;
  removed: ReadonlySet<string>;
}

function plantPointMonths(points: readonly MeasuringPointConsumption[], months: readonly Month[], use: PlantUse): PointMonths[] {
  return distinctPointMonths(
    points,
    months,
    () => null,
    (id) => use.refused(null, id),
    use.removed,
  );
}

/**
 * Why the meters of several plant points cannot be summed in a month, judged from their installation
 * windows as a replacement inside one point is (point-months.ts): windows sharing days beyond a handover
 * day are meters measuring side by side (`plant_heat_meters_several`); one removed and another installed
 * on the same or the next day is a replacement, summed; days between a removal and the next installation
 * went unmeasured (`device_gap`). Each point's first copy: a copy differing makes the sum missing anyway.
 */
function windowsClash(points: readonly MeasuringPointConsumption[], month: Month): 'plant_heat_meters_several' | 'device_gap' | null {
  const firsts = new Map<string, MeasuringPointConsumption>();
  for (const p of points) if (!firsts.has(idKey(p.measuring_point_id))) firsts.set(idKey(p.measuring_point_id), p);
  const segments = sortSegments([...firsts.values()].flatMap((p) => p.segments));
  const from = monthEnd(addMonths(month, -1));
  const to = monthEnd(month);
  if (overlapping(segments.filter((s) => covers(s, from, to)))) return 'plant_heat_meters_several';
  return gapsOf(segments).some((g) => g.first <= to && g.last > from) ? 'device_gap' : null;
}

/**
 * The plant heat meters' (or warm-water heat meters') months. Two or more that measured on the same days
 * cannot be added up: the contract does not say whether one measures behind another (a warm-water heat meter
 * whose name was not recognised, a sub-meter of one wing or of the circulation) or beside it (two boiler
 * circuits), and summed, a sub-meter's heat counts twice. Such a month is missing (`plant_heat_meters_several`),
 * never a sum; one meter replacing another at another point, also within a month, is no such case.
 */
export function plantHeatMonths(
  points: readonly MeasuringPointConsumption[],
  months: readonly Month[],
  use: PlantUse,
): { months: PointMonth[] | null; several: boolean } {
  if (points.length === 0) return { months: null, several: false };
  const each = plantPointMonths(points, months, use);
  const sum = sumMonths(each, months);
  let several = false;
  const out = sum.map((m, i) => {
    if (each.filter((p) => !notInstalled(p.months[i]!)).length < 2) return m;
    const clash = windowsClash(points, m.month);
    if (clash === 'plant_heat_meters_several') several = true;
    return clash === null ? m : missingMonth(m.month, clash);
  });
  return { months: out, several };
}

/**
 * Why the heat left for heating fell below 0, in what the letter can truly say: the warm-water heat alone
 * exceeding the plant heat, the units' own heat meters alone, or only the two together (or each alone).
 */
function negativeReason(plant: PointMonth, warmWater: PointMonth | undefined, unitHeat: PointMonth | undefined): MissingReason {
  const exceeds = (m: PointMonth | undefined) => plant.value !== null && m?.value != null && m.value.greaterThan(plant.value);
  if (exceeds(warmWater) && !exceeds(unitHeat)) return 'heating_heat_negative';
  if (exceeds(unitHeat) && !exceeds(warmWater)) return 'heating_heat_negative_unit_heat';
  return 'heating_heat_negative_both';
}

/** Plant heat less warm-water heat less the units' heat meters, per month; a month of several plant meters stays missing for that reason. */
export function heatingHeatMonths(plantHeat: PointMonth[], warmWater: PointMonth[] | null, unitHeat: PointMonth[] | null): PointMonth[] {
  const left = minus(plantHeat, [warmWater, unitHeat], 'heating_heat_negative', ['plant_heat_missing', 'warm_water_heat_missing', 'unit_heat_incomplete']);
  return left.map((m, i) => {
    if (plantHeat[i]!.reasons.includes('plant_heat_meters_several')) return plantHeat[i]!;
    return m.reasons.length === 1 && m.reasons[0] === 'heating_heat_negative'
      ? missingMonth(m.month, negativeReason(plantHeat[i]!, warmWater?.[i], unitHeat?.[i]))
      : m;
  });
}
