// billing.xlsx through exceljs' streaming WorkbookWriter. Its sheets are entries of one
// zip stream, so they cannot be written interleaved without buffering: the export
// therefore spools each table's rows to an NDJSON scratch file while it walks, and this
// module writes the workbook at the end, one sheet after the other, from those spools.
// The Overview's rows are spooled too (only its column list is held), so memory stays
// flat whatever the number of units.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type ExcelJS from 'exceljs';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { valueWord } from '../billing/texts-values.js';
import { language } from '../i18n/index.js';
import { formatCell, plainNumber, type CellStyle } from './format.js';
import { cellOf, overviewKey, TABLE_COLUMNS, type ColumnType, type Row, type TableName } from './tables.js';
import type { Template, TemplateColumn } from './templates.js';
import { DirectRows, type CellValue } from './xlsx-rows.js';
import { aboutTexts, columnHeaders } from './texts-sheets.js';

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
}

export interface XlsxInput {
  file: string;
  template: Template;
  /** Table -> NDJSON spool of its rows, in order. */
  spools: Partial<Record<TableName, string>>;
  overview: OverviewData;
  /** Label/value pairs of the About sheet, in order. */
  about: [string, string | number][];
  /** Fixed timestamps inside the file, so a resumed run yields the same bytes. */
  exportTime: Date;
}

const FLAG_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFE08A' } };
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };

/** Rows read for the column widths: enough to fit real names, bounded whatever the export's size. */
const WIDTH_SAMPLE = 2000;

/** The workbook speaks the run's language: its own headers, contract codes as words. */
function workbookStyle(t: Template): CellStyle {
  return { ...t, words: language() };
}

/** The header of a column in the run's language; a `_code` column is its word column's header plus "code". */
function headerOf(key: string): string {
  const h = columnHeaders as unknown as Record<string, string>;
  if (Object.hasOwn(h, key) && key !== 'code_of') return h[key]!;
  const base = key.replace(/_code$/, '');
  return Object.hasOwn(h, base) ? columnHeaders.code_of({ column: h[base]! }) : key;
}

/** Names and figures first, ids last (a reader looks for the name; the id is for machines). */
function workbookColumns(cols: TemplateColumn[]): TemplateColumn[] {
  const labelled = cols.map((c) => ({ ...c, header: headerOf(c.key) }));
  return [...labelled.filter((c) => c.type !== 'id'), ...labelled.filter((c) => c.type === 'id')];
}

/** The widest a column gets: a finding's message reads better wrapped at 90 than in one endless line. */
const widest = (key: string): number => (key === 'message' ? 90 : 60);

/** Each column as wide as its header and the longest text among the first rows, within bounds. */
function fitWidths(headers: string[], caps: number[], sample: string[][]): number[] {
  return headers.map((h, i) => {
    const longest = sample.reduce((n, r) => Math.max(n, r[i]?.length ?? 0), h.length);
    return Math.min(caps[i]!, Math.max(8, longest + 2));
  });
}

/** A cell value with a real type: numbers and dates as such, the rest as text in the run's words. */
function cellValue(v: unknown, type: ColumnType, style: CellStyle): CellValue {
  if (v === null || v === undefined) return null;
  if ((type === 'number' || type === 'integer') && (typeof v === 'string' || typeof v === 'number')) return Number(plainNumber(v));
  if (type === 'date' && typeof v === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
    if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  }
  return formatCell(v, type, style);
}

/** Landscape, one page wide, the header row repeated on every printed page. */
const PAGE_SETUP: Partial<ExcelJS.PageSetup> = { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '1:1' };

function sheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, widths: number[]): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }], pageSetup: PAGE_SETUP });
  ws.columns = widths.map((width) => ({ width }));
  return ws;
}

function header(ws: ExcelJS.Worksheet, labels: string[]): void {
  const row = ws.addRow(labels);
  row.font = HEADER_FONT;
  row.commit();
}

function filter(ws: ExcelJS.Worksheet, rows: number, cols: number): void {
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows + 1), column: cols } };
}

type Style = Partial<ExcelJS.Style>;

/**
 * exceljs gives every cell a fresh style object, and its styles registry caches by object
 * identity only, so each cell's style would be serialised and looked up again (the
 * workbook's main CPU cost). Cells share one style object per (format, fill, value kind)
 * instead; the kind is in the key because exceljs derives the default number format from
 * the first cell type it sees for an object.
 */
function styleCache(): (value: CellValue, numFmt?: string, fill?: ExcelJS.Fill) => Style {
  const styles = new Map<string, Style>();
  return (value, numFmt, fill) => {
    const kind = value === null ? 'null' : value instanceof Date ? 'date' : typeof value;
    const key = `${kind}\u0000${numFmt ?? ''}\u0000${fill ? 'fill' : ''}`;
    let s = styles.get(key);
    if (!s) {
      s = {};
      if (numFmt) s.numFmt = numFmt;
      if (fill) s.fill = fill;
      styles.set(key, s);
    }
    return s;
  };
}

async function* spoolRows(file: string): AsyncGenerator<Row> {
  const rl = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield JSON.parse(line) as Row;
}

const MAX_PENDING = 4 << 20;

