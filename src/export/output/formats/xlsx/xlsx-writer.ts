// billing.xlsx through exceljs' streaming WorkbookWriter. Its sheets are entries of one
// zip stream, so they cannot be written interleaved without buffering: the export
// therefore spools each table's rows to an NDJSON scratch file while it walks, the rows
// are rendered to sheet XML from those spools (xlsx-fragments.ts: while the walk goes on
// in the portfolio, else here), and this module writes the workbook at the end, one sheet
// after the other. The Overview's rows are spooled too (only its column list is held), so
// memory stays flat whatever the number of units.
import { once } from 'node:events';
import { constants, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type ExcelJS from 'exceljs';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { valueWord } from '../../../../billing/texts-values.js';
import { language } from '../../../../i18n/index.js';
import { plainNumber } from '../../cell-text.js';
import { overviewKey, TABLE_COLUMNS, type ColumnType, type TableName } from '../../tables.js';
import type { Template } from '../../templates.js';
import { cellValue, fitCell, headerOf, Widths, WIDTH_SAMPLE, workbookStyle } from './xlsx-cells.js';
import { filter, header, sheet } from './xlsx-page.js';
import { fragmentOf, openScratch, scratchDamaged, SheetFragment, type TableSheet } from './xlsx-fragments.js';
import { MarksReader } from '../../../overview-marks.js';
import { scratchText } from './texts-scratch.js';
import { fileTexts } from '../../../../core/texts.js';
import { rowXml, StyleTable, type CellValue, type StyleRegistry } from './xlsx-rows.js';
import { aboutTexts } from '../../texts-sheets.js';

/** A table sheet's rendered rows: how many, the column widths, the bytes of sheet XML. */
type Rendered = ReturnType<SheetFragment['result']>;

export interface OverviewUnit {
  property_id: string;
  property_name: string;
  usage_unit_id: string;
  usage_unit_name: string;
  unit_type: string;
  /** --unit-refs: the unit's ERP reference (null: none in the file). */
  erp_ref?: string | null;
  /** overviewKey(metric, unit) -> billed value and whether a not_billed/review flag touches it */
  values: Record<string, { value: string; flagged: boolean }>;
}

export interface OverviewData {
  /** (metric, unit) pairs in column order, e.g. { metric: 'heat', unit: 'kWh' }. */
  metrics: { metric: string; unit: string }[];
  /** NDJSON spool of OverviewUnit rows, in sheet order; null: no rows. */
  spool: string | null;
  /** NDJSON spool of the cells the findings of each Property mark (overview-marks.ts), in the same Property order. */
  marks?: string | null;
}

export interface XlsxInput {
  file: string;
  template: Template;
  /** Table -> NDJSON spool of its rows, in order. */
  spools: Partial<Record<TableName, string>>;
  /** Table -> the rows the export wrote to its spool: a sheet with other than these is refused. */
  rows?: Partial<Record<TableName, number>>;
  overview: OverviewData;
  /** Label/value pairs of the About sheet, in order. */
  about: [string, string | number][];
  /** Fixed timestamps inside the file, so a resumed run yields the same bytes. */
  exportTime: Date;
  /** The export run's token: names its rendered rows (fragmentOf); none where nothing renders them ahead. */
  run?: string;
}

export { PAGE_WIDTH, pageSetup } from './xlsx-page.js';

async function* spoolRows(file: string): AsyncGenerator<unknown> {
  const handle = await openScratch(file);
  const rl = createInterface({ input: handle.createReadStream({ encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield JSON.parse(line);
}

const MAX_PENDING = 4 << 20;
const COPY = 1 << 18;

type SheetStream = { write(chunk: Buffer | string): unknown; pipes?: (Writable & { _writableState?: { length: number } })[] };
const streamOf = (ws: ExcelJS.Worksheet) => (ws as unknown as { stream: SheetStream }).stream;

/**
 * exceljs' sheet stream pushes into archiver's entry stream without honouring
 * backpressure, so a large sheet would pile up in memory while zlib catches up. Waiting
 * for that entry stream to drain keeps the pending data under MAX_PENDING.
 */
async function drained(ws: ExcelJS.Worksheet): Promise<void> {
  // archiver's entry stream comes from readable-stream 2, which has no writableLength
  const pipe = streamOf(ws).pipes?.[0];
  const pending = pipe ? (pipe.writableLength ?? pipe._writableState?.length ?? 0) : 0;
  if (pipe && pending > MAX_PENDING) await once(pipe, 'drain');
}

/** Copies a table's rendered rows (xlsx-fragments.ts) into its sheet, below the header row. */
async function tableSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, f: SheetFragment, { rows, widths, bytes }: Rendered): Promise<void> {
  // the ids come last (workbookColumns): what is printed ends before them
  const ws = sheet(wb, f.spec.sheet, widths, { columns: f.columns.filter((c) => c.type !== 'id').length, rows });
  header(
    ws,
    f.columns.map((c) => c.header),
    widths,
  );
  const fh = await openScratch(f.spec.fragment);
  try {
    for (let at = 0; at < bytes;) {
      // a fresh buffer each time: exceljs' stream keeps the chunk until zlib has read it
      const want = Math.min(COPY, bytes - at);
      const { bytesRead, buffer } = await fh.read(Buffer.allocUnsafe(want), 0, want, at);
      if (bytesRead === 0) throw scratchDamaged(f.spec.fragment, scratchText.shorter({ bytes }));
      streamOf(ws).write(buffer.subarray(0, bytesRead));
      at += bytesRead;
      await drained(ws);
    }
  } finally {
    await fh.close();
  }
  filter(ws, rows, f.columns.length);
  ws.commit();
}

/** The Overview's columns before the figures: names (and the ERP reference), then the ids last. */
function overviewFixed(t: Template): { key: keyof OverviewUnit; type: ColumnType }[] {
  return [
    { key: 'property_name', type: 'text' },
    { key: 'usage_unit_name', type: 'text' },
    ...(t.erpRef ? [{ key: 'erp_ref' as const, type: 'text' as const }] : []),
    { key: 'unit_type', type: TABLE_COLUMNS.billing.unit_type! },
  ];
}

async function overviewSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Template, o: OverviewData, styles: StyleTable): Promise<void> {
  const lang = language();
  const fixed = overviewFixed(t);
  const ids = ['property_id', 'usage_unit_id'] as const;
  const style = workbookStyle(t);
  // a metric or unit the contract does not list heads its column as it came, whatever its length
  const labels = [
    ...fixed.map((c) => headerOf(c.key)),
    ...o.metrics.map((m) => fitCell(`${valueWord('metric', m.metric, lang)} (${valueWord('unit', m.unit, lang)})`)),
    ...ids.map(headerOf),
  ];
  const values = (u: OverviewUnit) => {
    const vals = o.metrics.map((m) => u.values[overviewKey(m.metric, m.unit)]);
    const cells: CellValue[] = [
      ...fixed.map((c) => cellValue(u[c.key], c.type, style)),
      ...vals.map((v) => (v ? Number(plainNumber(v.value)) : null)),
      ...ids.map((k) => u[k]),
    ];
    return { vals, cells };
  };
  // Figures are sampled too: a number cell shows its digits, so "12345.678" needs its width as much as a name.
  const widths = new Widths(
    labels,
    labels.map(() => 60),
  );
  // every row is counted (for the printed area), the first WIDTH_SAMPLE are measured
  let rows = 0;
  for await (const r of o.spool ? spoolRows(o.spool) : []) if (rows++ < WIDTH_SAMPLE) widths.add(values(r as OverviewUnit).cells);
  const ws = sheet(wb, t.sheets.overview, widths.widths, { columns: labels.length - ids.length, rows });
  header(ws, labels, widths.widths);
  let n = 0;
  let xml = '';
  const marksLines = o.marks ? spoolRows(o.marks) : null;
  const marks = new MarksReader(marksLines);
  const nameAt = fixed.findIndex((c) => c.key === 'usage_unit_name');
  for await (const r of o.spool ? spoolRows(o.spool) : []) {
    const u = r as OverviewUnit;
    const { vals, cells } = values(u);
    const marked = await marks.of(u.property_id, u.usage_unit_id);
    const flagged = (i: number) =>
      i < fixed.length ? i === nameAt && marked.has(null) : vals[i - fixed.length]?.flagged === true || marked.has(o.metrics[i - fixed.length]!.metric);
    const styleIds = cells.map((v, i) => styles.id(v, undefined, i < fixed.length + o.metrics.length && flagged(i)));
    xml += rowXml(2 + n++, cells, styleIds, styles.rowAttributes());
    if (xml.length >= COPY) {
      streamOf(ws).write(xml);
      xml = '';
      await drained(ws);
    }
  }
  if (xml) streamOf(ws).write(xml);
  await marksLines?.return(undefined); // lines left (a last Property without units): the file is closed, so the scratch folder can go (Windows)
  filter(ws, n, labels.length);
  ws.commit();
}

function aboutSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Template, about: [string, string | number][]): void {
  const ws = sheet(wb, t.sheets.about, [32, 60]);
  header(ws, [aboutTexts.item, aboutTexts.value], [32, 60]);
  for (const [k, v] of about) ws.addRow([k, typeof v === 'string' ? fitCell(v) : v]).commit(); // a scope of thousands of Properties
  ws.commit();
}

type Zip = { append: (source: unknown, data: Record<string, unknown>) => unknown };

/**
 * archiver stamps every zip entry with "now", which would make two exports of the same
 * data differ. The constructor already appends two entries (through addThemes), so the
 * pin is installed there, dating every entry at `created` (the export time).
 */
class PinnedWorkbookWriter extends WorkbookWriter {
  override addThemes(): Promise<void> {
    const self = this as unknown as { zip: Zip & { pinned?: boolean }; created: Date };
    if (!self.zip.pinned) {
      const append = self.zip.append.bind(self.zip);
      self.zip.append = (source, data) => append(source, { ...data, date: self.created });
      self.zip.pinned = true;
    }
    return super.addThemes();
  }
}

/** The table sheets of a workbook, in sheet order: the template's tables that have a spool. */
export function tableSheets(input: Pick<XlsxInput, 'template' | 'spools' | 'run'>): TableSheet[] {
  return input.template.files.flatMap((f) => {
    const spool = input.spools[f.table];
    return spool ? [{ table: f.table, sheet: f.sheet, columns: f.columns, spool, fragment: fragmentOf(spool, input.run) }] : [];
  });
}

/** Writes billing.xlsx (also the entry of a worker thread: core/isolate.ts passes a second argument, not for here). */
export function writeXlsx(input: XlsxInput): Promise<void> {
  return writeXlsxAhead(input);
}

/**
 * Writes billing.xlsx. `ahead`: the table rows already rendered while the export walked
 * (table -> fragment, see workbook-workers.ts); what is missing is rendered here first.
 */
export async function writeXlsxAhead(input: XlsxInput, ahead?: ReadonlyMap<TableName, SheetFragment>): Promise<void> {
  const { template: t } = input;
  const styles = new StyleTable(t.dateFormat);
  const fragments = tableSheets(input).map((spec) => ahead?.get(spec.table) ?? new SheetFragment(spec, t, styles, true));
  const rendered: Rendered[] = [];
  for (const f of fragments) {
    await f.advance(null);
    rendered.push(f.result(input.rows?.[f.spec.table])); // a damaged spool fails before billing.xlsx is opened
  }
  // the run's own empty file (AtomicOutput.create): never written through a link put in its place (round 27)
  const fd = await open(input.file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0)).catch((e: unknown) =>
    Promise.reject((e as NodeJS.ErrnoException).code === 'ELOOP' ? scratchDamaged(input.file, fileTexts.isLink) : e),
  );
  const stream = createWriteStream(input.file, { fd });
  const done = new Promise<void>((resolve, reject) => {
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  // `created` is read in the constructor (before the first zip entry), so it goes in the options.
  const options = { stream, useStyles: true, useSharedStrings: false, created: input.exportTime };
  const wb = new PinnedWorkbookWriter(options as Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions>);
  wb.creator = 'meterdata';
  wb.lastModifiedBy = 'meterdata';
  styles.registerIn((wb as unknown as { styles: StyleRegistry }).styles);
  await overviewSheet(wb, t, input.overview, styles);
  for (const [i, f] of fragments.entries()) await tableSheet(wb, f, rendered[i]!);
  aboutSheet(wb, t, input.about);
  await wb.commit();
  await done;
}
