// One measuring point's consumption per calendar month, from consecutive month-end
// readings. Each device segment counts from its own start value (baseline_value at
// installation, the month end before otherwise) to its own end (removal value or month
// end), times its factor; the point's month is the sum over the segments that cover it,
// times the unit's share. Nothing is carried across a gap: a month needs both its
// readings, so the month after a missing one is missing too. Pure.
import type { DeviceSegment, MeasuringPointConsumption } from '../api/types.js';
import { dec, sum, type Decimal } from '../billing/decimal.js';
import { BILLABLE_STATUSES, sortSegments } from '../billing/point.js';
import { idKey } from '../billing/contract.js';
import { representable, shareProblem } from '../billing/plausible.js';
import { contradicted, isEstimate, startEstimated } from './contradicted.js';
import { mayRestart } from '../billing/register.js';
import { addMonths, monthEnd, type Month } from './months.js';
import { seriesOnly } from './series.js';
import type { MissingReason, PointMonth, PointMonths } from './types.js';

/** A value a month starts or ends with (or a segment's part of the month), or why there is none. */
type Entry<T = number> = { value: T; estimated: boolean } | { reason: MissingReason };

const isValue = <T>(e: Entry<T>): e is { value: T; estimated: boolean } => 'value' in e;

/** The days a segment measured: from its installation (else its start value's date) to its removal, or open. */
export function windowOf(seg: DeviceSegment): { start: string; end: string | null } {
  return { start: seg.installed_at ?? seg.baseline_date, end: seg.deinstalled_at };
}

function judged(value: number, status: string, synthetic: boolean): Entry {
  if (status === 'calibration_expired') return { reason: 'calibration_expired' };
  if (status === 'missing') return { reason: 'missing' };
  if (!BILLABLE_STATUSES.includes(status)) return { reason: 'unknown_status' };
  if (typeof value !== 'number' || !representable(value) || value < 0) return { reason: 'implausible_value' };
  return { value, estimated: isEstimate(status, synthetic) };
}

/** The segment's reading at a month end; two different readings at one date are no reading. */
function readingAt(seg: DeviceSegment, date: string, restarts: boolean): Entry {
  const found = seg.readings.filter((r) => r.at === date);
  if (found.length === 0) return { reason: 'no_reading' };
  const first = found[0]!;
  const same = found.every((r) => Object.is(r.value, first.value) && r.status === first.status);
  if (!same) return { reason: 'duplicate_reading' };
  const e = judged(
    first.value,
    first.status,
    found.some((r) => r.is_synthetic),
  );
  // both months resting on an estimate the device's own counts rule out (contradicted.ts) are unknown
  return isValue(e) && e.estimated && contradicted(seg, date, e.value, restarts) ? { reason: 'estimate_contradicted' } : e;
}

function startValue(seg: DeviceSegment): Entry {
  if (seg.baseline_origin === 'none') return { reason: 'no_start_value' };
  return judged(seg.baseline_value, 'measured', startEstimated(seg));
}

/**
 * The value a segment starts the month with (`from`: the month end before it). `handover`: the point's
 * previous device was removed on the day this one's window starts, or the day before.
 */
function firstValue(seg: DeviceSegment, from: string, handover: boolean, restarts: boolean): Entry {
  const { start } = windowOf(seg);
  // Installed during the month: its own start value, unless that is dated after the
  // installation (a first reading), which says nothing of the days before it. A first known
  // value inside the month of a device whose installation nobody documented (baseline rule 1)
  // is no installation: the device may have counted since before it, so the month-end reading
  // the month starts from is what is missing, not a part month to be shown as a whole one.
  // Unless the previous device measured the days before it (removed that day or the day before).
  if (start > from && seg.installed_at === null && !handover) return { reason: 'no_reading' };
  if (start > from) return seg.baseline_date > start ? { reason: 'no_start_value' } : startValue(seg);
  return seg.baseline_date === from ? startValue(seg) : readingAt(seg, from, restarts);
}

