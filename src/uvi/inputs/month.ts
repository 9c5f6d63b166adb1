// --month and --ww-temperature of the monthly consumption information, checked before any
// request: each bad value is one line naming the flag (UsageError, exit 2). Pure: `now` is
// the caller's clock, as the export's range is capped by it.
import { lastCompletedMonthEnd } from '../../api/answers.js';
import { UsageError } from '../../core/errors.js';
import type { Month } from '../months.js';
import { inputTexts as t } from './texts-inputs.js';

/**
 * The first month a letter is owed for: § 6a Abs. 1 Nr. 2 HeizkostenV asks for the information
 * monthly from 1 January 2022 (docs/uvi.md names the sources read). The contract names no earliest data.
 */
export const FIRST_MONTH: Month = '2022-01';
/** § 9 Abs. 2 HeizkostenV takes t_w as "die gemessene oder geschätzte mittlere Temperatur des Warmwassers", naming no value or bounds; 60 °C is the usual one. */
export const WW_TEMPERATURE_DEFAULT = 60;
/** Below 40 °C no central hot water is kept; above 80 °C no mean is (thermal disinfection runs in bursts). A typo like 6 or 600 falls outside. */
export const WW_TEMPERATURE_MIN = 40;
export const WW_TEMPERATURE_MAX = 80;

/** The last completed month at `now` (UTC), the default of --month. */
export function lastCompletedMonth(now: Date): Month {
  return lastCompletedMonthEnd(now).slice(0, 7);
}

/** --month yyyy-mm, a month that has ended and falls under § 6a; without the flag the last completed month. */
export function parseMonth(value: string | undefined, now: Date): Month {
  const last = lastCompletedMonth(now);
  if (value === undefined) return last;
  const m = /^(\d{4})-(\d{2})$/.exec(value);
  if (!m) throw new UsageError(t.notAMonth({ value: value.slice(0, 40) }), t.monthHint, 'UVI_MONTH_INVALID');
  if (Number(m[2]) < 1 || Number(m[2]) > 12) throw new UsageError(t.noSuchMonth({ value, month: m[2]! }), t.monthHint, 'UVI_MONTH_INVALID');
  if (value > last) throw new UsageError(t.notEnded({ value, last }), t.notEndedHint({ last }), 'UVI_MONTH_INVALID');
  if (value < FIRST_MONTH) throw new UsageError(t.beforeDuty({ value, first: FIRST_MONTH }), t.beforeDutyHint({ first: FIRST_MONTH }), 'UVI_MONTH_INVALID');
  return value;
}

/** --ww-temperature in °C (a decimal comma or point allowed), within the bounds above; 60 without the flag. */
export function parseWwTemperature(value: string | undefined): number {
  if (value === undefined) return WW_TEMPERATURE_DEFAULT;
  const hint = t.temperatureHint({ min: WW_TEMPERATURE_MIN, max: WW_TEMPERATURE_MAX });
  const m = /^(-?\d{1,4})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!m) throw new UsageError(t.notATemperature({ value: value.slice(0, 40) }), hint, 'UVI_WW_TEMPERATURE_INVALID');
  const celsius = Number(`${m[1]}.${m[2] ?? '0'}`);
  if (celsius < WW_TEMPERATURE_MIN || celsius > WW_TEMPERATURE_MAX) {
    throw new UsageError(t.temperatureOutside({ value, min: WW_TEMPERATURE_MIN, max: WW_TEMPERATURE_MAX }), hint, 'UVI_WW_TEMPERATURE_INVALID');
  }
  return celsius;
}
