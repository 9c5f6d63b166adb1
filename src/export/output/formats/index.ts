// The registry's names and labels as a surface of their own: the export command's declaration
// reads them for `--format` and its help, and `meterdata --help` loads it, so it must not load
// the rest of the output (OutputSet, tables, decimal.js) that src/export/output/index.ts holds.
import type { OutputFormat } from '../format.js';
import { EXPORT_FORMATS, FORMAT_NAMES, type Format } from '../registry.js';
import { formatTexts } from '../texts-formats.js';

export { FORMAT_NAMES, type Format };

/** How a person names these formats, in the run's language: "CSV and XLSX". */
export function formatLabels(registry: readonly OutputFormat[] = EXPORT_FORMATS): string {
  const labels = registry.map((f) => f.label);
  return labels.length < 2 ? (labels[0] ?? '') : formatTexts.and({ head: labels.slice(0, -1).join(', '), last: labels.at(-1)! });
}
