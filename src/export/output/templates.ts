// Export layouts. Built-in templates are data files (templates/generic.json, de.json);
// a user template is a JSON file that extends one of them and overrides what it names.
// A template shapes the CSV files (separator, decimals, dates, column names, codes or
// words); the workbook's sheet names default to the run's language. Every problem is one
// line naming the file and the JSON path, e.g.
//   template my.json: files.billing.columns[2]: unknown column "foo" (billing has: ...)
import path from 'node:path';
import * as v from 'valibot';
import { readBounded } from '../../core/bounded-read.js';
import { UsageError } from '../../core/errors.js';
import { readResource } from '../../core/resources.js';
import type { Lang } from '../../i18n/index.js';
import type { CellStyle } from './cell-text.js';
import { TABLE_COLUMNS, TABLE_NAMES, type ColumnType, type TableName } from './tables.js';
import { sheetNames } from './texts-sheets.js';
import { pathOf, shown, templateSchema, type Doc, type StyleKey } from './templates-schema.js';
import { templateTexts as tt } from './texts-templates.js';

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
  /** Sheet name in billing.xlsx (the template's, else the run language's). */
  sheet: string;
  columns: TemplateColumn[];
}

export interface Template extends CellStyle {
  name: string;
  /** The language of the layout's words (enum values when `words` is set). */
  language: Lang;
  separator: string;
  bom: boolean;
  eol: '\r\n' | '\n';
  sheets: { overview: string; about: string };
  /** In output order; a table the template drops is absent. */
  files: TemplateFile[];
  /** --unit-refs: billing carries erp_ref and the Overview shows it (src/export/unit-refs.ts). */
  erpRef?: boolean;
}
class Problem extends Error {}

function fail(at: string, msg: string): never {
  throw new Problem(at ? `${at}: ${msg}` : msg);
}

type ColumnSpec = string | { key: string; header?: string | undefined };

function resolveColumns(table: TableName, spec: ColumnSpec[], base: TemplateFile | undefined, at: string): TemplateColumn[] {
  const known = TABLE_COLUMNS[table];
  const seen = new Set<string>();
  const headers = new Map<string, string>();
  return spec.map((c, i) => {
    const { key, header } = typeof c === 'string' ? { key: c, header: undefined } : c;
    if (seen.has(key)) fail(`${at}[${i}]`, tt.twice({ key }));
    seen.add(key);
    const shown = header ?? base?.columns.find((b) => b.key === key)?.header ?? key;
    // Two columns under one header: a reader (an ERP import, --compare DIR) would take the first for both.
    const other = headers.get(shown.trim().toLowerCase());
    if (other !== undefined) fail(`${at}[${i}]${typeof c === 'string' ? '' : '.header'}`, tt.headerTwice({ header: shown, key: other }));
    headers.set(shown.trim().toLowerCase(), key);
    return { key, header: shown, type: known[key]! };
  });
}

