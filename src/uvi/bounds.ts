// Plausibility bounds for the monthly information's kWh figures (docs/uvi.md, "Plausibility
// bounds"). A figure above them is a typo or a wrong factor (a heat meter's factor of 10⁶), not
// a consumption: it goes on no letter and into no uvi.csv amount; the month is missing with
// `above_bound`, and review.csv says so. The bounds are far above any dwelling, so that a real
// consumption never meets them. Pure.
import { dec, type Decimal } from '../billing/decimal.js';
import { DEFAULT_BENCHMARK, HEATING_PER_MILLE } from './benchmark.js';
import { COLD_WATER_C, WW_FACTOR } from './ww-formula.js';
import type { Service, ServiceMonth } from './types.js';

/** How many times the average user of the default table a month may reach. */
export const BOUND_FACTOR = 20;

/** A usage unit larger than this is a typo (72,500 m² for a flat): no comparison with the average user, and the bounds of this area. */
export const AREA_LIMIT_M2 = 10_000;
/** Nor is one below a square metre a unit's area: per m² of it any real figure would look absurd. */
export const AREA_MIN_M2 = 1;

const yearly = (service: 'HEATING' | 'HOT_WATER') =>
  DEFAULT_BENCHMARK.rows.find((r) => r.unit_type === 'residential' && r.service === service)!.kwh_per_m2_year;

/**
 * kWh per m² and month: BOUND_FACTOR × the default table's residential average user (DIW Wärmemonitor
 * 118 kWh/m²·a heating, Heizspiegel 24 kWh/m²·a warm water) in the month with the largest share of
 * the year (January's 170 ‰ of the degree days, VDI 2067; 31 of 365 days). Heating 401.2, hot water about 40.8.
 */
export const KWH_PER_M2_MONTH: Record<'HEATING' | 'HOT_WATER', Decimal> = {
  HEATING: dec(yearly('HEATING'))
    .times(BOUND_FACTOR)
    .times(HEATING_PER_MILLE.reduce((a, b) => (a.greaterThan(b) ? a : b)).div(1000)),
  HOT_WATER: dec(yearly('HOT_WATER')).times(BOUND_FACTOR).times(31).div(365),
};

/**
 * kWh per m³ of warm water: § 9 Abs. 2 Satz 2–3 HeizkostenV's 2.5 kWh/(m³·K) (storage and
 * circulation losses included) for water heated from 10 °C to 100 °C, doubled as a margin: 450.
 */
export const KWH_PER_M3_WARM_WATER = WW_FACTOR.times(100 - COLD_WATER_C).times(2);

/** The unit's area where it can be believed, else null (no area, or one outside AREA_MIN_M2 … AREA_LIMIT_M2). */
export function usableArea(area: number | null | undefined): number | null {
  return typeof area === 'number' && area >= AREA_MIN_M2 && area <= AREA_LIMIT_M2 ? area : null;
}

/** An area given but outside what a usage unit can have (not a missing one, which is NO_FLOOR_AREA). */
export function implausibleArea(area: number | null | undefined): boolean {
  return typeof area === 'number' && !(area <= 0) && usableArea(area) === null;
}

/**
 * A month whose kWh lie above the bounds: per m² of the unit's area (AREA_LIMIT_M2 where it has
 * none that can be believed), and for hot water per m³ of its warm water. Such a month loses its
 * kWh and its own figure, with the reason `above_bound`.
 */
export function bounded<M extends Pick<ServiceMonth, 'kwh' | 'native' | 'reasons' | 'estimated'>>(
  m: M,
  service: Service,
  area: number | null | undefined,
  nativeUnit: 'kWh' | 'unit' | 'm3',
): M {
  if (service === 'COLD_WATER' || m.kwh === null) return m;
  const perM2 = m.kwh.div(usableArea(area) ?? AREA_LIMIT_M2);
  const perM3 = service === 'HOT_WATER' && nativeUnit === 'm3' && m.native !== null && m.native.greaterThan(0) ? m.kwh.div(m.native) : null;
  const above = perM2.greaterThan(KWH_PER_M2_MONTH[service]) || (perM3 !== null && perM3.greaterThan(KWH_PER_M3_WARM_WATER));
  return above ? { ...m, kwh: null, native: null, estimated: false, reasons: ['above_bound'] } : m;
}
