// Export layouts. Built-in templates are data files (templates/generic.json, de.json);
// a user template is a JSON file that extends one of them and overrides what it names.
// Every problem is one line naming the file and the JSON path, e.g.
//   template my.json: files.billing.columns[2]: unknown column "foo" (billing has: ...)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { readResource } from '../core/resources.js';
import type { CellStyle } from './format.js';
import { TABLE_COLUMNS, TABLE_NAMES, type ColumnType, type TableName } from './tables.js';

export const BUILTIN_TEMPLATES = ['generic', 'de'] as const;

export interface TemplateColumn {
  key: string;
  header: string;
  type: ColumnType;
}

export interface TemplateFile {
  table: TableName;
  /** CSV file name inside the out folder. */
  file: string;
  /** Sheet name in billing.xlsx. */
  sheet: string;
  columns: TemplateColumn[];
}

export interface Template extends CellStyle {
  name: string;
  language: 'en' | 'de';
  separator: string;
  bom: boolean;
  eol: '\r\n' | '\n';
  sheets: { overview: string; about: string };
  /** In output order; a table the template drops is absent. */
  files: TemplateFile[];
}

const SHEET_NAME_BAD = /[[\]:*?/\\]/;
const FILE_NAME_OK = /^[^/\\\0]+\.csv$/;

class Problem extends Error {}

function fail(at: string, msg: string): never {
  throw new Problem(at ? `${at}: ${msg}` : msg);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const TOP_KEYS = ['name', 'description', 'extends', 'language', 'separator', 'decimal', 'date_format', 'booleans', 'bom', 'line_ending', 'sheets', 'files'];

function checkKeys(obj: Json, allowed: string[], at: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) fail(at ? `${at}.${k}` : k, `unknown setting (allowed: ${allowed.join(', ')})`);
  }
}

function sheetName(v: unknown, at: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 31 || SHEET_NAME_BAD.test(v)) {
    fail(at, 'a sheet name must be 1 to 31 characters without [ ] : * ? / \\');
  }
  return v;
}

function resolveColumns(table: TableName, spec: unknown, base: TemplateFile | undefined, at: string): TemplateColumn[] {
  if (!Array.isArray(spec) || spec.length === 0) fail(at, 'must be a non-empty list of column keys or {"key", "header"} objects');
  const known = TABLE_COLUMNS[table];
  const seen = new Set<string>();
  return spec.map((c, i) => {
    const cat = `${at}[${i}]`;
    const col = typeof c === 'string' ? { key: c } : c;
    if (!isObject(col)) fail(cat, 'must be a column key or {"key", "header"}');
    checkKeys(col, ['key', 'header'], cat);
    const key = col.key;
    if (typeof key !== 'string' || !(key in known)) fail(cat, `unknown column ${JSON.stringify(key)} (${table} has: ${Object.keys(known).join(', ')})`);
    if (seen.has(key)) fail(cat, `column "${key}" is listed twice`);
    seen.add(key);
    const header = col.header ?? base?.columns.find((b) => b.key === key)?.header ?? key;
    if (typeof header !== 'string' || header.length === 0) fail(`${cat}.header`, 'must be a non-empty string');
    return { key, header, type: known[key] as ColumnType };
  });
}

