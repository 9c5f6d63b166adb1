// The Property's own average per m² of a unit type, which the letter may show beside the
// average user, labelled as the building's and never in its place (§ 6a Abs. 2 Nr. 3 asks
// for a normed user, not the neighbours). Pure.
import type { UsageUnit } from '../api/types.js';
import { ZERO, dec, type Decimal } from '../billing/decimal.js';
import type { Month } from './months.js';
import type { Service, UnitUvi } from './types.js';

export interface OwnAverage {
  month: Month;
  /** kWh per m²: the sum of the units' kWh over the sum of their areas; null where no unit counts. */
  kwh_per_m2: Decimal | null;
  /** How many units it rests on (a letter should not show an average of one or two neighbours). */
  units: number;
}

/**
 * Per month the average kWh per m² over the Property's units of `unitType` that have a kWh
 * figure and an area for the service; units without either are left out, not counted as 0.
 */
export function ownAverage(
  units: readonly { unit: UsageUnit; uvi: UnitUvi }[],
  unitType: string,
  service: Extract<Service, 'HEATING' | 'HOT_WATER'>,
  months: readonly Month[],
): OwnAverage[] {
  return months.map((month) => {
    let kwh = ZERO;
    let area = ZERO;
    let n = 0;
    for (const { unit, uvi } of units) {
      if (unit.unit_type !== unitType) continue;
      const a = service === 'HEATING' ? unit.area_heated_m2 : unit.area_ww_m2;
      const m = uvi.services.find((s) => s.service === service)?.months.find((x) => x.month === month);
      if (!m || m.kwh === null || typeof a !== 'number' || !Number.isFinite(a) || a <= 0) continue;
      kwh = kwh.plus(m.kwh);
      area = area.plus(dec(a));
      n++;
    }
    return { month, kwh_per_m2: n === 0 ? null : kwh.div(area), units: n };
  });
}
