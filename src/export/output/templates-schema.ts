// The schema of an export template document (src/export/templates.ts reads and applies it).
import * as v from 'valibot';
import { TABLE_COLUMNS, TABLE_NAMES, type TableName } from './tables.js';
import { templateTexts as tt } from './texts-templates.js';

// An apostrophe too: the print titles name a sheet in quotes, which exceljs does not escape.
const SHEET_NAME_BAD = /[[\]:*?/\\']/;
const FILE_NAME_OK = /^[^/\\\0.][^/\\\0]*\.csv$/;
/** A file name may have 255 bytes; its temporary name (".<name>.partial") adds 9, and a lock or copy a few more. */
export const FILE_NAME_MAX_BYTES = 200;

// The schema of a template document. Every setting is optional: a user template names only
// what it changes, and applyTemplate requires the rest of a built-in. Messages are
// functions, so they are rendered in the run's language when a problem is found.
type Issue = v.BaseIssue<unknown>;
export const shown = (x: unknown): string => JSON.stringify(x) ?? String(x);
const must = (what: () => string) => (i: Issue) => tt.mustBe({ what: what(), got: shown(i.input) });
function strict<E extends v.ObjectEntries>(entries: E, what: () => string) {
  return v.strictObject(entries, (i) => (i.expected === 'never' ? tt.unknownSetting({ allowed: Object.keys(entries).join(', ') }) : must(what)(i)));
}
const text = v.string(must(() => tt.text));
const nonEmpty = (what: () => string) => v.pipe(v.string(must(what)), v.minLength(1, must(what)));
const sheetName = v.pipe(
  v.string(() => tt.sheetName),
  v.check(
    (s) => s.length > 0 && s.length <= 31 && !SHEET_NAME_BAD.test(s),
    () => tt.sheetName,
  ),
);

function columnKey(table: TableName) {
  const known = TABLE_COLUMNS[table];
  return v.pipe(
    v.string(must(() => tt.columnWhat)),
    v.check(
      (k) => Object.hasOwn(known, k),
      (i) => tt.unknownColumn({ key: shown(i.input), table, known: Object.keys(known).join(', ') }),
    ),
  );
}

function fileSchema(table: TableName) {
  const key = columnKey(table);
  const column = v.lazy((input) => (typeof input === 'string' ? key : strict({ key, header: v.optional(nonEmpty(() => tt.headerWhat)) }, () => tt.columnWhat)));
  const columns = v.pipe(
    v.array(
      column,
      must(() => tt.columnsWhat),
    ),
    v.minLength(
      1,
      must(() => tt.columnsWhat),
    ),
  );
  const file = v.pipe(
    v.string(() => tt.fileName),
    v.regex(FILE_NAME_OK, () => tt.fileName),
    v.check(
      (s) => Buffer.byteLength(s) <= FILE_NAME_MAX_BYTES,
      () => tt.fileName,
    ),
  );
  const entry = strict({ file: v.optional(file), sheet: v.optional(sheetName), columns: v.optional(columns) }, () => tt.fileWhat);
  return v.lazy((input) => (input === false ? v.literal(false) : entry));
}

const STYLE = {
  language: v.picklist(
    ['en', 'de'],
    must(() => tt.languageWhat),
  ),
  values: v.picklist(
    ['codes', 'words'],
    must(() => tt.valuesWhat),
  ),
  separator: v.picklist(
    [',', ';', '\t', '|'],
    must(() => tt.separatorWhat),
  ),
  decimal: v.picklist(
    ['.', ','],
    must(() => tt.decimalWhat),
  ),
  date_format: v.pipe(
    v.string(must(() => tt.dateWhat)),
    v.check(
      (s) => /yyyy/.test(s) && /mm/.test(s) && /dd/.test(s) && s.length <= 12,
      must(() => tt.dateWhat),
    ),
  ),
  booleans: v.pipe(
    v.tuple(
      [nonEmpty(() => tt.booleansWhat), nonEmpty(() => tt.booleansWhat)],
      must(() => tt.booleansWhat),
    ),
    v.check(
      ([t, f]) => t !== f,
      must(() => tt.booleansWhat),
    ),
  ),
  bom: v.boolean(must(() => tt.bomWhat)),
  line_ending: v.picklist(
    ['crlf', 'lf'],
    must(() => tt.eolWhat),
  ),
};

function buildSchema() {
  const optional = <T extends Record<string, v.GenericSchema>>(o: T) =>
    Object.fromEntries(Object.entries(o).map(([k, s]) => [k, v.optional(s)])) as { [K in keyof T]: v.OptionalSchema<T[K], undefined> };
  return strict(
    {
      name: v.optional(text),
      description: v.optional(text),
      extends: v.optional(v.unknown()),
      ...optional(STYLE),
      sheets: v.optional(strict({ overview: v.optional(sheetName), about: v.optional(sheetName) }, () => tt.sheetsWhat)),
      files: v.optional(
        strict(
          Object.fromEntries(TABLE_NAMES.map((t) => [t, v.optional(fileSchema(t))])) as Record<
            TableName,
            v.OptionalSchema<ReturnType<typeof fileSchema>, undefined>
          >,
          () => tt.filesWhat({ tables: TABLE_NAMES.join(', ') }),
        ),
      ),
    },
    () => tt.notObject,
  );
}

/** "files.billing.columns[2].header" */
export function pathOf(issue: Issue): string {
  return (issue.path ?? []).map((p, i) => (typeof p.key === 'number' ? `[${p.key}]` : `${i ? '.' : ''}${String(p.key)}`)).join('');
}

export type Doc = v.InferOutput<ReturnType<typeof buildSchema>>;
export type StyleKey = keyof typeof STYLE;

let schema: ReturnType<typeof buildSchema> | null = null;
/** Built on first use, not when the module loads. */
export function templateSchema(): ReturnType<typeof buildSchema> {
  return (schema ??= buildSchema());
}
