// The export's output formats, one line each. A format is a folder under formats/ whose
// index.ts declares an OutputFormat (format.ts); `--format`, its help, its errors, the file
// names an export writes and where its findings are found all come from this list.
import type { FileEntry, OutputFormat } from './format.js';
import { csvFormat } from './formats/csv/index.js';
import { xlsxFormat } from './formats/xlsx/index.js';
import type { Template } from './templates.js';

/** In the order their files are written, listed and committed. */
export const EXPORT_FORMATS = [csvFormat, xlsxFormat] as const;

export type Format = (typeof EXPORT_FORMATS)[number]['name'];

/** What `--format` takes, in the registry's order. */
export const FORMAT_NAMES: readonly Format[] = EXPORT_FORMATS.map((f) => f.name);

type Finishing<F> = F extends { name: infer N extends string; finish: { run: (input: infer I, ...rest: never[]) => unknown } } ? [N, I] : never;
type Finishes = Finishing<(typeof EXPORT_FORMATS)[number]>;

/**
 * What each format with a finishing pass finishes from, under its name (null: not asked for;
 * absent: not in the registry the output was written with); plain data.
 */
export type FinishInputs = { [P in Finishes as P[0]]?: P[1] | null };

/** Who writes a finishing format's files (by default the format itself, in this thread). */
export type FinishWriters = { [P in Finishes as P[0]]?: (input: P[1]) => Promise<void> };

/** The formats of `registry` named in `names`, in the registry's order. */
export function formatsNamed(names: readonly string[], registry: readonly OutputFormat[] = EXPORT_FORMATS): OutputFormat[] {
  return registry.filter((f) => names.includes(f.name));
}

/** Final file names this template and format list produce. */
export function finalNames(template: Pick<Template, 'files'>, formats: readonly string[]): string[] {
  return formatsNamed(formats).flatMap((f) => f.finalNames(template));
}

/** The file that holds the findings: the review CSV, else the review sheet of the workbook (`--format xlsx`). */
export function findingsPlace(s: { files: FileEntry[] }, template: Pick<Template, 'files'>): string | null {
  const review = template.files.find((f) => f.table === 'review');
  if (!review) return null;
  for (const f of EXPORT_FORMATS) {
    const place = f.placeOf(review, s.files);
    if (place) return place;
  }
  return null;
}
