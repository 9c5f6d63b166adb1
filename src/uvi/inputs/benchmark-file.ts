// Reads the --benchmark file (own-file.ts: a plain file, never past 1 MiB); the table itself is
// parsed by the pure benchmark-csv.ts.
import type { BenchmarkTable } from '../benchmark.js';
import { BENCHMARK_CODE, parseBenchmarkCsv } from './benchmark-csv.js';
import { readOwnText } from './own-file.js';
import { inputTexts as t } from './texts-inputs.js';

/** null without the flag; otherwise the file read and checked, or a UsageError naming the file (and the line). */
export function readBenchmarkFile(given: string | undefined, cwd: string): BenchmarkTable | null {
  if (given === undefined) return null;
  return parseBenchmarkCsv(readOwnText('--benchmark', given, cwd, { code: BENCHMARK_CODE, hint: t.fileHint }), given);
}
