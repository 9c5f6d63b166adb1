// Days between one device's removal and the next one's installation were measured by no device:
// the heat or water went on flowing while nothing counted it. Adding up the two devices' values
// bills the year as if it were whole (old device removed 31 March, next installed 1 October: 50
// billed for April to September unmeasured). For heating and warm water § 9a Abs. 1 HeizkostenV
// asks the building owner to determine consumption not properly recorded for a billing period
// (from the rooms' consumption in comparable periods, comparable rooms, or the building's
// average); the monthly information calls such months `device_gap` (src/uvi/point-months.ts). Pure.
import type { DeviceSegment } from '../api/types.js';
import { installationWindow } from './contract.js';

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
