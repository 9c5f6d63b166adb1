// Month-end values of a device, computed on demand from (seed, device key): the data set never
// stores readings. Values are integer milli-units so that sums stay exact.
import { calendarMonth, daysIn, dayOf, miOf, monthEnd, type IsoDate } from './dates.js';
import type { DeviceRec, KnownMetricName } from './model.js';
import { rand } from './prng.js';

/** Last month end with data in the sandbox ("static up to 2026-12-31"). */
export const HORIZON: IsoDate = '2026-12-31';
export const HORIZON_MI = miOf(HORIZON);

export type SeriesStatus = 'measured' | 'calculated' | 'missing' | 'calibration_expired';

export interface MonthValue {
  at: IsoDate;
  /** Milli-units; 0 when the status is missing. */
  milli: number;
  status: SeriesStatus;
  isSynthetic: boolean;
  substitutionMethod: 'degree_day_weighted' | 'linear_interpolation' | null;
}

// Share of the yearly consumption per calendar month (heating follows the season).
const HEATING = [1.8, 1.6, 1.3, 0.9, 0.5, 0.2, 0.15, 0.15, 0.4, 0.9, 1.4, 1.7];
const FLAT = [1, 0.95, 1, 1, 1.05, 1.1, 1.15, 1.1, 1, 1, 0.95, 1];
const OUTDOOR = [0.1, 0.1, 0.3, 0.8, 1.6, 2.2, 2.6, 2.4, 1.3, 0.4, 0.1, 0.1];

function season(metric: KnownMetricName, m: number): number {
  const c = calendarMonth(m) - 1;
  const table = metric === 'heat' || metric === 'hca' ? HEATING : metric === 'water_outdoor' ? OUTDOOR : FLAT;
  return table[c] ?? 1;
}

export class Series {
  constructor(private readonly seed: string) {}

  /** Consumption of one whole calendar month, milli-units. */
  increment(d: DeviceRec, m: number): number {
    const rate = d.rateChange && m >= d.rateChange.from ? d.rateMilli * d.rateChange.factor : d.rateMilli;
    const r = rand(this.seed, 'inc', d.key, m);
    const seasonal = Math.round(rate * season(d.metric, m) * (d.noise === undefined ? 0.75 + 0.5 * r : 1 - d.noise + 2 * d.noise * r));
    return d.baseMilli === undefined ? seasonal : seasonal + Math.round(d.baseMilli * (0.95 + 0.1 * rand(this.seed, 'base', d.key, m)));
  }

  /** Cumulative value on day `date` (>= anchor), milli-units; consumption within a month is linear. */
  valueAt(d: DeviceRec, date: IsoDate): number {
    const a = miOf(d.anchor);
    const t = miOf(date);
    if (t === a) return d.startMilli + Math.floor((this.increment(d, a) * (dayOf(date) - dayOf(d.anchor))) / daysIn(a));
    let v = d.startMilli + Math.floor((this.increment(d, a) * (daysIn(a) - dayOf(d.anchor))) / daysIn(a));
    for (let m = a + 1; m < t; m++) v += this.increment(d, m);
    return v + Math.floor((this.increment(d, t) * dayOf(date)) / daysIn(t));
  }

  /** Whether the device has a month-end value slot at month m (installed, not removed, within the horizon). */
  covers(d: DeviceRec, m: number): boolean {
    const e = monthEnd(m);
    return e >= d.anchor && (d.deinstalledAt === null || e <= d.deinstalledAt) && m <= HORIZON_MI;
  }

  /** Month-end values for months [from, to] the device covers, in order. */
  monthValues(d: DeviceRec, from: number, to: number): MonthValue[] {
    const out: MonthValue[] = [];
    const first = Math.max(from, miOf(d.anchor));
    if (first > to) return out;
    let v = this.valueAt(d, monthEnd(first));
    for (let m = first; m <= to; m++) {
      if (m > first) v += this.increment(d, m);
      if (!this.covers(d, m)) continue;
      out.push(this.classify(d, m, v));
    }
    return out;
  }

  /** One month end, or undefined when the device has no slot then. */
  monthValue(d: DeviceRec, m: number): MonthValue | undefined {
    return this.covers(d, m) ? this.monthValues(d, m, m)[0] : undefined;
  }

  private classify(d: DeviceRec, m: number, milli: number): MonthValue {
    const at = monthEnd(m);
    const status = this.statusAt(d, m);
    if (status === 'missing') return { at, milli: 0, status, isSynthetic: false, substitutionMethod: null };
    if (status === 'calculated') {
      const method = d.metric === 'heat' || d.metric === 'hca' ? 'degree_day_weighted' : 'linear_interpolation';
      return { at, milli, status, isSynthetic: true, substitutionMethod: method };
    }
    if (status === 'calibration_expired') {
      // Every other expired month end was interpolated by the platform; no method is named then.
      return { at, milli, status, isSynthetic: m % 2 === 1, substitutionMethod: null };
    }
    return { at, milli, status, isSynthetic: false, substitutionMethod: null };
  }

  private statusAt(d: DeviceRec, m: number): SeriesStatus {
    if (d.gap && m >= d.gap[0] && m <= d.gap[1]) return 'missing';
    if (d.calibrationFrom !== undefined && m >= d.calibrationFrom) return 'calibration_expired';
    const o = d.overrides?.[m];
    if (o) return o;
    if (d.anomalies) {
      const r = rand(this.seed, 'status', d.key, m);
      if (r < 0.02) return 'calculated';
      if (r < 0.025) return 'missing';
    }
    return 'measured';
  }
}
