// Rendering of one cell as text, for CSV. Numbers are always plain notation
// ("0.0000001", never "1e-7"): billing hands over decimal strings, and anything
// else is normalised with decimal.js so that a spreadsheet never sees an exponent.
import { Decimal } from 'decimal.js';
import { valueWord, type ValueKind } from '../../billing/texts-values.js';
import type { Lang } from '../../i18n/index.js';
import type { ColumnType } from './tables.js';

export interface CellStyle {
  decimal: '.' | ',';
  /** Tokens yyyy, mm, dd; e.g. "yyyy-mm-dd" or "dd.mm.yyyy". */
  dateFormat: string;
  booleans: [string, string];
  /** Contract codes (metric, status, ...) as words in this language; null: the codes themselves. */
  words?: Lang | null;
}

const PLAIN = /^-?\d+(\.\d+)?$/;

/** The largest magnitude a spreadsheet cell holds (Excel's 9.99999999999999E+307); beyond it a workbook shows an error or 0. */
export const MAX_CELL_NUMBER = 9.99999999999999e307;

/**
 * Plain decimal notation of a number or decimal string; trailing zeros kept as given.
 * Billing never hands over a value a cell cannot hold (src/billing/plausible.ts); this
 * refuses one anyway, so no file can ever carry Infinity, NaN or an overflowing number.
 */
export function plainNumber(v: string | number): string {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || Math.abs(n) > MAX_CELL_NUMBER) throw new Error(`not a number a spreadsheet cell can hold: ${String(v).slice(0, 40)}`);
  if (typeof v === 'string' && PLAIN.test(v)) return v === '-0' ? '0' : v;
  const s = new Decimal(v).toFixed();
  return s === '-0' ? '0' : s;
}

/** Formats a yyyy-mm-dd date (or a date-time's date part) with the template's tokens. */
export function formatDate(iso: string, format: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso; // not a date: keep what the server sent rather than invent one
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  return format.replace('yyyy', y).replace('mm', mo).replace('dd', d);
}

export function formatCell(value: unknown, type: ColumnType, style: CellStyle): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'number': {
      if (typeof value !== 'number' && typeof value !== 'string') return String(value);
      const s = plainNumber(value);
      return style.decimal === '.' ? s : s.replace('.', style.decimal);
    }
    case 'integer':
      return typeof value === 'number' || typeof value === 'string' ? plainNumber(value) : String(value);
    case 'date':
      return formatDate(String(value), style.dateFormat);
    case 'boolean':
      return value === true ? style.booleans[0] : value === false ? style.booleans[1] : String(value);
    case 'flags':
      return Array.isArray(value) ? [...new Set(value.map(String))].sort().join('|') : String(value);
    default:
      return type.startsWith('value:') && style.words ? valueWord(type.slice('value:'.length) as ValueKind, value, style.words) : String(value);
  }
}

/** What a spreadsheet would read as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell for CSV: one that a spreadsheet would evaluate (a Property named
 * "=HYPERLINK(…)" or "@SUM(…)") gets a leading apostrophe, which Excel and LibreOffice
 * show as text. Numbers never come here: their minus sign stays.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180 quoting: a field with the separator, a quote, CR or LF is quoted and its quotes doubled. */
export function csvField(text: string, separator: string): string {
  if (text.includes(separator) || text.includes('"') || text.includes('\n') || text.includes('\r')) {
    return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

export function csvLine(fields: string[], separator: string, eol: string): string {
  return fields.map((f) => csvField(f, separator)).join(separator) + eol;
}