/** Applies one template document on top of a base (or builds a built-in from scratch). */
export function applyTemplate(raw: unknown, base: Template | null): Template {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('', tt.notObject);
  const parsed = v.safeParse(templateSchema(), raw, { abortEarly: true });
  if (!parsed.success) fail(pathOf(parsed.issues[0]), parsed.issues[0].message);
  const doc: Doc = parsed.output;
  const need = <T>(key: StyleKey, value: T | undefined, what: () => string): T => value ?? fail(key, tt.required({ what: what() }));
  const language = need('language', doc.language ?? base?.language, () => tt.languageWhat);
  const values = need('values', doc.values ?? (base ? (base.words ? 'words' : 'codes') : undefined), () => tt.valuesWhat);
  const words = values === 'words' ? language : null;
  const separator = need('separator', doc.separator ?? base?.separator, () => tt.separatorWhat);
  const decimal = need('decimal', doc.decimal ?? base?.decimal, () => tt.decimalWhat);
  if (decimal === separator) fail('decimal', tt.decimalIsSeparator({ separator: shown(separator) }));
  const dateFormat = need('date_format', doc.date_format ?? base?.dateFormat, () => tt.dateWhat);
  const booleans = need('booleans', doc.booleans ?? base?.booleans, () => tt.booleansWhat);
  const bom = need('bom', doc.bom ?? base?.bom, () => tt.bomWhat);
  const eolName = need('line_ending', doc.line_ending ?? (base ? (base.eol === '\n' ? 'lf' : 'crlf') : undefined), () => tt.eolWhat);
  const sheets = {
    overview: doc.sheets?.overview ?? base?.sheets.overview ?? sheetNames.overview,
    about: doc.sheets?.about ?? base?.sheets.about ?? sheetNames.about,
  };
  const filesDoc = doc.files ?? {};
  const files: TemplateFile[] = [];
  for (const table of TABLE_NAMES) {
    const at = `files.${table}`;
    const spec = filesDoc[table];
    const baseFile = base?.files.find((f) => f.table === table);
    if (spec === false) continue; // the template drops this table
    if (spec === undefined) {
      if (baseFile) files.push(baseFile);
      else if (!base) fail(at, tt.required({ what: tt.fileWhat }));
      continue;
    }
    const file = spec.file ?? baseFile?.file ?? `${table}.csv`;
    const sheet = spec.sheet ?? baseFile?.sheet ?? sheetNames[table];
    const columns =
      spec.columns === undefined
        ? (baseFile?.columns ?? fail(`${at}.columns`, tt.required({ what: tt.columnsWhat })))
        : resolveColumns(table, spec.columns, baseFile, `${at}.columns`);
    files.push({ table, file, sheet, columns });
  }
  // plausibility.csv is written only with a review, so it alone does not make an export.
  if (files.every((f) => f.table === 'plausibility')) fail('files', tt.everyTable);
  const names = new Set<string>();
  const once = (key: string, at: string, msg: string) => {
    if (names.has(key.toLowerCase())) fail(at, msg);
    names.add(key.toLowerCase());
  };
  for (const f of files) {
    // a multi-profile run's summary beside the profiles' folders: a table of that name was taken for a single run's (round 34 F1)
    if (OWN_FILES.includes(f.file.toLowerCase())) fail(`files.${f.table}`, tt.fileOwn({ name: f.file }));
    once(`file:${f.file}`, `files.${f.table}`, tt.fileTwice({ name: f.file }));
    once(`sheet:${f.sheet}`, `files.${f.table}`, tt.sheetTwice({ name: f.sheet }));
  }
  for (const s of [sheets.overview, sheets.about]) once(`sheet:${s}`, 'sheets', tt.sheetTwice({ name: s }));
  const name = doc.name ?? base?.name ?? 'custom';
  return { name, language, words, separator, decimal, dateFormat, booleans, bom, eol: eolName === 'lf' ? '\n' : '\r\n', sheets, files };
}

/** The CSV files meterdata writes of its own beside a run's tables (PORTFOLIO_SUMMARY, src/export/folder/out-folder.ts). */
export const OWN_FILES: readonly string[] = ['portfolio-summary.csv'];

async function readJson(read: () => Promise<string>, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await read();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(tt.cannotRead({ file: label, error: code ?? String(e) }), tt.cannotReadHint, 'EXPORT_TEMPLATE_INVALID');
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(tt.notJson({ file: label, error: (e as Error).message }), tt.problemHint, 'EXPORT_TEMPLATE_INVALID');
  }
}

async function builtin(name: string): Promise<Template> {
  const doc = await readJson(() => readResource(`templates/${name}.json`), `${name}.json`);
  return applyTemplate(doc, null);
}

/** A template is a few kB of JSON; a pipe, a device or a huge file is not one. */
const MAX_TEMPLATE_BYTES = 1 << 20;

/** Resolves --template: a built-in name, or a JSON file (relative to cwd) extending one. */
export async function loadTemplate(nameOrFile: string, cwd: string): Promise<Template> {
  if ((BUILTIN_TEMPLATES as readonly string[]).includes(nameOrFile)) return builtin(nameOrFile);
  if (!/[./\\]/.test(nameOrFile)) {
    throw new UsageError(tt.noSuch({ name: nameOrFile }), tt.noSuchHint, 'EXPORT_TEMPLATE_INVALID');
  }
  const file = path.resolve(cwd, nameOrFile);
  const doc = await readJson(async () => {
    const read = readBounded(file, MAX_TEMPLATE_BYTES);
    if (read.ok) return read.bytes.toString('utf8');
    const message = {
      folder: tt.isFolder,
      'not-a-file': tt.notAFile,
      'too-large': (p: { file: string }) => tt.tooLarge({ ...p, kb: MAX_TEMPLATE_BYTES >> 10 }),
    }[read.why];
    throw new UsageError(message({ file: nameOrFile }), tt.cannotReadHint, 'EXPORT_TEMPLATE_INVALID');
  }, nameOrFile);
  const ext = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? ((doc as Record<string, unknown>).extends ?? 'generic') : 'generic';
  try {
    if (typeof ext !== 'string' || !(BUILTIN_TEMPLATES as readonly string[]).includes(ext)) fail('extends', tt.extendsWhat);
    return applyTemplate(doc, await builtin(ext));
  } catch (e) {
    if (e instanceof Problem) throw new UsageError(tt.problem({ file: nameOrFile, problem: e.message }), tt.problemHint, 'EXPORT_TEMPLATE_INVALID');
    throw e;
  }
}
