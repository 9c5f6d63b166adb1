// What a workbook cell shows: its header, its typed value in the run's language, and the
// column widths fitted to the first rows. Shared by the sheets written at the end
// (xlsx-writer.ts) and the table rows written ahead (xlsx-fragments.ts).
import { language } from '../../../../i18n/index.js';
import { formatCell, plainNumber, type CellStyle } from '../../cell-text.js';
import type { ColumnType } from '../../tables.js';
import type { Template, TemplateColumn } from '../../templates.js';
import type { CellValue } from './xlsx-rows.js';
import { columnHeaders } from '../../texts-sheets.js';

/** Rows read for the column widths: enough to fit real names, bounded whatever the export's size. */
export const WIDTH_SAMPLE = 2000;

/** The workbook speaks the run's language: its own headers, contract codes as words. */
export function workbookStyle(t: Template): CellStyle {
  return { ...t, words: language() };
}

/** The header of a column in the run's language; a `_code` column is its word column's header plus "code". */
export function headerOf(key: string): string {
  const h = columnHeaders as unknown as Record<string, string>;
  if (Object.hasOwn(h, key) && key !== 'code_of') return h[key]!;
  const base = key.replace(/_code$/, '');
  return Object.hasOwn(h, base) ? columnHeaders.code_of({ column: h[base]! }) : key;
}

/** Names and figures first, ids last (a reader looks for the name; the id is for machines). */
export function workbookColumns(cols: TemplateColumn[]): TemplateColumn[] {
  const labelled = cols.map((c) => ({ ...c, header: headerOf(c.key) }));
  return [...labelled.filter((c) => c.type !== 'id'), ...labelled.filter((c) => c.type === 'id')];
}

/** Columns of prose: their text wraps inside the column (a finding's message, plausibility.csv's findings, a meter's place). */
export const wraps = (key: string): boolean => Object.hasOwn(PROSE, key);

/** A column of prose is always this wide (its rows' heights are reckoned with it, see rowHeight); others at most 60. */
const PROSE: Record<string, number> = { message: 50, findings: 44, localization: 18 };
export const widest = (key: string): number => (wraps(key) ? PROSE[key]! : 60);

/** Excel's tallest row, in points. */
const MAX_ROW_HEIGHT = 409;
/** A line of the default font (Calibri 11), in points, as a row of one line is high. */
const LINE_HEIGHT = 15;

/**
 * The height a row needs for its wrapped texts (points; null: one line). Neither Excel nor
 * LibreOffice fits a row's height to wrapped text when it opens a file, so the rows say it:
 * a line is reckoned as `width` characters (a column's width counts digits, wider than the
 * average letter), so a row rather has room to spare than cuts its last line in print.
 */
export function rowHeight(texts: readonly { text: string; width: number }[]): number | null {
  let lines = 1;
  for (const { text, width } of texts) lines = Math.max(lines, wrappedLines(text, width));
  return lines > 1 ? Math.min(MAX_ROW_HEIGHT, lines * LINE_HEIGHT) : null;
}

function wrappedLines(text: string, width: number): number {
  let lines = 0;
  for (const paragraph of text.split('\n')) {
    lines++;
    let used = 0;
    for (const word of paragraph.split(' ')) {
      if (used > 0 && used + 1 + word.length > width) {
        lines++;
        used = 0;
      }
      used += (used > 0 ? 1 : 0) + word.length;
      // a word longer than the line is broken across lines
      if (used > width) {
        lines += Math.ceil(used / width) - 1;
        used %= width;
      }
    }
  }
  return lines;
}

/**
 * Each column as wide as its header and the longest text among the first WIDTH_SAMPLE
 * rows, within its cap; rows are fed one at a time, so the rows may arrive in pieces.
 */
export class Widths {
  private readonly longest: number[];
  private seen = 0;

  constructor(
    headers: string[],
    private readonly caps: number[],
  ) {
    // a header wraps at its spaces (xlsx-writer.ts): its longest word is what it needs
    this.longest = headers.map((h) => Math.max(...h.split(' ').map((w) => w.length)));
  }

  add(values: readonly CellValue[]): void {
    if (this.seen >= WIDTH_SAMPLE) return;
    this.seen++;
    for (let i = 0; i < this.longest.length; i++) this.longest[i] = Math.max(this.longest[i]!, shownText(values[i] ?? null).length);
  }

  get widths(): number[] {
    return this.longest.map((n, i) => Math.min(this.caps[i]!, Math.max(8, n + 2)));
  }
}

/** A cell value with a real type: numbers and dates as such, the rest as text in the run's words. */
export function cellValue(v: unknown, type: ColumnType, style: CellStyle): CellValue {
  if (v === null || v === undefined) return null;
  if ((type === 'number' || type === 'integer') && (typeof v === 'string' || typeof v === 'number')) return Number(plainNumber(v));
  if (type === 'date' && typeof v === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
    if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  }
  return fitCell(formatCell(v, type, style));
}

/**
 * Excel takes at most 32,767 characters in a cell and calls a workbook with more damaged
 * (it offers a repair that cuts them). A longer text (only a broken or hostile answer has
 * one: a name, a localization) is cut well below that, with "…" marking the cut, never
 * inside a surrogate pair; the CSV files keep it whole.
 */
export const CELL_TEXT_MAX = 32_000;

export function fitCell(text: string): string {
  if (text.length <= CELL_TEXT_MAX) return text;
  const end = /[\uD800-\uDBFF]/.test(text[CELL_TEXT_MAX - 1]!) ? CELL_TEXT_MAX - 1 : CELL_TEXT_MAX;
  return `${text.slice(0, end)}…`;
}

/** The text a cell shows, for its width (a date shows as dd.mm.yyyy or the like). */
const shownText = (v: CellValue): string => (v instanceof Date ? '00.00.0000' : v === null ? '' : String(v));
