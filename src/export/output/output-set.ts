// Every file of one export: CSV tables written as rows arrive, NDJSON spools for the
// workbook, the Overview totals, then billing.xlsx and the manifest, all renamed into
// place together by AtomicOutput only when everything succeeded.
import { createHash, randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { compareUnits } from '../../billing/order.js';
import { FLAG_SEVERITY, type BillingRow, type FlagCode } from '../../billing/types.js';
import { located } from '../../core/disk.js';
import { AtomicOutput, partialName, type BufferedFile, type FileMark } from '../atomic.js';
import { MANIFEST, staleFiles } from '../out-folder.js';
import { openScratch } from './formats/xlsx/xlsx-fragments.js';
import { CsvTableWriter } from './formats/csv/csv-writer.js';
import type { Format } from '../options.js';
import { overviewKey, type Row, type TableName } from './tables.js';
import type { Template } from './templates.js';
import { summaryWords } from '../texts-summary.js';
import type { OverviewMarks, PropertyMarks } from '../overview-marks.js';
import type { OverviewData, OverviewUnit, XlsxInput } from './formats/xlsx/xlsx-writer.js';

/** See OutputSet.mark. */
export interface OutputMark {
  files: Map<BufferedFile, FileMark>;
  rows: Partial<Record<TableName, number>>;
  csvRows: Map<TableName, number>;
  metricUnits: [string, { metric: string; unit: string }][];
}

export { MANIFEST } from '../out-folder.js';
export const XLSX_FILE = 'billing.xlsx';

/** Every file of an export closed under its temporary name, as plain data (it may cross a thread). */
export interface StagedOutput {
  dir: string;
  /** final name -> temporary path */
  pending: [string, string][];
  /** The CSV files, complete. */
  files: FileEntry[];
  /** What billing.xlsx is written from; null when no workbook is wanted. */
  xlsx: XlsxInput | null;
  /** The folder this export created, removed again if it fails (see AtomicOutput.abort). */
  created: string | null;
}

export interface FileEntry {
  name: string;
  bytes: number;
  sha256: string;
  rows?: number;
}

const METRIC_ORDER = ['heat', 'hca', 'water_warm', 'water_cold', 'water_outdoor', 'electricity', 'gas'];

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function metricRank(m: string): number {
  const i = METRIC_ORDER.indexOf(m);
  return i < 0 ? METRIC_ORDER.length : i;
}

/** Final file names this template and format list produce. */
export function finalNames(template: Template, formats: Format[]): string[] {
  return [...(formats.includes('csv') ? template.files.map((f) => f.file) : []), ...(formats.includes('xlsx') ? [XLSX_FILE] : [])];
}

/** The file that holds the findings: the review CSV, else the review sheet of the workbook (`--format xlsx`). */
export function findingsPlace(s: { files: FileEntry[] }, template: Pick<Template, 'files'>): string | null {
  const review = template.files.find((f) => f.table === 'review');
  if (!review) return null;
  if (s.files.some((f) => f.name === review.file)) return review.file;
  return s.files.some((f) => f.name === XLSX_FILE) ? summaryWords.sheetOf({ sheet: review.sheet, file: XLSX_FILE }) : null;
}

async function sha256File(file: string): Promise<string> {
  const handle = await openScratch(file);
  const h = createHash('sha256');
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) h.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return h.digest('hex');
}

export class OutputSet {
  private readonly atomic: AtomicOutput;
  private readonly csv = new Map<TableName, { file: BufferedFile; writer: CsvTableWriter }>();
  private readonly spools = new Map<TableName, BufferedFile>();
  /** The Overview's rows, spooled like the tables' (only with a workbook). */
  private overviewSpool: BufferedFile | null = null;
  /** What the findings known at a Property's end mark in the Overview, one line per Property (overview-marks.ts). */
  private marksSpool: BufferedFile | null = null;
  /** overviewKey -> the pair, one Overview column each. */
  private readonly metricUnits = new Map<string, { metric: string; unit: string }>();
  readonly rows: Partial<Record<TableName, number>> = {};
  /** This run's token in its scratch names of rendered rows (fragmentOf). */
  private run = randomUUID().slice(0, 13);
  /** Spool bytes per table handed out to be rendered ahead under this token (see `rewind`). */
  private readonly aheadTo = new Map<TableName, number>();
  /** A rewind dropped rows already rendered ahead: from then on only rows that stay are (see `renderAhead`). */
  private keptOnly = false;

  constructor(
    readonly dir: string,
    private readonly template: Template,
    private readonly formats: Format[],
  ) {
    this.atomic = new AtomicOutput(dir);
  }

  /** Every file's place and the counts now, to `rewind` to (see PropertyStream). */
  async mark(): Promise<OutputMark> {
    const files = new Map<BufferedFile, FileMark>();
    for (const f of [...[...this.csv.values()].map((c) => c.file), ...this.spools.values(), ...(this.overviewSpool ? [this.overviewSpool] : []), ...(this.marksSpool ? [this.marksSpool] : [])]) files.set(f, await f.mark());
    return { files, rows: { ...this.rows }, csvRows: new Map([...this.csv].map(([t, c]) => [t, c.writer.rows])), metricUnits: [...this.metricUnits] };
  }

