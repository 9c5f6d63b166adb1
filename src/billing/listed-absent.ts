// What the Property's lists show that the answers leave out: a meter listed for a unit that
// the unit's consumption answer does not carry, a unit the point list allocates meters to that
// the unit list lacks (or fewer units listed than usage_unit_count says), and a meter's active
// device with no segment although it was installed by the end of the period (a replacement's new
// device left out). Billed as sent, each would make the unit's or the Property's figure silently
// smaller: nothing the answer lacks is billed as if it were whole. Pure.
import { METRICS, isKnown, type Device, type MeasuringPoint, type MeasuringPointConsumption, type UnitConsumption, type UsageUnit } from '../api/types.js';
import { ZERO } from './decimal.js';
import { idKey, listedForUnit, type ListedKinds, type ListedPoints } from './contract.js';
import { makeFlag, type FlagScope } from './flags.js';
import { ofListedWindow } from './listed-facts.js';
import { sortSegments, type PointBill } from './point.js';
import type { Flag } from './types.js';

/**
 * The Property's lists as this file reads them, made once per Property: per unit (idKey) the points
 * (idKey → id as listed) the list gives it, and per point (idKey) its active device.
 */
export interface ListedAbsent {
  byUnit: ReadonlyMap<string, ReadonlyMap<string, string>>;
  devices: ReadonlyMap<string, Device>;
  /** Per point (idKey): whether the list calls it a difference meter, where it says (listed-facts.ts). */
  difference: ReadonlyMap<string, boolean>;
  /** Whether the run asked for a metric (--metric): a meter of another one is rightly not in the answers. */
  wanted: (metric: string | undefined) => boolean;
}

/**
 * `metrics`: the metrics the answers were asked for; empty or none: all. A meter of a metric the contract does not
 * list is not asked for: billing cannot bill it, and the export names its list entry (UNKNOWN_ENUM_VALUE).
 */
export function listedAbsentOf(points: readonly MeasuringPoint[], metrics: readonly string[] = []): ListedAbsent {
  const known = (m: string | undefined) => m === undefined || isKnown(METRICS, m);
  const wanted = (m: string | undefined) => known(m) && (metrics.length === 0 || (m !== undefined && metrics.includes(m)));
  const byUnit = new Map<string, Map<string, string>>();
  for (const p of points) {
    // a plant-room or main meter with allocations is billed nowhere and named at the Property (PLANT_POINT_ALLOCATED)
    if (typeof p.id !== 'string' || p.usage_unit_id === null || !wanted(p.metric)) continue;
    for (const u of entryUnits(p)) {
      const own = byUnit.get(u) ?? new Map<string, string>();
      if (!own.has(idKey(p.id))) own.set(idKey(p.id), p.id);
      byUnit.set(u, own);
    }
  }
  const difference = new Map<string, boolean>();
  for (const p of points)
    if (typeof p.id === 'string' && typeof p.is_difference_meter === 'boolean' && !difference.has(idKey(p.id)))
      difference.set(idKey(p.id), p.is_difference_meter);
  return { byUnit, devices: listedDevicesOf(points), difference, wanted };
}

/** The units a list entry names: each of its allocations and its usage_unit_id (idKey). */
function entryUnits(p: Pick<MeasuringPoint, 'usage_unit_id' | 'allocations'>): string[] {
  const allocated = Array.isArray(p.allocations) ? p.allocations.map((a) => a?.usage_unit_id).filter((u): u is string => typeof u === 'string') : [];
  return [...allocated, ...(typeof p.usage_unit_id === 'string' ? [p.usage_unit_id] : [])].map(idKey);
}

/**
 * The unit's points the answer does not carry, as bills of nothing (0, not counted in the row's
 * points) with a not_billed finding: each point the Property's list gives the unit (allocations,
 * usage_unit_id), and each its own measuring_points name unless the list gives it to others only
 * (listedForUnit). Without the Property's list nothing is checked, as for POINT_NOT_LISTED.
 */
export function pointsNotSent(
  unit: UsageUnit,
  consumption: UnitConsumption,
  lists: { absent: ListedAbsent | undefined; listed: ListedPoints | undefined; kinds: ListedKinds | undefined },
  scope: FlagScope,
): PointBill[] {
  const { absent, listed, kinds } = lists;
  if (!absent || !listed) return [];
  const carried = new Set(consumption.measuring_points.map((p) => idKey(p.measuring_point_id)));
  const isListed = listedForUnit(unit, listed);
  const own = new Map((unit.measuring_points ?? []).map((s) => [idKey(s.measuring_point_id), s]));
  const wanted = new Map(absent.byUnit.get(idKey(unit.id)) ?? []);
  for (const [key, s] of own) {
    const metric = kinds?.get(key)?.metric ?? s.metric;
    // One the list lacks is not billed where sent (POINT_NOT_LISTED), but the unit still says it has that meter.
    const mine = isListed(s.measuring_point_id) || !listed.has(key);
    if (mine && absent.wanted(metric) && !wanted.has(key)) wanted.set(key, s.measuring_point_id);
  }
  const out: PointBill[] = [];
  for (const [key, id] of wanted) {
    if (carried.has(key)) continue;
    const metric = kinds?.get(key)?.metric ?? own.get(key)?.metric ?? '';
    const unitOfMeasure = kinds?.get(key)?.unit ?? own.get(key)?.unit ?? '';
    const flag = makeFlag('LISTED_POINT_NOT_SENT', { ...scope, measuring_point_id: id }, metric ? { metric } : {});
    out.push({ measuring_point_id: id, metric, unit: unitOfMeasure, is_system_linked: true, billed: ZERO, segments: [], readings: [], flags: [flag] });
  }
  return out.sort((a, b) => (a.measuring_point_id < b.measuring_point_id ? -1 : a.measuring_point_id > b.measuring_point_id ? 1 : 0));
}

