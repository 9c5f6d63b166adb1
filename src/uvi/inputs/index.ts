// The monthly consumption information's inputs, checked before any request (docs/uvi.md,
// "The command's inputs"): --month, --ww-temperature, the --benchmark and --plant-meters files. What the
// `uvi` command will declare its flags with; nothing here is wired to the command line yet.
import type { BenchmarkTable } from '../benchmark.js';
import { DEFAULT_BENCHMARK } from '../benchmark.js';
import { thirteenMonths, type Month } from '../months.js';
import { readBenchmarkFile } from './benchmark-file.js';
import { parseMonth, parseWwTemperature } from './month.js';
import { readPlantMeters, type PlantMeters } from './plant-meters.js';

export { BENCHMARK_COLUMNS, MAX_SOURCE, parseBenchmarkCsv } from './benchmark-csv.js';
export { readBenchmarkFile } from './benchmark-file.js';
export { PLANT_METERS_CODE, parsePlantMeters, plantMetersOf, readPlantMeters, type PlantMeterEntry, type PlantMeters } from './plant-meters.js';
export { FIRST_MONTH, WW_TEMPERATURE_DEFAULT, WW_TEMPERATURE_MAX, WW_TEMPERATURE_MIN, lastCompletedMonth, parseMonth, parseWwTemperature } from './month.js';

export interface UviFlags {
  month?: string;
  benchmark?: string;
  wwTemperature?: string;
  plantMeters?: string;
}

export interface UviInputs {
  month: Month;
  /** The 13 months ending with `month`, oldest first: one consumption request covers them. */
  months: Month[];
  benchmark: BenchmarkTable;
  /** Whether the table is the landlord's (--benchmark) or meterdata's default. */
  benchmarkGiven: boolean;
  wwTemperature: number;
  /** --plant-meters: which plant heat meter is which, by the landlord; null: their names are read. */
  plantMeters: PlantMeters | null;
}

/** How the figures are converted and compared, whatever the month: `uvi`'s letters and browse's monthly screen alike. */
export type UviSettings = Omit<UviInputs, 'month' | 'months'>;

/** --ww-temperature, --benchmark and --plant-meters checked in this order; the first bad one is the error (exit 2). */
export function parseUviSettings(flags: Omit<UviFlags, 'month'>, cwd: string): UviSettings {
  const wwTemperature = parseWwTemperature(flags.wwTemperature);
  const given = readBenchmarkFile(flags.benchmark, cwd);
  const plantMeters = readPlantMeters(flags.plantMeters, cwd);
  return { benchmark: given ?? DEFAULT_BENCHMARK, benchmarkGiven: given !== null, wwTemperature, plantMeters };
}

/** Every input checked, the month first; the first bad one is the error (exit 2). */
export function parseUviInputs(flags: UviFlags, cwd: string, now = new Date()): UviInputs {
  const month = parseMonth(flags.month, now);
  return { month, months: thirteenMonths(month), ...parseUviSettings(flags, cwd) };
}
