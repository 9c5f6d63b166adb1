// --benchmark FILE: the landlord's own "average user" (§ 6a Abs. 2 Nr. 3 HeizkostenV) as a
// CSV an accountant writes in Excel: the columns unit_type, service, kwh_per_m2_year and
// source, one line per unit type and service, semicolons and decimal commas as German Excel
// saves them (commas and points too), a byte order mark or none. Every value names its
// source, which the letters print. A value that may hold a thousands separator is refused unless
// the file's separator makes its mark a decimal comma (valueOf). A bad line is one error naming the file, the line and the
// fix (UsageError, exit 2). Pure: text in, the core's BenchmarkTable out (docs/uvi.md).
import { UNIT_TYPES } from '../../api/types.js';
import { UsageError } from '../../core/errors.js';
import { hasControlCharacter } from '../../core/terminal-text.js';
import { parseCsvRecords } from '../../plausibility/index.js';
import { BENCHMARK_LIMIT, BENCHMARK_MIN, MAX_SOURCE, type BenchmarkRow, type BenchmarkService, type BenchmarkTable } from '../benchmark.js';
import { inputTexts as t } from './texts-inputs.js';

export const BENCHMARK_CODE = 'UVI_BENCHMARK_INVALID';
export const BENCHMARK_COLUMNS = ['unit_type', 'service', 'kwh_per_m2_year', 'source'] as const;
const SERVICES: readonly string[] = ['HEATING', 'HOT_WATER'] satisfies BenchmarkService[];
/** Zero-width characters and a stray byte order mark: invisible on the letter, yet part of the text. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/;
/** Digits with one decimal comma or point, a sign allowed so that a negative is told as such. */
const NUMBER = /^([-−+]?)(\d+)(?:([.,])(\d+))?$/;

export { MAX_SOURCE };

const refuse = (message: string, hint: string) => new UsageError(message, hint, BENCHMARK_CODE);

/** Excel's own first line naming the separator ("sep=;"), which Excel reads and hides. */
const SEP_LINE = /^"?sep=([;,])"?[;,]*$/i;

/** The separator that makes the first line with text a header naming unit_type: German Excel's semicolon, else a comma. */
function separatorOf(body: string): string {
  const head = body.split(/\r\n|\n|\r/, 100).find((l) => l.trim() !== '') ?? '';
  const declared = SEP_LINE.exec(head.trim());
  if (declared) return declared[1]!;
  const names = (sep: string) => head.split(sep).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  return names(';').includes('unit_type') || !names(',').includes('unit_type') ? ';' : ',';
}

/**
 * Whether `mark` before exactly three digits may group thousands in a file separated by `separator`.
 * German Excel saves semicolons with decimal commas, its grouping is a point: there "1,180" is 1.18 and
 * "1.180" either 1180 or a decimal point typed by hand. A comma-separated file tells no decimal mark:
 * English Excel writes "1,180" for 1180 and 1.18 as "1.18", LibreOffice or Google Sheets set to German
 * write "1,18" (quoted) and "1.180" for 1180. Either reading could be wrong, so neither is guessed.
 */
const mayGroup = (mark: string, separator: string) => mark === '.' || separator === ',';

/** kWh per m² and year as typed, or the error for its line. */
function valueOf(raw: string, where: { file: string; line: number }, separator: string): number {
  const m = NUMBER.exec(raw);
  if (!m) throw refuse(t.notANumber({ ...where, value: raw.slice(0, 40) }), t.numberHint);
  if (m[3] && m[4]!.length === 3 && mayGroup(m[3], separator))
    throw refuse((m[3] === '.' ? t.thousandsPoint : t.thousandsComma)({ ...where, value: raw }), t.thousandsHint);
  const value = Number(`${m[1] === '' || m[1] === '+' ? '' : '-'}${m[2]}.${m[4] ?? '0'}`);
  if (value <= 0) throw refuse(t.notPositive({ ...where, value: raw }), t.valueHint);
  if (value < BENCHMARK_MIN || value > BENCHMARK_LIMIT)
    throw refuse(t.outside({ ...where, value: raw, min: BENCHMARK_MIN, max: BENCHMARK_LIMIT }), t.valueHint);
  return value;
}