/**
 * exceljs' sheet stream pushes into archiver's entry stream without honouring
 * backpressure, so a large sheet would pile up in memory while zlib catches up. Waiting
 * for that entry stream to drain keeps the pending data under MAX_PENDING.
 */
async function drained(ws: ExcelJS.Worksheet, rows: DirectRows): Promise<void> {
  rows.flush();
  // archiver's entry stream comes from readable-stream 2, which has no writableLength
  const pipe = (ws as unknown as { stream?: { pipes?: (Writable & { _writableState?: { length: number } })[] } }).stream?.pipes?.[0];
  const pending = pipe ? (pipe.writableLength ?? pipe._writableState?.length ?? 0) : 0;
  if (pipe && pending > MAX_PENDING) await once(pipe, 'drain');
}

/** The first rows of a spool as the texts they show, to fit the column widths. */
async function sample(spool: string | null, cells: (r: Row) => string[]): Promise<string[][]> {
  const out: string[][] = [];
  if (!spool) return out;
  for await (const r of spoolRows(spool)) {
    out.push(cells(r));
    if (out.length >= WIDTH_SAMPLE) break;
  }
  return out;
}

const shownText = (v: CellValue): string => (v instanceof Date ? '00.00.0000' : v === null ? '' : String(v));

async function tableSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Template, name: string, templateCols: TemplateColumn[], spool: string): Promise<void> {
  const cols = workbookColumns(templateCols);
  const style = workbookStyle(t);
  const values = (r: Row) => cols.map((c) => cellValue(cellOf(r, c.key), c.type, style));
  const widths = fitWidths(cols.map((c) => c.header), cols.map((c) => widest(c.key)), await sample(spool, (r) => values(r).map(shownText)));
  const ws = sheet(wb, name, widths);
  header(ws, cols.map((c) => c.header));
  const styleOf = styleCache();
  const rows = new DirectRows(ws);
  for await (const r of spoolRows(spool)) {
    const cells = values(r);
    rows.add(cells, cols.map((c, i) => styleOf(cells[i] ?? null, c.type === 'date' ? t.dateFormat : undefined)));
    if (rows.rows % 256 === 0) await drained(ws, rows);
  }
  rows.flush();
  filter(ws, rows.rows, cols.length);
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

async function overviewSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Template, o: OverviewData): Promise<void> {
  const lang = language();
  const fixed = overviewFixed(t);
  const ids = ['property_id', 'usage_unit_id'] as const;
  const style = workbookStyle(t);
  const labels = [...fixed.map((c) => headerOf(c.key)), ...o.metrics.map((m) => `${valueWord('metric', m.metric, lang)} (${valueWord('unit', m.unit, lang)})`), ...ids.map(headerOf)];
  const values = (u: OverviewUnit) => {
    const vals = o.metrics.map((m) => u.values[overviewKey(m.metric, m.unit)]);
    const cells: CellValue[] = [...fixed.map((c) => cellValue(u[c.key], c.type, style)), ...vals.map((v) => (v ? Number(plainNumber(v.value)) : null)), ...ids.map((k) => u[k])];
    return { vals, cells };
  };
  // Figures are sampled too: a number cell shows its digits, so "12345.678" needs its width as much as a name.
  const widths = fitWidths(labels, labels.map(() => 60), await sample(o.spool, (r) => values(r as unknown as OverviewUnit).cells.map(shownText)));
  const ws = sheet(wb, t.sheets.overview, widths);
  header(ws, labels);
  const styleOf = styleCache();
  const rows = new DirectRows(ws);
  for await (const r of o.spool ? spoolRows(o.spool) : []) {
    const { vals, cells } = values(r as unknown as OverviewUnit);
    rows.add(cells, cells.map((v, i) => {
      const figure = i - fixed.length;
      return styleOf(v, undefined, figure >= 0 && vals[figure]?.flagged ? FLAG_FILL : undefined);
    }));
    if (rows.rows % 256 === 0) await drained(ws, rows);
  }
  rows.flush();
  filter(ws, rows.rows, labels.length);
  ws.commit();
}

function aboutSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, t: Template, about: [string, string | number][]): void {
  const ws = sheet(wb, t.sheets.about, [32, 60]);
  header(ws, [aboutTexts.item, aboutTexts.value]);
  for (const [k, v] of about) ws.addRow([k, v]).commit();
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

export async function writeXlsx(input: XlsxInput): Promise<void> {
  const { template: t } = input;
  const stream = createWriteStream(input.file);
  const done = new Promise<void>((resolve, reject) => {
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  // `created` is read in the constructor (before the first zip entry), so it goes in the options.
  const options = { stream, useStyles: true, useSharedStrings: false, created: input.exportTime };
  const wb = new PinnedWorkbookWriter(options as Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions>);
  wb.creator = 'meterdata';
  wb.lastModifiedBy = 'meterdata';
  await overviewSheet(wb, t, input.overview);
  for (const f of t.files) {
    const spool = input.spools[f.table];
    if (spool) await tableSheet(wb, t, f.sheet, f.columns, spool);
  }
  aboutSheet(wb, t, input.about);
  await wb.commit();
  await done;
}
