// Calibration periods (Eichfristen) of German meters: a device's period ends on 31 December
// of the year of installation plus the period (MessEG § 37, MessEV § 34 with Anlage 7). docs/export.md
// has the table with its sources.
import { makeFlag } from '../billing/flags.js';
import type { Flag } from '../billing/types.js';
import type { DeviceFact } from './types.js';

/** Years per metric; a metric not listed (hca: heat cost allocators) is not subject to calibration. */
export const CALIBRATION_YEARS: Readonly<Record<string, number>> = {
  water_cold: 6, // MessEV Anlage 7: Kaltwasserzähler 6 Jahre
  water_outdoor: 6, // a cold-water meter for garden water
  water_warm: 5, // MessEV Anlage 7: Warmwasserzähler 5 Jahre
  heat: 5, // MessEV Anlage 7: Wärmezähler 5 Jahre
  gas: 8, // MessEV Anlage 7: Balgengaszähler 8 Jahre
  electricity: 8, // MessEV Anlage 7: elektronische Elektrizitätszähler 8 Jahre
};

const DATE = /^(\d{4})-\d{2}-\d{2}$/;

/** Last day the device is calibrated ("yyyy-12-31"); null when the metric has no period or the date is not a date. */
export function calibrationEnd(metric: string, installedAt: string): string | null {
  const years = CALIBRATION_YEARS[metric];
  const m = DATE.exec(installedAt);
  if (years === undefined || !m) return null;
  return `${Number(m[1]) + years}-12-31`;
}

export type CalibrationVerdict = { kind: 'ended' | 'ends_soon'; end: string } | { kind: 'unknown' } | null;

/**
 * `ended` when the period ran out before the range's end while the device was still
 * installed; `ends_soon` for a device installed at the range's end whose period ends then
 * or within the following year; `unknown` without an installation date.
 */
export function calibrationVerdict(device: Pick<DeviceFact, 'metric' | 'installed_at' | 'deinstalled_at'>, range: { to: string }): CalibrationVerdict {
  if (CALIBRATION_YEARS[device.metric] === undefined) return null;
  if (device.installed_at === null) return { kind: 'unknown' };
  const end = calibrationEnd(device.metric, device.installed_at);
  if (end === null) return { kind: 'unknown' };
  const until = device.deinstalled_at !== null && device.deinstalled_at < range.to ? device.deinstalled_at : range.to;
  if (end < until) return { kind: 'ended', end };
  const stillInstalled = device.deinstalled_at === null || device.deinstalled_at >= range.to;
  const nextYearEnd = `${Number(range.to.slice(0, 4)) + 1}-12-31`;
  return stillInstalled && end <= nextYearEnd ? { kind: 'ends_soon', end } : null;
}

/** One finding per device (devices are deduplicated by id; the first occurrence wins). */
export function calibrationFlags(devices: readonly DeviceFact[], range: { to: string }): Flag[] {
  const seen = new Set<string>();
  const out: Flag[] = [];
  for (const d of devices) {
    if (seen.has(d.device_id)) continue;
    seen.add(d.device_id);
    const v = calibrationVerdict(d, range);
    if (v === null) continue;
    const scope = { property_id: d.property_id, usage_unit_id: d.usage_unit_id, measuring_point_id: d.measuring_point_id, device_id: d.device_id };
    const serial = d.serial ?? '';
    if (v.kind === 'unknown') out.push(makeFlag('CALIBRATION_DATE_UNKNOWN', scope, { serial }));
    else out.push(makeFlag(v.kind === 'ended' ? 'CALIBRATION_ENDED' : 'CALIBRATION_ENDS_SOON', scope, { serial, installed_at: d.installed_at ?? '', calibration_end: v.end }));
  }
  return out;
}