  /**
   * Drops every row written since `mark`. Rows rendered ahead from the dropped ones are in
   * the run's scratch files of rendered rows: the run takes a new token, so the workbook
   * renders its rows again from the spools rather than take them.
   */
  async rewind(mark: OutputMark): Promise<void> {
    for (const [f, m] of mark.files) await f.rewind(m);
    for (const k of Object.keys(this.rows) as TableName[]) this.rows[k] = mark.rows[k];
    for (const [t, c] of this.csv) c.writer.rows = mark.csvRows.get(t) ?? 0;
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
    for (const t of this.spools.keys()) await this.atomic.closeFile(await this.atomic.scratch(`${t}.ndjson.${this.run}.rows`));
  }

  async start(): Promise<void> {
    await this.atomic.prepare();
    if (this.formats.includes('xlsx')) {
      this.overviewSpool = await this.atomic.scratch('overview.ndjson');
      this.marksSpool = await this.atomic.scratch('overview-marks.ndjson');
    }
    for (const f of this.template.files) {
      this.rows[f.table] = 0;
      if (this.formats.includes('csv')) {
        const file = await this.atomic.create(f.file);
        const writer = new CsvTableWriter(file, this.template, f);
        await writer.start();
        this.csv.set(f.table, { file, writer });
      }
      if (this.formats.includes('xlsx')) {
        this.spools.set(f.table, await this.atomic.scratch(`${f.table}.ndjson`));
        // made here, empty, so that a render that comes late (xlsx-fragments.ts) never makes it again after an abort
        await this.atomic.closeFile(await this.atomic.scratch(`${f.table}.ndjson.${this.run}.rows`));
      }
    }
  }

  /** What the table rows are rendered from ahead of the workbook (null: no workbook): see RenderAhead. */
  renderSpec(): RenderSpec | null {
    if (!this.formats.includes('xlsx')) return null;
    return { file: path.join(this.dir, partialName(XLSX_FILE)), run: this.run, template: this.template, spools: Object.fromEntries([...this.spools.entries()].map(([t, f]) => [t, f.path])) };
  }

  /**
   * What to render ahead of the workbook now (null: nothing): the spec and how far each spool
   * is on disk (table -> bytes), its buffer written out. `tentative`: rows a rewind may still
   * drop are among them (a Property's units written early); after a rewind that dropped rows
   * rendered ahead, those wait for their Property's end.
   */
  async renderAhead(tentative: boolean): Promise<{ spec: RenderSpec; upTo: Partial<Record<TableName, number>> } | null> {
    const spec = this.renderSpec();
    if (!spec || (tentative && this.keptOnly)) return null;
    const upTo: Partial<Record<TableName, number>> = {};
    for (const [t, f] of this.spools) {
      await f.flush();
      upTo[t] = f.bytes;
      this.aheadTo.set(t, f.bytes);
    }
    return { spec, upTo };
  }

  async write(table: TableName, rows: readonly object[]): Promise<void> {
    if (this.rows[table] === undefined) return; // the template leaves this table out
    const csv = this.csv.get(table);
    const spool = this.spools.get(table);
    for (const r of rows as Row[]) {
      if (csv) await csv.writer.write(r);
      if (spool) await spool.write(`${JSON.stringify(r)}\n`);
    }
    this.rows[table]! += rows.length;
  }

  /**
   * Spools the per-unit totals for the Overview sheet (only when a workbook is written):
   * units in billing order, then units without any billing row (no points). `marks`: given
   * once at the Property's end, the cells its findings mark.
   */
  async addOverview(billing: (BillingRow & { erp_ref?: string | null })[], property: { id: string; name: string }, units: { id: string; name: string; unit_type: string; erp_ref?: string | null }[], marks?: OverviewMarks): Promise<void> {
    if (!this.overviewSpool) return;
    if (marks) await this.markOverview(property.id, marks);
    const byUnit = new Map<string, OverviewUnit>();
    for (const b of billing) {
      let row = byUnit.get(b.usage_unit_id);
      if (!row) {
        row = { property_id: b.property_id, property_name: b.property_name, usage_unit_id: b.usage_unit_id, usage_unit_name: b.usage_unit_name, unit_type: b.unit_type, erp_ref: b.erp_ref, values: {} };
        byUnit.set(b.usage_unit_id, row);
      }
      const flagged = b.review_flags.some((c: FlagCode) => FLAG_SEVERITY[c] !== 'info');
      const key = overviewKey(b.metric, b.unit);
      row.values[key] = { value: b.billable_value, flagged };
      if (!this.metricUnits.has(key)) this.metricUnits.set(key, { metric: b.metric, unit: b.unit });
    }
    const rest = units.filter((u) => !byUnit.has(u.id));
    const rows: OverviewUnit[] = [...byUnit.values(), ...rest.map((u) => ({ property_id: property.id, property_name: property.name, usage_unit_id: u.id, usage_unit_name: u.name, unit_type: u.unit_type, erp_ref: u.erp_ref, values: {} }))];
    // Units without a billed row take their place in the one unit order, not the end.
    rows.sort((a, b) => compareUnits({ id: a.usage_unit_id, name: a.usage_unit_name, unit_type: a.unit_type }, { id: b.usage_unit_id, name: b.usage_unit_name, unit_type: b.unit_type }));
    for (const r of rows) await this.overviewSpool.write(`${JSON.stringify(r)}\n`);
  }