/** Applies one template document on top of a base (or builds a built-in from scratch). */
export function applyTemplate(doc: unknown, base: Template | null): Template {
  if (!isObject(doc)) fail('', 'a template must be a JSON object');
  checkKeys(doc, TOP_KEYS, '');
  const pick = <T>(key: string, ok: (v: unknown) => v is T, what: string, fallback: T | undefined): T => {
    const v = doc[key];
    if (v === undefined) return fallback === undefined ? fail(key, `is required (${what})`) : fallback;
    if (!ok(v)) fail(key, `must be ${what}, not ${JSON.stringify(v)}`);
    return v;
  };
  const str = (v: unknown): v is string => typeof v === 'string';
  const language = pick('language', (v): v is 'en' | 'de' => v === 'en' || v === 'de', '"en" or "de"', base?.language);
  const separator = pick('separator', (v): v is string => v === ',' || v === ';' || v === '\t' || v === '|', '",", ";", "\\t" or "|"', base?.separator);
  const decimal = pick('decimal', (v): v is '.' | ',' => v === '.' || v === ',', '"." or ","', base?.decimal);
  if (decimal === separator) fail('decimal', `cannot equal the separator ${JSON.stringify(separator)}`);
  const dateFormat = pick('date_format', (v): v is string => str(v) && /yyyy/.test(v) && /mm/.test(v) && /dd/.test(v) && v.length <= 12, 'a pattern with yyyy, mm and dd such as "dd.mm.yyyy"', base?.dateFormat);
  const booleans = pick('booleans', (v): v is [string, string] => Array.isArray(v) && v.length === 2 && v.every((b) => str(b) && b.length > 0) && v[0] !== v[1], 'two different words for true and false, e.g. ["ja", "nein"]', base?.booleans);
  const bom = pick('bom', (v): v is boolean => typeof v === 'boolean', 'true or false', base?.bom);
  const eolName = pick('line_ending', (v): v is 'crlf' | 'lf' => v === 'crlf' || v === 'lf', '"crlf" or "lf"', base ? (base.eol === '\n' ? 'lf' : 'crlf') : undefined);
  const sheetsDoc = doc.sheets ?? {};
  if (!isObject(sheetsDoc)) fail('sheets', 'must be an object {"overview", "about"}');
  checkKeys(sheetsDoc, ['overview', 'about'], 'sheets');
  const sheets = {
    overview: sheetName(sheetsDoc.overview ?? base?.sheets.overview ?? fail('sheets.overview', 'is required'), 'sheets.overview'),
    about: sheetName(sheetsDoc.about ?? base?.sheets.about ?? fail('sheets.about', 'is required'), 'sheets.about'),
  };
  const filesDoc = doc.files ?? {};
  if (!isObject(filesDoc)) fail('files', `must be an object keyed by ${TABLE_NAMES.join(', ')}`);
  checkKeys(filesDoc, [...TABLE_NAMES], 'files');
  const files: TemplateFile[] = [];
  for (const table of TABLE_NAMES) {
    const at = `files.${table}`;
    const spec = filesDoc[table];
    const baseFile = base?.files.find((f) => f.table === table);
    if (spec === false) continue; // the template drops this table
    if (spec === undefined) {
      if (baseFile) files.push(baseFile);
      else if (!base) fail(at, 'is required in a built-in template');
      continue;
    }
    if (!isObject(spec)) fail(at, 'must be an object {"file", "sheet", "columns"} or false to leave the table out');
    checkKeys(spec, ['file', 'sheet', 'columns'], at);
    const file = spec.file ?? baseFile?.file ?? `${table}.csv`;
    if (typeof file !== 'string' || !FILE_NAME_OK.test(file) || file.startsWith('.')) fail(`${at}.file`, 'must be a plain file name ending in .csv');
    const sheet = sheetName(spec.sheet ?? baseFile?.sheet ?? table, `${at}.sheet`);
    const columns = spec.columns === undefined && baseFile ? baseFile.columns : resolveColumns(table, spec.columns, baseFile, `${at}.columns`);
    files.push({ table, file, sheet, columns });
  }
  // plausibility.csv is written only with a review, so it alone does not make an export.
  if (files.every((f) => f.table === 'plausibility')) fail('files', 'leaves out every table');
  const names = new Set<string>();
  for (const f of files) {
    for (const n of [`file:${f.file.toLowerCase()}`, `sheet:${f.sheet.toLowerCase()}`]) {
      if (names.has(n)) fail(`files.${f.table}`, `${n.replace(':', ' name ')} is used twice`);
      names.add(n);
    }
  }
  for (const s of [sheets.overview, sheets.about]) {
    if (names.has(`sheet:${s.toLowerCase()}`)) fail('sheets', `sheet name "${s}" is used twice`);
    names.add(`sheet:${s.toLowerCase()}`);
  }
  const name = typeof doc.name === 'string' ? doc.name : (base?.name ?? 'custom');
  return { name, language, separator, decimal, dateFormat, booleans, bom, eol: eolName === 'lf' ? '\n' : '\r\n', sheets, files };
}

async function readJson(read: () => Promise<string>, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await read();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--template: cannot read ${label} (${code ?? String(e)}).`, 'Pass generic, de, or the path of a template JSON file (see docs/export.md).', 'EXPORT_TEMPLATE_INVALID');
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`template ${label}: not valid JSON (${(e as Error).message}).`, 'Fix the file; docs/export.md describes the template format.', 'EXPORT_TEMPLATE_INVALID');
  }
}

async function builtin(name: string): Promise<Template> {
  const doc = await readJson(() => readResource(`templates/${name}.json`), `${name}.json`);
  return applyTemplate(doc, null);
}

/** Resolves --template: a built-in name, or a JSON file (relative to cwd) extending one. */
export async function loadTemplate(nameOrFile: string, cwd: string): Promise<Template> {
  if ((BUILTIN_TEMPLATES as readonly string[]).includes(nameOrFile)) return builtin(nameOrFile);
  if (!/[./\\]/.test(nameOrFile)) {
    throw new UsageError(`--template: no template named "${nameOrFile}".`, `Use ${BUILTIN_TEMPLATES.join(' or ')}, or the path of a template JSON file.`, 'EXPORT_TEMPLATE_INVALID');
  }
  const file = path.resolve(cwd, nameOrFile);
  const doc = await readJson(() => readFile(file, 'utf8'), nameOrFile);
  const ext = isObject(doc) ? (doc.extends ?? 'generic') : 'generic';
  try {
    if (typeof ext !== 'string' || !(BUILTIN_TEMPLATES as readonly string[]).includes(ext)) fail('extends', `must be ${BUILTIN_TEMPLATES.map((b) => `"${b}"`).join(' or ')}`);
    return applyTemplate(doc, await builtin(ext));
  } catch (e) {
    if (e instanceof Problem) {
      throw new UsageError(`template ${nameOrFile}: ${e.message}.`, 'Fix the template file; docs/export.md describes the format.', 'EXPORT_TEMPLATE_INVALID');
    }
    throw e;
  }
}
