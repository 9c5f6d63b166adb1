// Which of a Property's points without a unit feed the conversion. The contract has no
// field saying a plant-room heat meter measures warm water only, so its localization is
// read ("Wärmezähler Warmwasser", "WMZ TWW", "WMZ Speicherladung": plant-names.ts); docs/uvi.md says so. Pure.
import type { MeasuringPoint, MeasuringPointConsumption } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import { dec, type Decimal } from '../billing/decimal.js';
import { WW_TEMPERATURE_MAX } from './inputs/month.js';
import type { Month } from './months.js';
import type { PlantPoints } from './property.js';
import { KWH_PER_M3_WARM_WATER } from './bounds.js';
import { missingMonth } from './point-months.js';
import { readPlantName } from './plant-names.js';
import type { Finding, PointMonth } from './types.js';
import type { PlantMeterEntry } from './inputs/plant-meters.js';

/** A plant heat meter's name that mentions warm water but was not read as the warm-water heat meter. */
export interface UnclearPlantName {
  measuring_point_id: string;
  localization: string;
}

/** A line of --plant-meters whose point the Property has not as a heat meter without a unit: its names are read instead. */
export interface UnlistedPlantMeter {
  measuring_point_id: string;
  role: string;
  line: string;
}

type Points = readonly { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];

/**
 * The points without a unit by what they measure, and the names that mention warm water yet were read as
 * the plant's heat meter. `listed` (--plant-meters, this Property's lines): the landlord's word instead of
 * the names, when every listed point is one of its plant heat meters; else the lines it lacks, and the names.
 */
export function classifyPlant(points: Points, listed?: readonly PlantMeterEntry[]): PlantPoints {
  const heatIds = new Set(
    points.filter((p) => p.point.usage_unit_id == null && p.consumption.metric === 'heat').map((p) => idKey(p.consumption.measuring_point_id)),
  );
  const unlisted = (listed ?? []).filter((e) => !heatIds.has(idKey(e.measuring_point_id)));
  const warmWater =
    listed && unlisted.length === 0 ? new Set(listed.filter((e) => e.role === 'warm_water_heat').map((e) => idKey(e.measuring_point_id))) : null;
  const out = sortPlant(points, (id, name) => (warmWater ? (warmWater.has(id) ? 'warm_water' : 'plant') : readPlantName(name)));
  if (unlisted.length > 0) out.unlisted = unlisted.map((e) => ({ measuring_point_id: e.measuring_point_id, role: e.role, line: String(e.line) }));
  return out;
}

function sortPlant(points: Points, read: (id: string, name: string) => ReturnType<typeof readPlantName>): PlantPoints {
  const out: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [], unclearNames: [], names: {} };
  for (const { point, consumption } of points) {
    if (point.usage_unit_id != null) continue;
    const name = point.localization ?? '';
    if (consumption.metric === 'water_warm') {
      out.warmWaterVolume.push(consumption);
      (out.names as Record<string, string>)[idKey(consumption.measuring_point_id)] = name;
    }
    if (consumption.metric !== 'heat') continue;
    const as = read(idKey(consumption.measuring_point_id), name);
    const unclear = as === 'unclear';
    (as === 'warm_water' ? out.warmWaterHeat : out.heat).push(consumption);
    (out.names as Record<string, string>)[idKey(consumption.measuring_point_id)] = name;
    if (unclear) out.unclearNames!.push({ measuring_point_id: consumption.measuring_point_id, localization: name });
  }
  return out;
}

/** How many of these plant meters there are, and up to five of their names (else ids), for review.csv: JSON. */
export function plantMeterNames(points: readonly MeasuringPointConsumption[], plant: PlantPoints): string {
  const ids = [...new Set(points.map((c) => idKey(c.measuring_point_id)))];
  return JSON.stringify({ count: ids.length, names: ids.slice(0, 5).map((id) => plant.names?.[id] || id) });
}

/** § 9 Abs. 2 Satz 2 HeizkostenV's factor, kWh/(m³·K). */
const FACTOR_9_2 = 2.5;
/**
 * The most heat a m³ of warm water can carry by § 9 Abs. 2's formula at the widest temperatures one
 * can defend: t_w at the highest mean --ww-temperature accepts (80 °C, above the 70 °C of a thermal
 * disinfection) and cold water at 0 °C instead of the formula's 10 °C (water colder than that is ice):
 * 2.5 kWh/(m³·K) × 80 K = 200 kWh/m³. The 2.5 already holds storage and circulation losses (heating
 * water alone takes 1.163). A warm-water heat meter above it measures more than warm water.
 */
export const WW_MAX_KWH_PER_M3 = dec(FACTOR_9_2 * WW_TEMPERATURE_MAX);

/**
 * The warm-water heat per m³ over the 13 months (the months with both figures), where it lies above
 * WW_MAX_KWH_PER_M3; null where it does not or cannot be judged. Over the months, not per month: in a
 * month of little tapping the circulation's losses alone may pass the bound.
 */
export function implausibleWarmWaterHeat(heat: readonly PointMonth[], volume: readonly PointMonth[]): { from: Month; to: Month; kwhPerM3: Decimal } | null {
  const both = heat.flatMap((h, i) => {
    const v = volume[i]?.value;
    return h.value !== null && v != null ? [{ month: h.month, kwh: h.value, m3: v }] : [];
  });
  const m3 = both.reduce((a, b) => a.plus(b.m3), dec(0));
  if (both.length === 0 || !m3.greaterThan(0)) return null;
  const perM3 = both.reduce((a, b) => a.plus(b.kwh), dec(0)).div(m3);
  return perM3.greaterThan(WW_MAX_KWH_PER_M3) ? { from: both[0]!.month, to: both.at(-1)!.month, kwhPerM3: perM3 } : null;
}

/** A uvi finding review.csv shows, not an error code (src/core/codes.ts). */
const IMPLAUSIBLE: Finding['code'] = 'WARM_WATER_HEAT_IMPLAUSIBLE';

/** The warm-water heat meter's months, or null (§ 9 Abs. 2 then, with a finding) where it gives more kWh per m³ than warm water can carry. */
export function plausibleWarmWaterMeter(propertyId: string, meter: PointMonth[] | null, volume: PointMonth[] | null, findings: Finding[]): PointMonth[] | null {
  const bad = meter && volume ? implausibleWarmWaterHeat(meter, volume) : null;
  if (!bad) return meter;
  const facts = { from: bad.from, to: bad.to, kwh_per_m3: bad.kwhPerM3.toFixed(1), max: WW_MAX_KWH_PER_M3.toFixed(0) };
  findings.push({ code: IMPLAUSIBLE, property_id: propertyId, usage_unit_id: null, service: 'HOT_WATER', facts });
  return null;
}

/**
 * The warm-water heat meter's months as the heating heat may subtract them. A month above the bound of
 * KWH_PER_M3_WARM_WATER per m³ of the Property's warm water is no warm-water heat, and a month with heat but no
 * known volume (missing, or 0 in the whole Property) cannot be checked against it: subtracted, either would move
 * heat between heating and warm water unseen, so such a month is missing for both.
 */
export function judgedWarmWaterMonths(meter: readonly PointMonth[], volume: readonly PointMonth[] | null): PointMonth[] {
  return meter.map((m, i) => {
    if (m.value === null || m.value.isZero()) return m;
    const v = volume?.[i]?.value;
    if (v == null || !v.greaterThan(0)) return missingMonth(m.month, 'warm_water_heat_unjudged');
    return m.value.div(v).greaterThan(KWH_PER_M3_WARM_WATER) ? missingMonth(m.month, 'warm_water_heat_above_bound') : m;
  });
}
