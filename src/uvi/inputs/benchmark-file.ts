// Reads the --benchmark file through the project's one bounded reader (src/core/bounded-read.ts):
// only a plain file, never past 1 MiB, so a FIFO, /dev/zero or a huge file is refused at once
// instead of blocking the run or filling the memory. The one place of src/uvi that touches
// the disk; the table itself is parsed by the pure benchmark-csv.ts.
import path from 'node:path';
import { OWN_FILE_MAX, readBounded, type BoundedRead } from '../../core/bounded-read.js';
import type { BenchmarkTable } from '../benchmark.js';
import { BENCHMARK_CODE, parseBenchmarkCsv } from './benchmark-csv.js';
import { UsageError } from '../../core/errors.js';
import { inputTexts as t } from './texts-inputs.js';

/** null without the flag; otherwise the file read and checked, or a UsageError naming the file (and the line). */
export function readBenchmarkFile(given: string | undefined, cwd: string): BenchmarkTable | null {
  if (given === undefined) return null;
  let read: BoundedRead;
  try {
    read = readBounded(path.resolve(cwd, given), OWN_FILE_MAX);
  } catch (e) {
    throw new UsageError(t.cannotRead({ file: given, error: (e as NodeJS.ErrnoException).code ?? String(e) }), t.fileHint, BENCHMARK_CODE);
  }
  if (!read.ok) {
    const message = { folder: t.isFolder, 'not-a-file': t.notAFile, 'too-large': (p: { file: string }) => t.tooLarge({ ...p, kb: OWN_FILE_MAX >> 10 }) }[
      read.why
    ];
    throw new UsageError(message({ file: given }), t.fileHint, BENCHMARK_CODE);
  }
  let text: string;
  try {
    // A NUL is no text: Excel's "Unicode text" (UTF-16 without a byte order mark) decodes as "valid" UTF-8 full of them.
    if (read.bytes.includes(0)) throw new Error('NUL');
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new UsageError(t.notUtf8({ file: given }), t.notUtf8Hint, BENCHMARK_CODE);
  }
  return parseBenchmarkCsv(text, given);
}