/** What one segment that covers the month contributes: (end − start) × factor. */
function segmentMonth(seg: DeviceSegment, month: Month, handover: boolean, restarts: boolean): Entry<Decimal> {
  const from = monthEnd(addMonths(month, -1));
  const to = monthEnd(month);
  const { end } = windowOf(seg);
  const first = firstValue(seg, from, handover, restarts);
  // Removed during the month: the value on the removal day, with the segment's own status.
  const last = end !== null && end <= to ? judged(seg.period_consumption.end_value, seg.period_consumption.status, false) : readingAt(seg, to, restarts);
  if (!isValue(first)) return first;
  if (!isValue(last)) return last;
  if (!Number.isFinite(seg.factor) || seg.factor <= 0 || !representable(seg.factor)) return { reason: 'implausible_value' };
  if (last.value < first.value) return { reason: 'negative' };
  return { value: dec(last.value).minus(first.value).times(seg.factor), estimated: first.estimated || last.estimated };
}

/** Whether the segment measured some day of the month after `from` (the month end before) up to `to`. */
export function covers(seg: DeviceSegment, from: string, to: string): boolean {
  const { start, end } = windowOf(seg);
  return start < to && (end === null || end > from);
}

/**
 * Two segments claiming the same days, as billing judges it (segmentBreaks, SEGMENTS_OVERLAP): days in
 * common beyond a handover day, or the very same window twice (also a device installed and removed on
 * one day beside another such one). Sorted by start, then end, a window overlaps an earlier one exactly
 * when it starts before the latest end so far or repeats the window before it: O(n log n), where
 * comparing every pair blocked the event loop for seconds at 16,000 segments.
 */
export function overlapping(segs: readonly DeviceSegment[]): boolean {
  const end = (w: { end: string | null }) => w.end ?? FAR_FUTURE;
  const windows = segs.map(windowOf).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : end(a) < end(b) ? -1 : end(a) > end(b) ? 1 : 0));
  let latest: string | null = null;
  let previous: { start: string; end: string | null } | null = null;
  for (const w of windows) {
    if ((latest !== null && w.start < latest) || (previous && previous.start === w.start && end(previous) === end(w))) return true;
    if (latest === null || end(w) > latest) latest = end(w);
    previous = w;
  }
  return false;
}

export function missingMonth(month: Month, ...reasons: MissingReason[]): PointMonth {
  return { month, value: null, estimated: false, reasons: [...new Set(reasons)].sort() };
}

/**
 * A month no segment covers. Before the point's first installation no device was there to measure:
 * `no_device`, which a Property's sums count as 0 (sumMonths). After its last removal the same only
 * where the Property's list confirms it (`removed`: no active device); a list still showing a device
 * leaves the months unknown (`removal_unconfirmed`), as between a removal and the next installation
 * the heat or water went on flowing unmeasured (`device_gap`). A device of unknown installation first
 * known later may well have been there: its reading is what is missing.
 */
function uncovered(segments: readonly DeviceSegment[], month: Month, from: string, to: string, removed: boolean): PointMonth {
  if (segments.some((s) => s.installed_at === null && s.baseline_date >= to)) return missingMonth(month, 'no_reading');
  const before = segments.some((s) => {
    const { end } = windowOf(s);
    return end !== null && end <= from;
  });
  const after = segments.some((s) => windowOf(s).start >= to);
  if (before && after) return missingMonth(month, 'device_gap');
  return missingMonth(month, before && !removed ? 'removal_unconfirmed' : 'no_device');
}

const FAR_FUTURE = '9999-12-31';

