// The "average user of the same user category" (§ 6a Abs. 2 Nr. 3 HeizkostenV): yearly
// kWh per m² by unit type and service, spread over the months and scaled to the unit's
// area. docs/uvi.md names each source and what of it could be verified. Pure.
import { dec, type Decimal } from '../billing/decimal.js';
import { daysIn, daysInYear, monthNumber, type Month } from './months.js';
import type { Service } from './types.js';

export type BenchmarkService = Extract<Service, 'HEATING' | 'HOT_WATER'>;

export interface BenchmarkRow {
  unit_type: string;
  service: BenchmarkService;
  kwh_per_m2_year: number;
}

/** A source is printed on every letter: a citation, not a paragraph (a --benchmark file's, per row). */
export const MAX_SOURCE = 200;

export interface BenchmarkTable {
  /** Named on every letter, whole: the rows' distinct sources joined by "; ". */
  source: string;
  rows: BenchmarkRow[];
}

/**
 * Shipped when no --benchmark file is given: residential units only (no public source
 * found for the others, so they get no comparison and a finding rather than a guess).
 */
export const DEFAULT_BENCHMARK: BenchmarkTable = {
  source:
    'Heizung: DIW Wärmemonitor 2023 (DIW Berlin mit ista), 118 kWh/m² beheizte Wohnfläche und Jahr, Zwei- und Mehrfamilienhäuser, temperaturbereinigt; ' +
    'Warmwasser: Heizspiegel für Deutschland (co2online), Warmwasseranteil 24 kWh/m² und Jahr',
  rows: [
    { unit_type: 'residential', service: 'HEATING', kwh_per_m2_year: 118 },
    { unit_type: 'residential', service: 'HOT_WATER', kwh_per_m2_year: 24 },
  ],
};

/**
 * Heating degree-day shares per month in ‰ of the year (VDI 2067 Blatt 1, 20-year means;
 * the table used for a change of tenant under the HeizkostenV). June to August share 40 ‰.
 */
export const HEATING_PER_MILLE: readonly Decimal[] = [170, 150, 130, 80, 40, '40/3', '40/3', '40/3', 30, 80, 120, 160].map((v) =>
  v === '40/3' ? dec(40).div(3) : dec(v),
);

/** The month's part of a year's consumption: degree days for heating, calendar days for warm water. */
export function monthShare(service: BenchmarkService, month: Month): Decimal {
  if (service === 'HEATING') return HEATING_PER_MILLE[monthNumber(month) - 1]!.div(1000);
  return dec(daysIn(month)).div(daysInYear(month));
}

/** More than any dwelling uses (the worst buildings in the Heizspiegel stay well below): a typo, not a benchmark. */
export const BENCHMARK_LIMIT = 1000;
/** Below a passive house's heating or any flat's hot water: a value per month, or 1.000 read as 1, not a year's. */
export const BENCHMARK_MIN = 1;

/** Why a benchmark table cannot be used, one line per problem (empty when it can). */
export function benchmarkProblems(table: BenchmarkTable): string[] {
  const problems: string[] = [];
  if (!table.source.trim()) problems.push('source');
  const seen = new Set<string>();
  for (const r of table.rows) {
    const key = `${r.unit_type}/${r.service}`;
    if (seen.has(key)) problems.push(`duplicate:${key}`);
    seen.add(key);
    if (r.service !== 'HEATING' && r.service !== 'HOT_WATER') problems.push(`service:${key}`);
    const v = r.kwh_per_m2_year;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < BENCHMARK_MIN || v > BENCHMARK_LIMIT) problems.push(`value:${key}`);
  }
  return problems;
}

export type BenchmarkMonth = { kwh: Decimal } | { missing: 'no_area' | 'no_value' };

/** The average user's kWh for one month of a unit with `area` m² (area_heated_m2 for heating, area_ww_m2 for warm water). */
export function benchmarkMonth(table: BenchmarkTable, unitType: string, service: BenchmarkService, area: number | null, month: Month): BenchmarkMonth {
  const row = table.rows.find((r) => r.unit_type === unitType && r.service === service);
  if (!row) return { missing: 'no_value' };
  if (area === null || typeof area !== 'number' || !Number.isFinite(area) || area <= 0) return { missing: 'no_area' };
  return { kwh: dec(row.kwh_per_m2_year).times(area).times(monthShare(service, month)) };
}
