// Days between one device's removal and the next one's installation were measured by no device:
// the heat or water went on flowing while nothing counted it. Adding up the two devices' values
// bills the year as if it were whole (old device removed 31 March, next installed 1 October: 50
// billed for April to September unmeasured). For heating and warm water § 9a Abs. 1 HeizkostenV
// asks the building owner to determine consumption not properly recorded for a billing period
// (from the rooms' consumption in comparable periods, comparable rooms, or the building's
// average); the monthly information calls such months `device_gap` (src/uvi/point-months.ts). Pure.
import type { DeviceSegment } from '../api/types.js';
import { installationWindow } from './contract.js';
import { makeFlag, type FlagScope } from './flags.js';
import type { Flag } from './types.js';

/** The day n days on, or null for a text that is no date (the contract checks name it; it must not throw here). */
const nextDay = (date: string, n: number): string | null => {
  const t = Date.parse(`${date}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && Number.isFinite(t) ? new Date(t + n * 86_400_000).toISOString().slice(0, 10) : null;
};

/**
 * Per stretch no device measured inside the range: the device removed before it and the first and
 * last day unmeasured. The next device starts on its installation day, or where that is not
 * documented on baseline_date (baseline rule 1: a day it showed a value). A successor installed on
 * the removal day or the day after leaves no such day. segments: sorted by start (sortSegments).
 */
export function deviceGaps(segments: readonly DeviceSegment[], range: { from: string; to: string }): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (let i = 1; i < segments.length; i++) {
    const removed = segments[i - 1]!.deinstalled_at;
    const next = installationWindow(segments[i]!, range).start;
    if (removed === null || next === '') continue;
    const [after, before] = [nextDay(removed, 1), nextDay(next, -1)];
    if (after === null || before === null) continue;
    const first = after > range.from ? after : range.from;
    const last = before < range.to ? before : range.to;
    if (first <= last) out.push({ serial: segments[i - 1]!.serial, gap_from: first, gap_to: last });
  }
  return out;
}

/**
 * Per device whose start value (baseline_value at baseline_date) was taken after it began to count, the
 * days inside the range that stand in no device's figure: the device measures from baseline_date, so
 * whatever flowed from its installation day (or the day after its predecessor's removal, or the range's
 * start) up to the day before was measured by nobody (a first reading months after the installation).
 * A start value on the installation day, or on or before the range start for a device installed before
 * it (month_end_before_range), leaves no day. A successor without installed_at starts where DEVICE_GAP
 * ends (at baseline_date): nothing more here. A point's first device without installed_at and a start
 * value inside the range (baseline rule 1, first_known_in_range) may have counted since before it: its
 * days from the range start are named too, as a review that may be unnecessary rather than days silently
 * missing. segments: sorted by start (sortSegments).
 */
export function startValueGaps(segments: readonly DeviceSegment[], range: { from: string; to: string }): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  segments.forEach((seg, i) => {
    const removed = i > 0 ? segments[i - 1]!.deinstalled_at : null;
    if (seg.installed_at === null && i > 0) return;
    const before = nextDay(seg.baseline_date, -1);
    const afterRemoval = removed === null ? null : nextDay(removed, 1);
    if (before === null || (removed !== null && afterRemoval === null)) return;
    const first = [range.from, seg.installed_at ?? '', afterRemoval ?? ''].reduce((a, b) => (b > a ? b : a));
    const last = [range.to, seg.deinstalled_at ?? range.to].reduce((a, b) => (b < a ? b : a), before);
    if (first <= last) out.push({ serial: seg.serial, baseline_date: seg.baseline_date, gap_from: first, gap_to: last });
  });
  return out;
}

/** The days no device measured inside the range: between two devices, and before a device's late start value (gaps.ts). */
export function unmeasured(
  segments: readonly DeviceSegment[],
  range: { from: string; to: string } | undefined,
  scope: FlagScope,
  metric: string | undefined,
): Flag[] {
  if (!range?.from || !range.to) return [];
  const withMetric = (g: Record<string, string>) => (metric ? { ...g, point_metric: metric } : g);
  const between = deviceGaps(segments, range).map((g) => makeFlag('DEVICE_GAP', scope, withMetric(g)));
  const late = startValueGaps(segments, range).map((g) => makeFlag('START_VALUE_LATE', scope, withMetric(g)));
  return [...between, ...late];
}
