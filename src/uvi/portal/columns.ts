// The columns of uvi.csv and the letters' review.csv: key, type (how a cell is written,
// in the export's vocabulary: src/export/tables.ts) and header. The built-in layouts are
// `generic` (headers are the keys) and `de` (German headers, for --template de); a template
// renames or picks columns with the export templates' syntax (key, or {key, header}).
import { UsageError } from '../../core/errors.js';
import { inLanguage } from '../../i18n/index.js';
import { columnHeaders, columnTexts } from './texts-columns.js';

export type UviColumnType = 'text' | 'number' | 'boolean' | 'id' | 'flags' | 'value:unit_type';

export const UVI_TABLES = {
  uvi: {
    property_id: 'id',
    property_name: 'text',
    usage_unit_id: 'id',
    usage_unit_name: 'text',
    erp_ref: 'text',
    unit_type: 'value:unit_type',
    month: 'text',
    letter_month: 'boolean',
    service: 'text',
    unit_of_measure: 'text',
    amount: 'number',
    converted: 'boolean',
    estimated: 'boolean',
    errors: 'flags',
    benchmark_amount: 'number',
    native_amount: 'number',
    native_unit: 'text',
    method: 'text',
  },
  'uvi-review': {
    letter: 'text',
    code: 'text',
    property_id: 'id',
    property_name: 'text',
    usage_unit_id: 'id',
    usage_unit_name: 'text',
    erp_ref: 'text',
    service: 'text',
    message: 'text',
  },
} as const satisfies Record<string, Record<string, UviColumnType>>;

export type UviTable = keyof typeof UVI_TABLES;
export const UVI_FILES: Record<UviTable, string> = { uvi: 'uvi.csv', 'uvi-review': 'review.csv' };

export interface UviColumn {
  key: string;
  header: string;
  type: UviColumnType;
}

/** A template's column list: a key, or a key with a header of its own. */
export type ColumnSpec = string | { key: string; header?: string };

/**
 * The columns of `table` in `layout`, or as `spec` picks and renames them (`at` names the
 * template's place for the message). A problem is one line naming the place and the fix.
 */
export function uviColumns(table: UviTable, layout: 'generic' | 'de', spec?: readonly ColumnSpec[], at = `files.${table}.columns`): UviColumn[] {
  const types: Record<string, UviColumnType> = UVI_TABLES[table];
  const headers = inLanguage(columnHeaders, layout === 'de' ? 'de' : 'en') as Record<string, string>;
  const t = columnTexts;
  const fail = (message: string): never => {
    throw new UsageError(message, t.hint, 'EXPORT_TEMPLATE_INVALID');
  };
  const list = spec ?? Object.keys(types);
  if (list.length === 0) fail(t.empty({ at }));
  const keys = new Set<string>();
  const shown = new Set<string>();
  return list.map((c, i) => {
    const { key, header } = typeof c === 'string' ? { key: c, header: undefined } : c;
    if (!Object.hasOwn(types, key)) fail(t.unknownColumn({ at: `${at}[${i}]`, key, known: Object.keys(types).join(', ') }));
    if (keys.has(key)) fail(t.twice({ at: `${at}[${i}]`, key }));
    keys.add(key);
    const name = header?.trim() ? header : headers[key]!;
    if (shown.has(name.trim().toLowerCase())) fail(t.headerTwice({ at: `${at}[${i}]`, header: name }));
    shown.add(name.trim().toLowerCase());
    return { key, header: name, type: types[key]! };
  });
}
