// The one consumption formula of the sandbox: segments, baselines and billable values of a
// measuring point over an effective range. docs/sandbox-data.md explains the same rules in prose.
import { Decimal } from 'decimal.js';
import { miOf, monthEnd, type IsoDate } from './dates.js';
import type { DeviceRec, PointRec } from './model.js';
import { HORIZON_MI, type MonthValue, type Series, type SeriesStatus } from './series.js';

export type BaselineOriginName = 'recorded' | 'assumed_zero' | 'first_reading' | 'portal_rule' | 'month_end_before_range' | 'first_known_in_range' | 'none';

export interface Segment {
  device: DeviceRec;
  baselineMilli: number;
  baselineDate: IsoDate;
  baselineOrigin: BaselineOriginName;
  endMilli: number;
  /** Decimal string with at most 3 decimals. */
  billable: string;
  status: SeriesStatus;
  readings: MonthValue[];
}

export interface PointConsumptionModel {
  point: PointRec;
  dataGap: boolean;
  segments: Segment[];
}

/** billable = (end − baseline) × factor, rounded half-up to 3 decimals; 0 for calibration_expired or missing. */
export function billableValue(endMilli: number, baselineMilli: number, factor: string, status: SeriesStatus): string {
  if (status === 'calibration_expired' || status === 'missing') return '0';
  return new Decimal(endMilli - baselineMilli).div(1000).mul(factor).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toString();
}

/** weighted_billable_value = billable × unit_share, rounded half-up to 3 decimals. */
export function weightedValue(billable: string, share: string): string {
  return new Decimal(billable).mul(share).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toString();
}

const known = (v: MonthValue | undefined): v is MonthValue => v !== undefined && v.status !== 'missing';

/**
 * Consumption of a point over whole months [fromMi, toMi] (already widened and capped).
 * One segment per device whose installation window meets the range.
 */
export function pointConsumption(series: Series, point: PointRec, fromMi: number, toMi: number): PointConsumptionModel {
  if (point.isDifference) return { point, dataGap: false, segments: [] };
  const lastMi = Math.min(toMi, HORIZON_MI);
  const from = monthEnd(fromMi - 1);
  const segments: Segment[] = [];
  if (fromMi <= lastMi) {
    const to = monthEnd(lastMi);
    for (const d of point.devices) {
      if (d.anchor > to || (d.deinstalledAt !== null && d.deinstalledAt <= from)) continue;
      segments.push(segment(series, d, fromMi, lastMi));
    }
  }
  const covered = segments.some((s) => s.readings.some(known) || (s.device.deinstalledAt !== null && s.status !== 'missing'));
  if (!covered) for (const s of segments) s.readings = [];
  return { point, dataGap: !covered, segments };
}

function segment(series: Series, d: DeviceRec, fromMi: number, toMi: number): Segment {
  const readings = series.monthValues(d, fromMi, toMi);
  const beforeFrom = monthEnd(fromMi - 1);
  const base = baseline(series, d, fromMi, readings, beforeFrom);
  let endMilli: number;
  let status: SeriesStatus;
  const removedInRange = d.deinstalledAt !== null && d.deinstalledAt <= monthEnd(toMi);
  if (removedInRange) {
    endMilli = series.valueAt(d, d.deinstalledAt!);
    status = 'measured';
  } else {
    // Only the reading at the end of the range counts: nothing is carried forward.
    const last = readings[readings.length - 1];
    const atEnd = last && last.at === monthEnd(toMi) ? last : undefined;
    status = atEnd?.status ?? 'missing';
    endMilli = atEnd?.milli ?? 0;
  }
  if (base.origin === 'none') status = 'missing';
  if (status === 'missing') endMilli = 0;
  return {
    device: d,
    baselineMilli: base.milli,
    baselineDate: base.date,
    baselineOrigin: base.origin,
    endMilli,
    billable: billableValue(endMilli, base.milli, d.factor, status),
    status,
    readings,
  };
}

interface Baseline {
  milli: number;
  date: IsoDate;
  origin: BaselineOriginName;
}

function baseline(series: Series, d: DeviceRec, fromMi: number, readings: MonthValue[], beforeFrom: IsoDate): Baseline {
  const firstKnown = (): Baseline | undefined => {
    const r = readings.find(known);
    return r && { milli: r.milli, date: r.at, origin: 'first_known_in_range' };
  };
  const none: Baseline = { milli: 0, date: d.installedAt !== null && d.installedAt > beforeFrom ? d.installedAt : beforeFrom, origin: 'none' };
  if (d.installedAt !== null && d.installedAt > beforeFrom) {
    // Installed inside the range: consumption starts at the device's own start value.
    if (d.startKind === 'recorded') return { milli: d.startMilli, date: d.installedAt, origin: 'recorded' };
    if (d.startKind === 'assumed_zero') return { milli: 0, date: d.installedAt, origin: 'assumed_zero' };
    const f = firstKnown();
    return f ? { ...f, origin: 'first_reading' } : none;
  }
  const m0 = series.monthValue(d, fromMi - 1);
  if (known(m0)) return { milli: m0.milli, date: m0.at, origin: 'month_end_before_range' };
  if (d.installedAt === null) return firstKnown() ?? none;
  // Known installation before the range but no value at the month end before it: the portal
  // takes the last known month-end value before that.
  for (let m = fromMi - 2; m >= miOf(d.anchor); m--) {
    const v = series.monthValue(d, m);
    if (known(v)) return { milli: v.milli, date: v.at, origin: 'portal_rule' };
  }
  return firstKnown() ?? none;
}
