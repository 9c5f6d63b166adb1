// Rule (device): calibration periods (Eichfristen) of German meters, the one table of them. MessEV Anlage 7 as amended by the Third Ordinance amending
// the MessEV (BGBl. 2021 I Nr. 76, S. 4742, in force since 3 November 2021, also for meters
// already installed): cold water, warm water and heat meters 6 years (warm water and heat
// were 5 before). § 34 Abs. 2 MessEV: a period of a year or more ends on 31 December of the
// year in which it ends by the count. Sources checked (eichamt.sachsen.de "Neue Eichfristen
// bei Verbrauchsmessgeräten", buzer.de synopsis of the MessEV of 03.11.2021, anwalt24.de
// § 34 MessEV) are listed in docs/export.md "Calibration periods".
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration, Flag } from '../../billing/types.js';
import type { PlausibilityRule } from '../rule.js';
import type { DeviceFact } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = { CALIBRATION_ENDED: 'review', CALIBRATION_ENDS_SOON: 'info', CALIBRATION_DATE_UNKNOWN: 'info' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

/** Years per metric; a metric not listed (hca: heat cost allocators) is not subject to calibration. */
export const CALIBRATION_YEARS: Readonly<Record<string, number>> = {
  water_cold: 6, // Anlage 7: Kaltwasserzähler 6 Jahre
  water_outdoor: 6, // a cold-water meter for garden water
  water_warm: 6, // Anlage 7 since 03.11.2021: Warmwasserzähler 6 Jahre (before: 5)
  heat: 6, // Anlage 7 since 03.11.2021: Wärmezähler (also cooling) 6 Jahre (before: 5)
  gas: 8, // Anlage 7: Balgengaszähler up to 10 m³/h 8 Jahre
  // Electronic meters 8 years, Ferraris (induction) meters 16: the API does not say which,
  // so the shorter period is used; a Ferraris meter is then asked about 8 years early.
  electricity: 8,
};

const DATE = /^(\d{4})-\d{2}-\d{2}$/;

/**
 * Last day the device is calibrated ("yyyy-12-31") when it was calibrated in its installation
 * year: the API does not give the calibration year, so this is an estimate. null when the
 * metric has no period or the date is not a date.
 */
export function calibrationEnd(metric: string, installedAt: string): string | null {
  const years = CALIBRATION_YEARS[metric];
  const m = DATE.exec(installedAt);
  if (years === undefined || !m) return null;
  return `${Number(m[1]) + years}-12-31`;
}

export type CalibrationVerdict = { kind: 'ended' | 'ends_soon'; end: string } | { kind: 'unknown' } | null;

/**
 * `ended` when the estimated period ran out before the range's last day while the device was
 * still installed; `ends_soon` for a device installed at the range's end whose period ends on
 * that day or within the following year (it was calibrated for the whole range); `unknown`
 * without an installation date.
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

/**
 * One finding per device (devices are deduplicated by id; the first occurrence wins). A device
 * whose values the service marked `calibration_expired` gets none: billing's not-billed
 * CALIBRATION_EXPIRED says it, and an estimate beside it could only contradict it. Nor does a
 * device none of whose values was billed get CALIBRATION_ENDED: its not-billed finding stands,
 * and "billed as delivered", which the finding says, would be untrue.
 */
export function calibrationFlags(devices: readonly DeviceFact[], range: { to: string }): Flag[] {
  const marked = new Set(devices.filter((d) => d.expired_marked === true).map((d) => d.device_id));
  const billed = new Set(devices.filter((d) => d.nothing_billed !== true).map((d) => d.device_id));
  const seen = new Set<string>();
  const out: Flag[] = [];
  for (const d of devices) {
    if (seen.has(d.device_id) || marked.has(d.device_id)) continue;
    seen.add(d.device_id);
    const v = calibrationVerdict(d, range);
    if (v === null || (v.kind === 'ended' && !billed.has(d.device_id))) continue;
    const scope = { property_id: d.property_id, usage_unit_id: d.usage_unit_id, measuring_point_id: d.measuring_point_id, device_id: d.device_id };
    const serial = d.serial ?? '';
    if (v.kind === 'unknown') out.push(makeFlag('CALIBRATION_DATE_UNKNOWN', scope, { serial }));
    else {
      const facts = { serial, installed_at: d.installed_at ?? '', calibration_years: String(CALIBRATION_YEARS[d.metric]), calibration_end: v.end };
      out.push(makeFlag(v.kind === 'ended' ? 'CALIBRATION_ENDED' : 'CALIBRATION_ENDS_SOON', scope, facts));
    }
  }
  return out;
}

export const calibrationRule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'device',
  check(ctx) {
    return {
      findings: calibrationFlags(ctx.devices, ctx.opts.range).map((flag) => {
        const dev = ctx.devices.find((d) => d.device_id === flag.device_id)!;
        // Every unit a shared point bills the device to: the first unit's row, and the others'
        // rows too, with their names in the finding, since each of their bills rests on it.
        const units = [
          dev.usage_unit_id,
          ...ctx.devices.filter((d) => d.device_id === dev.device_id).flatMap((d) => [d.usage_unit_id, ...(d.shared_with ?? [])]),
        ];
        const unitIds = [...new Set(units)];
        // The device's billed rows: a unit's row for the metric, or the plant point's own.
        const point = dev.usage_unit_id === null ? dev.measuring_point_id : null;
        const marks = unitIds.flatMap((unit) => {
          const key = ctx.keys.find((k) => {
            const f = ctx.current.get(k);
            return f !== undefined && f.measuring_point_id === point && f.usage_unit_id === unit && f.metric === dev.metric;
          });
          return key === undefined ? [] : [key];
        });
        const others = unitIds.slice(1).map((u) => [...ctx.current.values()].find((f) => f.usage_unit_id === u)?.usage_unit_name ?? u!);
        const shared = others.length > 0 ? { ...flag, facts: { ...flag.facts, other_units: others.join(', ') } } : flag;
        return { code: flag.code, flag: shared, marks };
      }),
    };
  },
};