const nextDay = (date: string, n: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The days strictly between one device's removal and the next one's installation (segments sorted
 * by start): unmeasured, though the point was in use. A device removed and its successor installed
 * on the same or the next day leaves no such days. Found once per point, not once per month.
 */
export function gapsOf(segments: readonly DeviceSegment[]): { first: string; last: string }[] {
  const out: { first: string; last: string }[] = [];
  // The latest removal so far (null: a device still installed), not the previous window's: across several
  // plant points a meter removed for good while another still measures leaves no day unmeasured.
  let reach: string | null | undefined;
  for (const seg of segments) {
    const w = windowOf(seg);
    if (reach === null) break;
    if (reach !== undefined) {
      const first = nextDay(reach, 1);
      const last = nextDay(w.start, -1);
      if (first <= last) out.push({ first, last });
    }
    if (reach === undefined || w.end === null || w.end > reach) reach = w.end;
  }
  return out;
}

/**
 * Whether another device of the point was removed on the day a segment's window starts or the day
 * before: it measured the days up to the handover. Found once per point, not once per month.
 */
function handoversOf(segments: readonly DeviceSegment[]): (s: DeviceSegment) => boolean {
  const endingAt = new Map<string, DeviceSegment[]>();
  for (const p of segments) {
    const { end } = windowOf(p);
    if (end === null) continue;
    for (const day of [end, nextDay(end, 1)]) {
      const list = endingAt.get(day);
      if (list) list.push(p);
      else endingAt.set(day, [p]);
    }
  }
  return (s) => (endingAt.get(windowOf(s).start) ?? []).some((p) => p !== s);
}

function pointMonth(
  segments: readonly DeviceSegment[],
  gaps: readonly { first: string; last: string }[],
  handedOver: (s: DeviceSegment) => boolean,
  month: Month,
  share: Decimal,
  removed: boolean,
  restarts: boolean,
): PointMonth {
  const from = monthEnd(addMonths(month, -1));
  const to = monthEnd(month);
  const covering = segments.filter((s) => covers(s, from, to));
  if (covering.length === 0) return uncovered(segments, month, from, to, removed);
  if (overlapping(covering)) return missingMonth(month, 'overlapping_segments');
  if (gaps.some((g) => g.first <= to && g.last > from)) return missingMonth(month, 'device_gap');
  const parts = covering.map((s) => segmentMonth(s, month, handedOver(s), restarts));
  const failed = parts.filter((p) => !isValue(p)).map((p) => (p as { reason: MissingReason }).reason);
  if (failed.length > 0) return missingMonth(month, ...failed);
  const values = parts as { value: Decimal; estimated: boolean }[];
  return {
    month,
    value: sum(values.map((v) => v.value)).times(share),
    estimated: values.some((v) => v.estimated),
    reasons: [],
  };
}

/**
 * The point's months. unitShare: the unit's share from the unit consumption endpoint
 * (default 1), or null for a plant-room point from the readings endpoint.
 */
export function pointMonths(c: MeasuringPointConsumption, months: readonly Month[], unitShare: number | null, removed = false): PointMonths {
  const base = { measuring_point_id: c.measuring_point_id, metric: c.metric, unit: c.unit };
  if (unitShare !== null && shareProblem(unitShare)) return { ...base, months: months.map((m) => missingMonth(m, 'implausible_share')) };
  if (c.is_difference_meter && c.segments.length === 0) return { ...base, months: months.map((m) => missingMonth(m, 'difference_meter')) };
  // No coverage at all (range rule: never silent omission) is no answer, not a point without a device, unless the
  // Property's list says its device was removed without replacement (removedPoints): then none was there to measure.
  // As in billing (pointFlags' DATA_GAP), no segments is no coverage whatever `data_gap` says.
  if (c.segments.length === 0) return { ...base, months: months.map((m) => missingMonth(m, removed ? 'no_device' : 'no_reading')) };
  // A device removed before it was installed: where it was and was not cannot be told, so no month is "not installed" (0).
  if (c.segments.some((seg) => (windowOf(seg).end ?? '9999-12-31') < windowOf(seg).start))
    return { ...base, months: months.map((m) => missingMonth(m, 'implausible_value')) };
  const share = unitShare === null ? dec(1) : dec(unitShare);
  const segments = sortSegments(seriesOnly(c.segments, months));
  const gaps = gapsOf(segments);
  const handedOver = handoversOf(segments);
  return { ...base, months: months.map((m) => pointMonth(segments, gaps, handedOver, m, share, removed, mayRestart(c.metric))) };
}

/**
 * The months of each distinct point of an answer. Ids compare as billing compares them (idKey: an
 * id in capitals is the same point). The same point twice counts once where both copies are the
 * same, and not at all where they differ (which copy is right cannot be told). `refused`: a point
 * billing does not bill (uviVerdict) has no month at all (`not_billed`), never 0.
 */
export function distinctPointMonths(
  points: readonly MeasuringPointConsumption[],
  months: readonly Month[],
  share: (p: MeasuringPointConsumption) => number | null,
  refused: (pointId: string) => boolean = () => false,
  removed: ReadonlySet<string> = new Set(),
): PointMonths[] {
  const byId = new Map<string, MeasuringPointConsumption[]>();
  for (const p of points) byId.set(idKey(p.measuring_point_id), [...(byId.get(idKey(p.measuring_point_id)) ?? []), p]);
  return [...byId.values()].map((copies) => {
    const first = copies[0]!;
    const base = { measuring_point_id: first.measuring_point_id, metric: first.metric, unit: first.unit };
    if (copies.some((c) => refused(c.measuring_point_id))) return { ...base, months: months.map((m) => missingMonth(m, 'not_billed')) };
    const content = (c: MeasuringPointConsumption) => JSON.stringify({ ...c, measuring_point_id: idKey(c.measuring_point_id) });
    const same = copies.every((c) => content(c) === content(first));
    if (same) return pointMonths(first, months, share(first), removed.has(idKey(first.measuring_point_id)));
    return { ...base, months: months.map((m) => missingMonth(m, 'duplicate_point')) };
  });
}

/** A month before the point's first device or after its last: nothing was there to measure (not a gap, not a missing reading). */
export function notInstalled(m: PointMonth): boolean {
  return m.value === null && m.reasons.length === 1 && m.reasons[0] === 'no_device';
}

/**
 * The sum of several points' months (a unit's meters, the Property's units or plant meters).
 * A point with no device yet or any more measured nothing and adds 0 (§ 6a, § 9 HeizkostenV
 * share what was measured: a flat not built yet used no heat); any other missing month makes
 * the sum missing, with its reasons. Where no point had a device the sum is `no_device` too.
 */
export function sumMonths(points: readonly PointMonths[], months: readonly Month[]): PointMonth[] {
  return months.map((month, i) => {
    const all = points.map((p) => p.months[i]!);
    const these = all.filter((p) => !notInstalled(p));
    if (these.length === 0) return missingMonth(month, 'no_device');
    const gone = these.filter((p) => p.value === null);
    if (gone.length > 0) return missingMonth(month, ...gone.flatMap((p) => p.reasons));
    return { month, value: sum(these.map((p) => p.value!)), estimated: these.some((p) => p.estimated), reasons: [] };
  });
}

/** a − b − c per month; a missing operand gives its reason (one with no device yet subtracts 0), a negative result `negative`. */
export function minus(a: PointMonth[], subtract: (PointMonth[] | null)[], negative: MissingReason, reasonOf: MissingReason[]): PointMonth[] {
  return a.map((m, i) => {
    if (m.value === null) return missingMonth(m.month, reasonOf[0]!);
    let value = m.value;
    let estimated = m.estimated;
    for (const [k, s] of subtract.entries()) {
      const sm = s?.[i];
      // No unit had a heat meter yet: they took nothing from the plant's heat.
      if (!sm || notInstalled(sm)) continue;
      // the operand's own reasons too: "warm-water heat missing" alone would hide that its meter was above the bound
      if (sm.value === null) return missingMonth(m.month, reasonOf[k + 1]!, ...sm.reasons);
      value = value.minus(sm.value);
      estimated ||= sm.estimated;
    }
    return value.isNegative() ? missingMonth(m.month, negative) : { month: m.month, value, estimated, reasons: [] };
  });
}
