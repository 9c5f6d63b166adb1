// Answers whose shape the contract rules out. A point has one segment per continuous device
// installation window (DeviceSegment; range rule 6), so two windows never overlap and a
// device, which has one installed_at and one deinstalled_at, appears once; a segment has one
// reading per calendar month end (range rule 3), its value standing on the last (month-end.ts); a unit's answer names each of its points
// once, and every one of them is listed for the unit or the Property. Adding up what breaks
// this would bill a meter twice, or one the Property does not have: such a point is billed
// with none of its segments, and a not_billed finding says what is wrong.
import type { DeviceSegment, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../api/types.js';
import { monthEndBreak } from './month-end.js';
import { SHARE_TOLERANCE, receivedText } from './plausible.js';
import { BILLABLE_STATUSES, type FlagCode } from './types.js';

export const CONTRACT_BREAKS = [
  'SEGMENTS_OVERLAP',
  'DEVICE_REPEATED',
  'READING_REPEATED',
  'READING_OUTSIDE_WINDOW',
  'SEGMENT_OUTSIDE_RANGE',
  'POINT_REPEATED',
  'POINT_NOT_LISTED',
  'SHARE_NOT_AS_LISTED',
  'METRIC_NOT_AS_LISTED',
  'COPIES_DISAGREE',
  'DEVICE_AT_TWO_POINTS',
  'PLANT_POINT_ALLOCATED',
  'PLANT_POINT_IN_UNITS',
  'SHARE_SUM_ABOVE_ONE',
  'CONTRADICTORY_VALUES',
  'READINGS_MISSING',
  'END_VALUE_NOT_AS_READ',
  'DEVICE_NOT_AS_LISTED',
  'DIFFERENCE_NOT_AS_LISTED',
] as const satisfies readonly FlagCode[];
export type BreakCode = (typeof CONTRACT_BREAKS)[number];

/** One way an answer breaks the contract for one point: the flag it raises and what the message names. */
export interface ContractBreak {
  code: BreakCode;
  facts: Record<string, string>;
}

export function isContractBreak(code: FlagCode): boolean {
  return (CONTRACT_BREAKS as readonly FlagCode[]).includes(code);
}

/** Ids are UUIDs, which compare case-insensitively: an id in capitals is the same point or device. */
export const idKey = (id: string): string => id.toLowerCase();

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const FAR_FUTURE = '9999-12-31';

/**
 * The days a segment's device was certainly installed. Without installed_at (undocumented),
 * from baseline_date: baseline rule 1 makes it a day the device showed a value. Without
 * deinstalled_at, still installed. A window ending before it starts, or outside the range
 * (segments are windows "within the range"), places the device nowhere: it is taken as any
 * time, so it overlaps every other segment of the point (alone it is no double count).
 */
export function installationWindow(seg: DeviceSegment, range: { from: string; to: string } | undefined): { start: string; end: string } {
  const start = seg.installed_at ?? seg.baseline_date;
  const end = seg.deinstalled_at ?? FAR_FUTURE;
  const outside = range !== undefined && (start > range.to || end < range.from);
  return end < start || outside ? { start: '', end: FAR_FUTURE } : { start, end };
}

type Window = { start: string; end: string };
const sameWindow = (a: Window, b: Window): boolean => a.start === b.start && a.end === b.end;
/** Days in common beyond a handover day, or the same window (also a single day) twice. */
export const overlaps = (a: Window, b: Window): boolean => (a.start < b.end && b.start < a.end) || sameWindow(a, b);

/** How often each key occurs, for the keys that occur more than once (first occurrence order). */
function repeated<T>(items: readonly T[], key: (x: T) => string): Map<string, { first: T; count: number }> {
  const seen = new Map<string, { first: T; count: number }>();
  for (const x of items) {
    const k = key(x);
    const e = seen.get(k);
    if (e) e.count++;
    else seen.set(k, { first: x, count: 1 });
  }
  return new Map([...seen].filter(([, e]) => e.count > 1));
}

/**
 * What is wrong with a point's segments: values where the point says it has none, a device
 * twice, windows that overlap, a month end read twice, a reading outside its device's window. `range`: the answer's effective range, where known.
 */
export function segmentBreaks(c: MeasuringPointConsumption, range?: { from: string; to: string }): ContractBreak[] {
  const out: ContractBreak[] = [];
  // A difference meter has no segments and no values (range rule 6), a data_gap point no coverage at all:
  // a value to bill contradicts the answer's own word, and the finding those points get says nothing is billed.
  const valued = c.segments.find((s) => BILLABLE_STATUSES.includes(s.period_consumption.status));
  if ((c.is_difference_meter || c.data_gap === true) && valued) out.push({ code: 'CONTRADICTORY_VALUES', facts: { serial: valued.serial } });
  // In id order, so the findings do not depend on the order the service sent.
  const segments = [...c.segments].sort((a, b) => byText(idKey(a.device_id), idKey(b.device_id)) || byText(JSON.stringify(a), JSON.stringify(b)));
  for (const { first, count } of repeated(segments, (s) => idKey(s.device_id)).values()) {
    out.push({ code: 'DEVICE_REPEATED', facts: { serial: first.serial, copies: String(count) } });
  }
  // One segment per device from here: a repeated device is named above, not again as an overlap.
  const devices = [...new Map(segments.map((s) => [idKey(s.device_id), s])).values()];
  // By start, then end: a device installed and removed on one day comes before the one installed that day.
  const windows = devices.map((s) => ({ s, ...installationWindow(s, range) })).sort((a, b) => byText(a.start, b.start) || byText(a.end, b.end));
  // Sorted so, a window overlaps an earlier one exactly when it starts before the latest end so far, or
  // has the very window of the one before it (two devices installed and removed on one day have no
  // days apart: the same window twice). A device installed on the day its predecessor was removed is
  // a replacement, not an overlap.
  let latest: (typeof windows)[number] | null = null;
  let previous: (typeof windows)[number] | null = null;
  for (const w of windows) {
    const other = latest && w.start < latest.end ? latest : previous && sameWindow(previous, w) ? previous : null;
    if (other) {
      const overlapping = windows.filter((o) => o !== w && overlaps(o, w)).length + 1;
      // a device placed nowhere has no day from which both were installed
      const facts: Record<string, string> = { serial: other.s.serial, other_serial: w.s.serial };
      if (other.start !== '') facts.overlap_from = w.start;
      out.push({ code: 'SEGMENTS_OVERLAP', facts: { ...facts, segments: String(overlapping) } });
      break;
    }
    if (!latest || w.end > latest.end) latest = w;
    previous = w;
  }
  // Alone, a device placed nowhere is no double count, but its value is not this period's: removed before the
  // range, installed after it, or removed before it was installed. Beside another device the overlap names it.
  const nowhere = windows.find((w) => w.start === '');
  if (nowhere && !out.some((b) => b.code === 'SEGMENTS_OVERLAP')) {
    out.push({
      code: 'SEGMENT_OUTSIDE_RANGE',
      facts: { serial: nowhere.s.serial, installed_at: nowhere.s.installed_at ?? '', deinstalled_at: nowhere.s.deinstalled_at ?? '' },
    });
  }
  for (const seg of segments) {
    const twice = [...repeated(seg.readings, (r) => r.at).values()][0];
    if (twice) {
      out.push({ code: 'READING_REPEATED', facts: { serial: seg.serial, reading_date: twice.first.at, copies: String(twice.count) } });
      break;
    }
  }
  // A device is read only while installed: a reading before its installation day or after its removal day belongs
  // to another window, as in a replacement made up from a copy of the device (no window overlaps, each has the year).
  for (const seg of segments) {
    const outside = seg.readings.filter((r) => (seg.installed_at && r.at < seg.installed_at) || (seg.deinstalled_at && r.at > seg.deinstalled_at));
    if (outside.length > 0) {
      // the earliest, so the finding does not depend on the order the readings came in
      out.push({ code: 'READING_OUTSIDE_WINDOW', facts: { serial: seg.serial, reading_date: outside.map((r) => r.at).reduce((a, b) => (b < a ? b : a)) } });
      break;
    }
  }
  // The first segment whose value stands on no month-end reading, or on another than its end value; readings
  // twice or outside their window are no month-end series to judge, and are named above.
  const misread = out.some((b) => b.code === 'READING_REPEATED' || b.code === 'READING_OUTSIDE_WINDOW');
  const unread = range && !misread && segments.map((seg) => monthEndBreak(seg, installationWindow(seg, range), range)).find((b) => b !== null);
  if (unread) out.push(unread);
  return out;
}

/**
 * Per point of the Property's list (idKey): the units (idKey) it is listed for, each with its
 * share, from its allocations ("every unit with its share"; empty for a plant-room or main meter,
 * which "never appears under a unit") and its usage_unit_id (no share: the list names none).
 * An entry without allocations (the contract gives them for every point, but does not say the
 * field is required) names only its usage_unit_id; its other units are those whose own
 * measuring_points name the point (the key BY_OWN_SUMMARY), never any unit at all: a plant-room
 * meter (usage_unit_id null) without allocations is listed for none. Only an entry that gives
 * neither field says nothing about its units (the key BY_ANY_UNIT).
 * A unit the list gives two different shares has NaN, which no answer matches.
 */
export type ListedPoints = ReadonlyMap<string, ReadonlyMap<string, number | undefined>>;

/** Keys of a ListedPoints entry that are no unit (no idKey is empty or '*'): see ListedPoints. */
export const BY_OWN_SUMMARY = '';
export const BY_ANY_UNIT = '*';

/** Per point of the Property's list (idKey): its metric and unit, where the list gives them. */
export type ListedKinds = ReadonlyMap<string, { metric?: string | undefined; unit?: string | undefined }>;

export function listedKindsOf(
  points: readonly { id?: string | undefined; metric?: string | undefined; unit?: string | undefined }[],
): Map<string, { metric?: string | undefined; unit?: string | undefined }> {
  const out = new Map<string, { metric?: string | undefined; unit?: string | undefined }>();
  for (const p of points) if (typeof p.id === 'string' && !out.has(idKey(p.id))) out.set(idKey(p.id), { metric: p.metric, unit: p.unit });
  return out;
}

/**
 * A meter measures one thing: an answer giving it another metric or unit than the list (where the list
 * names them) is relabelled, and its kilowatt hours would be added to another row's cubic metres.
 */
export function kindBreak(
  answer: { metric: string; unit: string },
  listed: { metric?: string | undefined; unit?: string | undefined } | undefined,
): ContractBreak | null {
  const differs = listed && ((listed.metric !== undefined && listed.metric !== answer.metric) || (listed.unit !== undefined && listed.unit !== answer.unit));
  return differs
    ? { code: 'METRIC_NOT_AS_LISTED', facts: { received: `${answer.metric} (${answer.unit})`, listed: `${listed.metric ?? '?'} (${listed.unit ?? '?'})` } }
    : null;
}

/**
 * Whether a unit's answer may name a point: the Property's list names it for this unit, or (an
 * entry without allocations) the unit's own measuring_points do. A point the list gives to other
 * units only is not this unit's, whatever its share. A point the list lacks is nobody's: the
 * contract calls the Property's list complete, so no unit summary makes it billable.
 */
export function listedForUnit(unit: UsageUnit, listed: ListedPoints): (pointId: string) => boolean {
  const own = new Set((unit.measuring_points ?? []).map((p) => idKey(p.measuring_point_id)));
  const self = idKey(unit.id);
  return (pointId) => {
    const units = listed.get(idKey(pointId));
    return units === undefined ? false : units.has(self) || units.has(BY_ANY_UNIT) || (units.has(BY_OWN_SUMMARY) && own.has(idKey(pointId)));
  };
}

/**
 * What is wrong with the points of one unit's answer, by point (idKey): a point named more
 * than once, or one not listed for this unit (listedForUnit). `listed`: listedPointsOf the
 * Property's point list; without it the listing is not checked.
 */
export function unitPointBreaks(unit: UsageUnit, consumption: UnitConsumption, listed?: ListedPoints, kinds?: ListedKinds): Map<string, ContractBreak[]> {
  const out = new Map<string, ContractBreak[]>();
  const add = (id: string, b: ContractBreak) => out.set(id, [...(out.get(id) ?? []), b]);
  const points = consumption.measuring_points;
  for (const [id, { count }] of repeated(points, (p) => idKey(p.measuring_point_id))) add(id, { code: 'POINT_REPEATED', facts: { copies: String(count) } });
  for (const p of kinds ? points : []) {
    const id = idKey(p.measuring_point_id);
    const relabelled = kindBreak(p, kinds!.get(id));
    if (relabelled && !out.get(id)?.some((b) => b.code === 'METRIC_NOT_AS_LISTED')) add(id, relabelled);
  }
  if (listed) {
    const isListed = listedForUnit(unit, listed);
    for (const p of points) {
      const id = idKey(p.measuring_point_id);
      if (!isListed(id)) {
        if (!out.get(id)?.some((b) => b.code === 'POINT_NOT_LISTED')) add(id, { code: 'POINT_NOT_LISTED', facts: {} });
        continue;
      }
      // Both are this unit's share of the meter: shares swapped between units still add up to 1, and one of them is wrong.
      const listedShare = listed.get(id)?.get(idKey(unit.id));
      const share = p.unit_share ?? 1;
      const differs = listedShare !== undefined && !(Math.abs(share - listedShare) <= SHARE_TOLERANCE.toNumber());
      if (differs && !out.get(id)?.some((b) => b.code === 'SHARE_NOT_AS_LISTED'))
        add(id, { code: 'SHARE_NOT_AS_LISTED', facts: { unit_share: receivedText(share), listed_share: receivedText(listedShare) } });
    }
  }
  return out;
}

/**
 * Points the Property lists with `usage_unit_id` null and allocations to units (idKey → id).
 * The contract gives null only to a plant-room or main meter, whose allocations are empty
 * (MeasuringPoint; Property measuring points), and such a point never appears under a unit.
 * One listed both ways would be billed twice: read through /readings as a plant point (where
 * UNALLOCATED_POINT asks for an own allocation key) and in its units' answers at their shares.
 * It is billed nowhere.
 */
export function allocatedPlantPoints(
  points: readonly { id?: string; usage_unit_id?: string | null; allocations?: readonly unknown[] }[] | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of points ?? [])
    if (typeof p.id === 'string' && (p.usage_unit_id ?? null) === null && (p.allocations?.length ?? 0) > 0) out.set(idKey(p.id), p.id);
  return out;
}

/**
 * Plant points read through /readings whose list entry has neither `usage_unit_id` nor
 * `allocations` (only property_id is required) and that a unit's answer carries too (idKey → id).
 * Billing counts such an entry as listed for any unit: billed both ways it would count twice, so
 * it is billed nowhere. One no unit carries stays a plant-room meter.
 */
export function unplacedPlantPoints(
  points: readonly { id?: string; usage_unit_id?: string | null; allocations?: readonly unknown[] | null }[] | undefined,
  carried: ReadonlySet<string>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of points ?? [])
    if (typeof p.id === 'string' && p.usage_unit_id === undefined && !Array.isArray(p.allocations) && carried.has(idKey(p.id))) out.set(idKey(p.id), p.id);
  return out;
}
