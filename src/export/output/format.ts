// The one interface every output format implements (csv, xlsx; the registry is registry.ts).
// A format names the files it writes for a template, opens its sinks (the files OutputSet.write
// feeds while the export walks), closes them into the staged output, and may finish after the
// walk (the workbook, written from its spools, possibly in a worker thread). Its declaration
// (the folder's index.ts) stays light: the sinks and the finishing pass are imported when an
// export uses them, so `meterdata --help` loads neither.
import type { BillingRow } from '../../billing/types.js';
import type { AtomicOutput } from '../folder/index.js';
import type { OverviewMarks } from '../overview-marks.js';
import type { RenderSpec } from './formats/xlsx/index.js';
import type { Row, TableName } from './tables.js';
import type { Template, TemplateFile } from './templates.js';

export interface FileEntry {
  name: string;
  bytes: number;
  sha256: string;
  rows?: number;
}

/** What a format's sinks are opened with: the template's tables and the export's temporary files. */
export interface SinkContext {
  dir: string;
  template: Template;
  atomic: AtomicOutput;
  /** The run's Ctrl-C: a format with work left at the walk's end (the letters' worker) stops it rather than finish it. */
  signal?: AbortSignal | undefined;
}

/** What the sinks are closed with at the walk's end. */
export interface StageContext {
  /** Table -> rows written (OutputSet.rows). */
  rows: Partial<Record<TableName, number>>;
  /** Label/value pairs describing the export (the workbook's About sheet). */
  about: [string, string | number][];
  exportTime: Date;
}

/** A format's open files for one export; `M` is its place to rewind to. */
export interface FormatSinks<M = unknown> {
  /** One row of a table the template writes, as it comes (every sink gets each row in turn). */
  row(table: TableName, row: Row): Promise<void>;
  /** Where every file is now (see OutputSet.mark). */
  mark(): Promise<M>;
  /** Drops what was written since `mark`. */
  rewind(mark: M): Promise<void>;
  /** Closes every file: the complete ones, and plain data for the format's finishing pass (none: undefined). */
  stage(ctx: StageContext): Promise<{ files: FileEntry[]; finish?: unknown }>;
  /** Per-unit totals of a Property (billing rows, units, the cells its findings mark); formats without a summary sheet leave it out. */
  addOverview?(billing: OverviewBilling, property: OverviewProperty, units: OverviewUnitRef[], marks?: OverviewMarks): Promise<void>;
  /** What to render ahead now (see OutputSet.renderAhead); only a format that renders ahead has it. */
  renderAhead?(tentative: boolean): Promise<{ spec: RenderSpec; upTo: Partial<Record<TableName, number>> } | null>;
  /** The run failed: ends what the format still writes (a thread of its own) before the temporary files are removed. */
  abort?(): Promise<void>;
}

export type OverviewBilling = (BillingRow & { erp_ref?: string | null })[];
export interface OverviewProperty {
  id: string;
  name: string;
}
export interface OverviewUnitRef {
  id: string;
  name: string;
  unit_type: string;
  erp_ref?: string | null;
}

/** A finishing pass: writes the format's files from what its sinks staged, after the walk. */
export interface Finisher<I> {
  /** `write`: the caller's writer for the heavy part (a worker thread); by default the format's own, in this thread. */
  run(input: I, write?: (input: I) => Promise<void>): Promise<FileEntry[]>;
}

export interface OutputFormat<N extends string = string> {
  /** What `--format` takes. */
  readonly name: N;
  /** How a person names it (the command's help: "CSV and XLSX"). */
  readonly label: string;
  /** The final file names it writes for this template, in the order they are committed. */
  finalNames(template: Pick<Template, 'files'>): string[];
  /** Where a template file's table is found among the written files (a file, or a sheet of one); null: not among them. */
  placeOf(file: TemplateFile, written: readonly FileEntry[]): string | null;
  open(ctx: SinkContext): Promise<FormatSinks>;
  /** A finishing pass (a Finisher of what its sinks stage as `finish`); its input's type is the format's own. */
  finish?: { run(input: never, write?: never): Promise<FileEntry[]> };
}
