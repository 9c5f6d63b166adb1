// An earlier export's billing.csv and plant-points.csv read back into figures, so a
// comparison with a folder bills nothing twice and costs no request. Pure: text in.
// A layout that writes words (the `de` template: "Wärme", "m³") is read back to the codes.
import { valueCode } from '../billing/texts-values.js';
import { tableTexts as t } from './texts-tables.js';
import type { Figure } from './types.js';

/** One record of a CSV text and the line it starts on (1-based; a quoted field may span lines). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * RFC 4180 records (quoted fields may hold the separator, quotes and line breaks), with
 * the line each starts on; `open` is the line of a quote never closed, else null.
 */
export function parseCsvRecords(text: string, separator: string): { records: CsvRecord[]; open: number | null } {
  const records: CsvRecord[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let quoteAt = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
    if (quoted) {
      if (c !== '"') {
        // A run of plain characters at once: one character at a time builds a rope per field
        // (a million short lines took 1.5 GB). Line breaks stop the run, so lines are counted.
        const end = runEnd(text, i + 1, '');
        field += text.slice(i, end);
        i = end - 1;
      } else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === '') {
      quoted = true;
      quoteAt = line;
    } else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') {
        i++;
        line++;
      }
      row.push(field);
      records.push({ fields: row, line: start });
      row = [];
      field = '';
      start = line;
    } else {
      const end = runEnd(text, i + 1, separator);
      field += text.slice(i, end);
      i = end - 1;
    }
  }
  if (field !== '' || row.length > 0) records.push({ fields: [...row, field], line: start });
  return { records, open: quoted ? quoteAt : null };
}

/** Where the run of characters from `from` ends: at a quote, a line break or the separator. */
function runEnd(text: string, from: number, separator: string): number {
  const sep = separator === '' ? -1 : separator.charCodeAt(0);
  let j = from;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 34 || d === 10 || d === 13 || d === sep) break;
  }
  return j;
}

/** RFC 4180 fields of every record. */
export function parseCsv(text: string, separator: string): string[][] {
  return parseCsvRecords(text, separator).records.map((r) => r.fields);
}

export interface TableLayout {
  /** Column key -> its header in this export's template. */
  headers: Record<string, string>;
  separator: string;
  decimal: '.' | ',';
}

const BILLING_KEYS = ['property_id', 'property_name', 'usage_unit_id', 'usage_unit_name', 'unit_type', 'metric', 'unit', 'billable_value', 'review_flags'];
const PLANT_KEYS = ['property_id', 'property_name', 'measuring_point_id', 'metric', 'unit', 'billable_value', 'review_flags'];

/** Reads one table; throws an Error naming the missing column or the bad line. */
function table(text: string, layout: TableLayout, keys: string[], name: string): Record<string, string>[] {
  const [head, ...rows] = parseCsv(text, layout.separator);
  const at: Record<string, number> = {};
  for (const k of keys) {
    const header = layout.headers[k];
    const i = header === undefined ? -1 : (head ?? []).indexOf(header);
    if (i < 0) throw new Error(t.noColumn({ table: name, header: JSON.stringify(header ?? k), key: k }));
    at[k] = i;
  }
  return rows
    .filter((r) => !(r.length === 1 && r[0] === ''))
    .map((r, n) => {
      if (r.length !== head!.length) throw new Error(t.fields({ table: name, line: n + 2, n: r.length, header: head!.length }));
      return Object.fromEntries(keys.map((k) => [k, r[at[k]!]!]));
    });
}

function value(v: string, layout: TableLayout, where: string): string {
  const plain = layout.decimal === ',' ? v.replace(',', '.') : v;
  if (!/^-?\d+(\.\d+)?$/.test(plain)) throw new Error(t.notNumber({ where, value: v }));
  return plain;
}

const flagsOf = (v: string): string[] => v.split('|').filter(Boolean);
const orNull = (v: string): string | null => (v === '' ? null : v);

/** Figures of an earlier export from its billing and plant-point tables. */
export function figuresFromTables(billingCsv: string, plantCsv: string | null, layouts: { billing: TableLayout; plant: TableLayout | null }): Figure[] {
  const units = table(billingCsv, layouts.billing, BILLING_KEYS, t.billingTable).map((r, i): Figure => ({
    kind: 'unit',
    property_id: r.property_id!,
    property_name: r.property_name!,
    usage_unit_id: r.usage_unit_id!,
    usage_unit_name: r.usage_unit_name!,
    unit_type: orNull(valueCode('unit_type', r.unit_type!)),
    measuring_point_id: null,
    metric: valueCode('metric', r.metric!),
    unit: valueCode('unit', r.unit!),
    value: value(r.billable_value!, layouts.billing, t.tableLine({ table: t.billingTable, line: i + 2 })),
    flags: flagsOf(r.review_flags!),
  }));
  const plant =
    plantCsv === null || layouts.plant === null
      ? []
      : table(plantCsv, layouts.plant, PLANT_KEYS, t.plantTable).map((r, i): Figure => ({
          kind: 'plant',
          property_id: r.property_id!,
          property_name: r.property_name!,
          usage_unit_id: null,
          usage_unit_name: null,
          unit_type: null,
          measuring_point_id: r.measuring_point_id!,
          metric: valueCode('metric', r.metric!),
          unit: valueCode('unit', r.unit!),
          value: value(r.billable_value!, layouts.plant!, t.tableLine({ table: t.plantTable, line: i + 2 })),
          flags: flagsOf(r.review_flags!),
        }));
  return [...units, ...plant];
}
