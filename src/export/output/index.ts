// The export's output, its public surface: the formats behind one interface (format.ts) and
// their registry (registry.ts), the OutputSet an export writes its tables into, the finishing
// and commit of its files (complete.ts), the tables, templates and cell text they share.
// Nothing outside src/export/output imports another of its files. Nothing here loads exceljs:
// each format loads its writers when an export uses it (`meterdata --help` stays light).
import type { completeOutput as complete, StagedOutput } from './complete.js';
import type { FileEntry } from './format.js';
import type { Template } from './templates.js';

export { OutputSet, type OutputMark } from './output-set.js';
export type { StagedOutput } from './complete.js';
export { EXPORT_FORMATS, FORMAT_NAMES, finalNames, findingsPlace, formatsNamed, type FinishInputs, type FinishWriters, type Format } from './registry.js';
export type { FileEntry, Finisher, FormatSinks, OutputFormat, SinkContext, StageContext } from './format.js';
export {
  WORKBOOK_MODULE,
  WORKBOOK_WORKERS_MODULE,
  XLSX_FILE,
  loadWorkbookWorkers,
  writeWorkbookHere,
  type OverviewData,
  type OverviewUnit,
  type RenderAhead,
  type RenderSpec,
  type WorkbookWriter,
  type XlsxInput,
} from './formats/xlsx/index.js';
export type { Template, TemplateColumn, TemplateFile } from './templates.js';
export { TABLE_COLUMNS, TABLE_NAMES, cellOf, overviewKey, type ColumnType, type Row, type TableName } from './tables.js';
export { csvLine, formatCell, neutraliseFormula, plainNumber, type CellStyle } from './cell-text.js';
export { aboutTexts, columnHeaders, sheetNames } from './texts-sheets.js';
export { formatLabels } from './formats/index.js';

/** Finishes and commits a staged output (complete.ts, loaded after the walk). */
export async function completeOutput(...args: Parameters<typeof complete>): Promise<FileEntry[]> {
  return (await import('./complete.js')).completeOutput(...args);
}

/** Removes a staged output's temporary files (complete.ts). */
export async function discardOutput(staged: StagedOutput): Promise<void> {
  return (await import('./complete.js')).discardOutput(staged);
}

/** Reads a template by name or file; loaded when an export needs one (its checks load valibot, which `--help` does not). */
export async function loadTemplate(nameOrFile: string, cwd: string): Promise<Template> {
  return (await import('./templates.js')).loadTemplate(nameOrFile, cwd);
}