function sourceOf(raw: string, where: { file: string; line: number }): string {
  if (raw === '') throw refuse(t.noSource(where), t.sourceHint);
  if (hasControlCharacter(raw) || INVISIBLE.test(raw)) throw refuse(t.badSource(where), t.sourceHint);
  if (raw.length > MAX_SOURCE) throw refuse(t.longSource({ ...where, max: MAX_SOURCE }), t.sourceHint);
  return raw;
}

/** The header's columns by name, each once, none unknown, none missing. */
function columnsOf(fields: readonly string[], file: string, line: number): Record<(typeof BENCHMARK_COLUMNS)[number], number> {
  const head = fields.map((h) => h.trim().toLowerCase());
  while (head.length > 0 && head.at(-1) === '') head.pop(); // Excel's empty cells after the last column
  for (const [i, column] of head.entries()) {
    if (!(BENCHMARK_COLUMNS as readonly string[]).includes(column))
      throw refuse(t.unknownColumn({ file, line, column: fields[i]!.trim().slice(0, 40) }), t.columnHint);
    if (head.indexOf(column) !== i) throw refuse(t.columnTwice({ file, line, column }), t.columnHint);
  }
  const missing = BENCHMARK_COLUMNS.find((c) => !head.includes(c));
  if (missing) throw refuse(t.noColumn({ file, line, column: missing }), t.columnHint);
  return Object.fromEntries(BENCHMARK_COLUMNS.map((c) => [c, head.indexOf(c)])) as Record<(typeof BENCHMARK_COLUMNS)[number], number>;
}

/** The file's text (as read; a byte order mark is dropped) as the core's table. `file`: as given, for messages. */
export function parseBenchmarkCsv(text: string, file: string): BenchmarkTable {
  const body = text.replace(/^\uFEFF/, '');
  const separator = separatorOf(body);
  const { records, open } = parseCsvRecords(body, separator);
  if (open !== null) throw refuse(t.openQuote({ file, line: open }), t.columnHint);
  const lines = records.filter((r) => r.fields.some((f) => f.trim() !== ''));
  if (lines[0] && SEP_LINE.test(lines[0].fields.join(',').trim())) lines.shift();
  const header = lines.shift();
  if (!header) throw refuse(t.noTable({ file }), t.fileHint);
  const col = columnsOf(header.fields, file, header.line);
  const width = BENCHMARK_COLUMNS.length;
  const rows: BenchmarkRow[] = [];
  const sources: string[] = [];
  const seen = new Map<string, number>();
  for (const { fields, line } of lines) {
    const where = { file, line };
    // Fewer fields, or more that hold something: a decimal comma split the value, or a column is out of place.
    if (fields.length < width || fields.slice(width).some((f) => f.trim() !== ''))
      throw refuse(t.fields({ ...where, n: fields.length, needed: width }), t.fieldsHint);
    const unitType = fields[col.unit_type]!.trim().toLowerCase();
    const service = fields[col.service]!.trim().toUpperCase();
    if (!(UNIT_TYPES as readonly string[]).includes(unitType))
      throw refuse(t.unknownType({ ...where, value: fields[col.unit_type]!.trim().slice(0, 40) }), t.typeHint);
    if (!SERVICES.includes(service)) throw refuse(t.unknownService({ ...where, value: fields[col.service]!.trim().slice(0, 40) }), t.serviceHint);
    const value = valueOf(fields[col.kwh_per_m2_year]!.trim(), where, separator);
    const source = sourceOf(fields[col.source]!.trim(), where);
    const key = `${unitType} ${service}`;
    const first = seen.get(key);
    if (first !== undefined) throw refuse(t.twice({ ...where, key, first }), t.twiceHint({ first, line }));
    seen.set(key, line);
    if (!sources.includes(source)) sources.push(source);
    rows.push({ unit_type: unitType, service: service as BenchmarkService, kwh_per_m2_year: value });
  }
  if (rows.length === 0) throw refuse(t.noTable({ file }), t.fileHint);
  return { source: sources.join('; '), rows };
}