/** Per point of the Property's list (idKey): its active device, where the list shows one (null: removed, or a difference meter). */
function listedDevicesOf(points: readonly MeasuringPoint[]): Map<string, Device> {
  const out = new Map<string, Device>();
  for (const p of points) {
    const d = p.active_device;
    if (typeof p.id === 'string' && d && typeof d === 'object' && (typeof d.id === 'string' || typeof d.serial === 'string') && !out.has(idKey(p.id)))
      out.set(idKey(p.id), d);
  }
  return out;
}

/**
 * The listed active device's facts where the point's answer has no segment of its current window (ofListedWindow)
 * although it was installed by the period's end: the period's value is then short of that device.
 * An undocumented installation day (installed_at null) counts as within the period unless the answer dates
 * another device's removal on or after the period's end (then the listed one came after it), or shows its last
 * device removed within the period without replacement (DeviceRemoval) with none after it (the point was empty
 * until the period's end as the answer says, and the fitting is after the period). Another device the answer shows
 * still installed (deinstalled_at null) contradicts the list, which shows the listed one installed now: nothing in
 * the answer says when it replaced the other, so the figure is not billed.
 * A difference meter or a point without coverage (data_gap) bills nothing and is not judged here.
 */
export function deviceNotSent(c: MeasuringPointConsumption, device: Device | undefined, range: { to: string }): Record<string, string> | null {
  if (!device || c.is_difference_meter || c.data_gap === true || !range.to) return null;
  if (c.segments.some((s) => ofListedWindow(s, device))) return null;
  if (typeof device.installed_at === 'string') {
    if (device.installed_at > range.to) return null;
  } else if (c.segments.some((s) => typeof s.deinstalled_at === 'string' && s.deinstalled_at >= range.to)) return null;
  else if (removedForGood(c.segments)) return null;
  return { serial: String(device.serial ?? device.id), installed_at: device.installed_at ?? '' };
}

/** Whether the answer's last segment was removed within the period for good (DeviceRemoval) and none follows it. */
function removedForGood(segments: MeasuringPointConsumption['segments']): boolean {
  const last = sortSegments(segments).at(-1);
  return last !== undefined && typeof last.deinstalled_at === 'string' && last.replacement_reason === 'DeviceRemoval';
}

/**
 * Units the point list allocates meters to (or names as a point's unit) that the unit list lacks,
 * one finding each at the Property (usage_unit_id null: no sheet knows the unit; its id is a fact), and one more where usage_unit_count says there are more units
 * than listed (the count is taken "at query time", so a unit added meanwhile shows here too).
 */
export function unitsNotListed(
  property: { id: string; usage_unit_count?: number | null | undefined },
  units: readonly { unit: Pick<UsageUnit, 'id'> }[],
  points: readonly MeasuringPoint[] | undefined,
): Flag[] {
  const scope: FlagScope = { property_id: property.id, usage_unit_id: null, measuring_point_id: null, device_id: null };
  const known = new Set(units.map((u) => idKey(u.unit.id)));
  const missing = new Map<string, { id: string; points: number }>();
  for (const p of points ?? []) {
    const ids = [...(Array.isArray(p.allocations) ? p.allocations.map((a) => a?.usage_unit_id) : []), p.usage_unit_id];
    for (const id of new Set(ids.filter((u): u is string => typeof u === 'string'))) {
      if (known.has(idKey(id))) continue;
      const m = missing.get(idKey(id)) ?? { id, points: 0 };
      missing.set(idKey(id), { ...m, points: m.points + 1 });
    }
  }
  const flags = [...missing.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((m) => makeFlag('UNIT_NOT_IN_LIST', scope, { unit_id: m.id, points: String(m.points) }));
  const count = property.usage_unit_count;
  if (typeof count === 'number' && Number.isInteger(count) && count > units.length)
    flags.push(makeFlag('UNITS_FEWER_THAN_COUNT', scope, { units_listed: String(units.length), unit_count: String(count) }));
  return flags;
}
