// Every file of one export: each format asked for opens its sinks (CSV tables written as rows
// arrive, NDJSON spools for the workbook), every row goes to each of them in turn, and at the
// end they close into a StagedOutput that complete.ts finishes (billing.xlsx) and commits with
// the manifest, all renamed into place together by AtomicOutput only when everything succeeded.
import type { AtomicOutput } from '../folder/index.js';
import type { OverviewMarks } from '../overview-marks.js';
import type { FileEntry, FormatSinks, OutputFormat, OverviewBilling, OverviewProperty, OverviewUnitRef } from './format.js';
import type { RenderSpec } from './formats/xlsx/index.js';
import type { StagedOutput } from './complete.js';
import { EXPORT_FORMATS, formatsNamed, type FinishInputs } from './registry.js';
import type { Row, TableName } from './tables.js';
import type { Template } from './templates.js';

/** See OutputSet.mark. */
export interface OutputMark {
  rows: Partial<Record<TableName, number>>;
  /** Each format's own mark, in the order of `sinks`. */
  sinks: unknown[];
}

export class OutputSet {
  /** Made by `start` (atomic.ts loads node:crypto, which `meterdata --help` has no use for). */
  private atomic: AtomicOutput | null = null;
  private readonly sinks: [OutputFormat, FormatSinks][] = [];
  readonly rows: Partial<Record<TableName, number>> = {};

  /** `registry`: the formats `formats` names (the export's by default). */
  constructor(
    readonly dir: string,
    private readonly template: Template,
    private readonly formats: readonly string[],
    private readonly registry: readonly OutputFormat[] = EXPORT_FORMATS,
    private readonly signal?: AbortSignal,
  ) {}

  /** Every file's place and the counts now, to `rewind` to (see PropertyStream). */
  async mark(): Promise<OutputMark> {
    const sinks: unknown[] = [];
    for (const [, s] of this.sinks) sinks.push(await s.mark());
    return { rows: { ...this.rows }, sinks };
  }

  /** Drops every row written since `mark` (each format drops its own, see its `rewind`). */
  async rewind(mark: OutputMark): Promise<void> {
    for (const [i, [, s]] of this.sinks.entries()) await s.rewind(mark.sinks[i]);
    for (const k of Object.keys(this.rows) as TableName[]) this.rows[k] = mark.rows[k];
  }

  private async makeAtomic(): Promise<AtomicOutput> {
    return new (await import('../folder/index.js')).AtomicOutput(this.dir);
  }

  async start(): Promise<void> {
    const atomic = (this.atomic = await this.makeAtomic());
    await atomic.prepare();
    for (const f of this.template.files) this.rows[f.table] = 0;
    for (const format of formatsNamed(this.formats, this.registry))
      this.sinks.push([format, await format.open({ dir: this.dir, template: this.template, atomic, signal: this.signal })]);
  }

  /**
   * What to render ahead of the workbook now (null: nothing, or no workbook): the spec and how
   * far each spool is on disk (see RenderAhead and the workbook's sinks).
   */
  async renderAhead(tentative: boolean): Promise<{ spec: RenderSpec; upTo: Partial<Record<TableName, number>> } | null> {
    for (const [, s] of this.sinks) if (s.renderAhead) return s.renderAhead(tentative);
    return null;
  }

  async write(table: TableName, rows: readonly object[]): Promise<void> {
    if (this.rows[table] === undefined) return; // the template leaves this table out
    for (const r of rows as Row[]) for (const [, s] of this.sinks) await s.row(table, r);
    this.rows[table]! += rows.length;
  }

  /**
   * The per-unit totals for the Overview sheet (only formats with one keep them): units in
   * billing order, then units without any billing row (no points). `marks`: given once at
   * the Property's end, the cells its findings mark.
   */
  async addOverview(billing: OverviewBilling, property: OverviewProperty, units: OverviewUnitRef[], marks?: OverviewMarks): Promise<void> {
    for (const [, s] of this.sinks) await s.addOverview?.(billing, property, units, marks);
  }

  /**
   * Closes every file; nothing is renamed yet. What comes back is plain data, so the
   * workbook and the commit can happen in another thread (`completeOutput`).
   */
  async stage(about: [string, string | number][], exportTime: Date): Promise<StagedOutput> {
    const files: FileEntry[] = [];
    const finish: Record<string, unknown> = {};
    for (const format of this.registry) if (format.finish) finish[format.name] = null;
    for (const [format, s] of this.sinks) {
      const staged = await s.stage({ rows: this.rows, about, exportTime });
      files.push(...staged.files);
      if (staged.finish !== undefined) finish[format.name] = staged.finish;
    }
    return { dir: this.dir, pending: this.atomic!.staged(), files, ...(finish as FinishInputs), created: this.atomic!.createdDir, home: this.atomic!.home };
  }

  async abort(): Promise<void> {
    for (const [, s] of this.sinks) await s.abort?.().catch(() => undefined);
    // before `start` too: an earlier interrupted run's temporary files go as they always did
    await (this.atomic ?? (await this.makeAtomic())).abort();
  }
}