  /** The Overview cells a Property's findings mark (see overview-marks.ts); once per Property, at its end. */
  private async markOverview(property_id: string, marks: OverviewMarks): Promise<void> {
    const line: PropertyMarks = { property_id, marks };
    await this.marksSpool?.write(`${JSON.stringify(line)}\n`);
  }

  private overview(): OverviewData {
    const metrics = [...this.metricUnits.values()].sort(
      (a, b) => metricRank(a.metric) - metricRank(b.metric) || cmp(a.metric, b.metric) || cmp(a.unit, b.unit),
    );
    return { metrics, spool: this.overviewSpool?.path ?? null, marks: this.marksSpool?.path ?? null };
  }

  /**
   * Closes every file; nothing is renamed yet. What comes back is plain data, so the
   * workbook and the commit can happen in another thread (`completeOutput`).
   */
  async stage(about: [string, string | number][], exportTime: Date): Promise<StagedOutput> {
    const files: FileEntry[] = [];
    for (const [table, { file, writer }] of this.csv) {
      await this.atomic.closeFile(file);
      files.push({ name: writer.file.file, bytes: file.bytes, sha256: file.digest(), rows: this.rows[table] ?? 0 });
    }
    let xlsx: XlsxInput | null = null;
    if (this.formats.includes('xlsx')) {
      for (const s of [...this.spools.values(), this.overviewSpool!, this.marksSpool!]) await this.atomic.closeFile(s);
      await this.atomic.closeFile(await this.atomic.create(XLSX_FILE)); // exceljs writes the file itself, through its own stream
      xlsx = { ...this.renderSpec()!, rows: { ...this.rows }, overview: this.overview(), about, exportTime };
    }
    return { dir: this.dir, pending: this.atomic.staged(), files, xlsx, created: this.atomic.createdDir };
  }

  async abort(): Promise<void> {
    await this.atomic.abort();
  }
}

/**
 * The workbook's table sheets as the rows can be rendered before the workbook is written
 * (xlsx-fragments.ts): the part of its XlsxInput known from the start, the run's token included.
 */
export type RenderSpec = Pick<XlsxInput, 'file' | 'template' | 'spools'> & { run: string };

/**
 * Renders the spooled rows up to `upTo` (table -> bytes) while the export goes on (the
 * portfolio's workbook workers); it never fails the export: the workbook renders what is
 * missing or wrong itself.
 */
export type RenderAhead = (spec: RenderSpec, upTo: Partial<Record<TableName, number>>) => void;

/** Writes billing.xlsx from its input (in this thread, or in a worker with its own heap limits). */
export type WorkbookWriter = (input: XlsxInput) => Promise<void>;

export const writeWorkbookHere: WorkbookWriter = async (input) => {
  const { writeXlsx } = await import('./formats/xlsx/xlsx-writer.js'); // exceljs only when a workbook is wanted
  await writeXlsx(input);
};

/** A staged output: writes the workbook and the manifest, renames all into place, removes the spools. */
export async function completeOutput(staged: StagedOutput, manifest: (files: FileEntry[]) => unknown, writeWorkbook: WorkbookWriter = writeWorkbookHere): Promise<FileEntry[]> {
  const atomic = AtomicOutput.adopt(staged.dir, staged.pending);
  const files = [...staged.files];
  if (staged.xlsx) {
    const file = staged.xlsx.file;
    // exceljs writes through a stream, whose failed write names no file (ENOSPC): this one (run-errors.ts)
    await writeWorkbook(staged.xlsx).catch((e: unknown) => Promise.reject(located(e, file)));
    const fh = await open(file, 'r+');
    await fh.sync().catch((e: unknown) => Promise.reject(located(e, file))).finally(() => fh.close());
    files.push({ name: XLSX_FILE, bytes: (await stat(staged.xlsx.file)).size, sha256: await sha256File(staged.xlsx.file) });
  }
  const m = await atomic.create(MANIFEST);
  await m.write(`${JSON.stringify(manifest(files), null, 2)}\n`);
  await atomic.closeFile(m);
  await atomic.commit(MANIFEST, staleFiles(staged.dir, files));
  await atomic.abort(); // removes the spools; final files are never touched
  return files;
}

/** Removes a staged output's temporary files; final names are never touched. */
export async function discardOutput(staged: StagedOutput): Promise<void> {
  await AtomicOutput.adopt(staged.dir, staged.pending, staged.created).abort();
}
