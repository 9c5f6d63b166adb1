// The workbook's side of one export while it walks: each table's rows spooled to NDJSON, the
// Overview's rows and the cells findings mark spooled beside them, and the spools handed out
// to be rendered ahead (workbook-workers.ts) under the run's token. billing.xlsx itself is
// written after the walk (finish.ts), from what `stage` gives.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { partialName, type BufferedFile, type FileMark } from '../../../folder/index.js';
import type { OverviewMarks, PropertyMarks } from '../../../overview-marks.js';
import type { FormatSinks, OverviewBilling, OverviewProperty, OverviewUnitRef, SinkContext, StageContext } from '../../format.js';
import type { Row, TableName } from '../../tables.js';
import { overviewColumns, overviewRows, type MetricUnit } from './overview.js';
import type { RenderSpec } from './types.js';
import type { XlsxInput } from './xlsx-writer.js';

import { XLSX_FILE } from './index.js';

interface XlsxMark {
  files: Map<BufferedFile, FileMark>;
  metricUnits: [string, MetricUnit][];
}

class XlsxSinks implements FormatSinks<XlsxMark> {
  readonly spools = new Map<TableName, BufferedFile>();
  /** The Overview's rows, spooled like the tables'. */
  overviewSpool!: BufferedFile;
  /** What the findings known at a Property's end mark in the Overview, one line per Property (overview-marks.ts). */
  marksSpool!: BufferedFile;
  /** overviewKey -> the pair, one Overview column each. */
  private readonly metricUnits = new Map<string, MetricUnit>();
  /** This run's token in its scratch names of rendered rows (fragmentOf). */
  run = randomUUID().slice(0, 13);
  /** Spool bytes per table handed out to be rendered ahead under this token (see `rewind`). */
  private readonly aheadTo = new Map<TableName, number>();
  /** A rewind dropped rows already rendered ahead: from then on only rows that stay are (see `renderAhead`). */
  private keptOnly = false;

  constructor(private readonly ctx: SinkContext) {}

  async row(table: TableName, row: Row): Promise<void> {
    await this.spools.get(table)?.write(`${JSON.stringify(row)}\n`);
  }

  async mark(): Promise<XlsxMark> {
    const files = new Map<BufferedFile, FileMark>();
    for (const f of [...this.spools.values(), this.overviewSpool, this.marksSpool]) files.set(f, await f.mark());
    return { files, metricUnits: [...this.metricUnits] };
  }

  /**
   * Drops every row written since `mark`. Rows rendered ahead from the dropped ones are in
   * the run's scratch files of rendered rows: the run takes a new token, so the workbook
   * renders its rows again from the spools rather than take them.
   */
  async rewind(mark: XlsxMark): Promise<void> {
    for (const [f, m] of mark.files) await f.rewind(m);
    this.metricUnits.clear();
    for (const [k, v] of mark.metricUnits) this.metricUnits.set(k, v);
    // Rows rendered ahead only up to the mark are still the spools' rows: the token stays.
    // Otherwise every row is rendered again under a new one, and so that this happens once
    // per export and not once per drop (work and scratch space growing with the square of
    // the Properties), only rows that stay are rendered ahead from then on.
    if (![...this.spools].some(([t, f]) => (this.aheadTo.get(t) ?? 0) > (mark.files.get(f)?.bytes ?? 0))) return;
    this.keptOnly = true;
    this.aheadTo.clear();
    this.run = randomUUID().slice(0, 13);
    for (const t of this.spools.keys()) await this.ctx.atomic.closeFile(await this.ctx.atomic.scratch(`${t}.ndjson.${this.run}.rows`));
  }

  /** What the table rows are rendered from ahead of the workbook: see RenderAhead. */
  renderSpec(): RenderSpec {
    return {
      file: path.join(this.ctx.dir, partialName(XLSX_FILE)),
      run: this.run,
      template: this.ctx.template,
      spools: Object.fromEntries([...this.spools.entries()].map(([t, f]) => [t, f.path])),
    };
  }

  /**
   * What to render ahead of the workbook now (null: nothing): the spec and how far each spool
   * is on disk (table -> bytes), its buffer written out. `tentative`: rows a rewind may still
   * drop are among them (a Property's units written early); after a rewind that dropped rows
   * rendered ahead, those wait for their Property's end.
   */
  async renderAhead(tentative: boolean): Promise<{ spec: RenderSpec; upTo: Partial<Record<TableName, number>> } | null> {
    if (tentative && this.keptOnly) return null;
    const spec = this.renderSpec();
    const upTo: Partial<Record<TableName, number>> = {};
    for (const [t, f] of this.spools) {
      await f.flush();
      upTo[t] = f.bytes;
      this.aheadTo.set(t, f.bytes);
    }
    return { spec, upTo };
  }

  /** Spools a Property's per-unit totals; `marks`: given once at the Property's end, the cells its findings mark. */
  async addOverview(billing: OverviewBilling, property: OverviewProperty, units: OverviewUnitRef[], marks?: OverviewMarks): Promise<void> {
    if (marks) await this.marksSpool.write(`${JSON.stringify({ property_id: property.id, marks } satisfies PropertyMarks)}\n`);
    for (const r of overviewRows(billing, property, units, this.metricUnits)) await this.overviewSpool.write(`${JSON.stringify(r)}\n`);
  }

  async stage({ rows, about, exportTime }: StageContext): Promise<{ files: []; finish: XlsxInput }> {
    const { atomic } = this.ctx;
    for (const s of [...this.spools.values(), this.overviewSpool, this.marksSpool]) await atomic.closeFile(s);
    await atomic.closeFile(await atomic.create(XLSX_FILE)); // exceljs writes the file itself, through its own stream
    const overview = { metrics: overviewColumns(this.metricUnits.values()), spool: this.overviewSpool.path, marks: this.marksSpool.path };
    return { files: [], finish: { ...this.renderSpec(), rows: { ...rows }, overview, about, exportTime } };
  }
}

export async function openXlsx(ctx: SinkContext): Promise<XlsxSinks> {
  const sinks = new XlsxSinks(ctx);
  sinks.overviewSpool = await ctx.atomic.scratch('overview.ndjson');
  sinks.marksSpool = await ctx.atomic.scratch('overview-marks.ndjson');
  for (const f of ctx.template.files) {
    sinks.spools.set(f.table, await ctx.atomic.scratch(`${f.table}.ndjson`));
    // made here, empty, so that a render that comes late (xlsx-fragments.ts) never makes it again after an abort
    await ctx.atomic.closeFile(await ctx.atomic.scratch(`${f.table}.ndjson.${sinks.run}.rows`));
  }
  return sinks;
}
