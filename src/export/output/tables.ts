// The output tables: which keys they have and what type each key holds. The type
// decides rendering (CSV text per template, XLSX number/date cells, a contract code as a
// word or as itself); CSV headers and column selection come from templates (templates/*.json).
import type { ValueKind } from '../../billing/texts-values.js';

/** `value:<kind>`: a contract code (metric, status, ...) that a reader sees as a word. */
export type ColumnType = 'text' | 'number' | 'integer' | 'date' | 'boolean' | 'flags' | 'id' | `value:${ValueKind}`;

/** One Overview column per (metric, unit) pair, as billing groups its rows: a metric sent with two units is two columns, never one mixed sum. */
export function overviewKey(metric: string, unit: string): string {
  return JSON.stringify([metric, unit]);
}

export const TABLE_NAMES = ['billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility'] as const;
export type TableName = (typeof TABLE_NAMES)[number];

const id = 'id' as const;
const text = 'text' as const;
const num = 'number' as const;
const date = 'date' as const;
const bool = 'boolean' as const;
const flags = 'flags' as const;
const metric = 'value:metric' as const;
const unit = 'value:unit' as const;
const status = 'value:status' as const;

const COLUMNS: Record<TableName, Record<string, ColumnType>> = {
  billing: {
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    erp_ref: text,
    unit_type: 'value:unit_type',
    metric,
    unit,
    from: date,
    to: date,
    billable_value: num,
    points: 'integer',
    review_flags: flags,
  },
  segments: {
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    measuring_point_id: id,
    metric,
    unit,
    unit_share: num,
    is_system_linked: bool,
    data_gap: bool,
    is_difference_meter: bool,
    device_id: id,
    serial: text,
    manufacturer: text,
    installed_at: date,
    deinstalled_at: date,
    replacement_reason: 'value:replacement_reason',
    factor: num,
    baseline_value: num,
    baseline_date: date,
    baseline_origin: 'value:baseline_origin',
    end_value: num,
    billable_value: num,
    weighted_billable_value: num,
    status,
    billed_value: num,
    review_flags: flags,
  },
  readings: {
    measuring_point_id: id,
    usage_unit_name: text,
    metric,
    unit,
    device_id: id,
    serial: text,
    at: date,
    value: num,
    status,
    is_synthetic: bool,
    substitution_method: 'value:substitution_method',
  },
  'plant-points': {
    property_id: id,
    property_name: text,
    measuring_point_id: id,
    metric,
    unit,
    localization: text,
    is_difference_meter: bool,
    is_system_linked: bool,
    billable_value: num,
    status,
    review_flags: flags,
  },
  review: {
    severity: 'value:severity',
    code: text,
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    measuring_point_id: id,
    metric,
    localization: text,
    device_id: id,
    serial: text,
    message: text,
  },
  // Written only when the export runs the plausibility review (every export but --no-plausibility).
  plausibility: {
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    unit_type: 'value:unit_type',
    measuring_point_id: id,
    metric,
    unit,
    billable_value: num,
    comparison_value: num,
    comparison_status: 'value:comparison_status',
    change_percent: num,
    area_m2: num,
    value_per_m2: num,
    median_per_m2: num,
    checks: flags,
    findings: text,
  },
};

/** `<key>_code` for every word column: the contract's code, whatever the layout (an ERP import matches on it). */
const CODE_SUFFIX = '_code';

export const TABLE_COLUMNS = Object.fromEntries(
  Object.entries(COLUMNS).map(([table, cols]) => [
    table,
    {
      ...cols,
      ...Object.fromEntries(
        Object.entries(cols)
          .filter(([, t]) => t.startsWith('value:'))
          .map(([k]) => [`${k}${CODE_SUFFIX}`, 'text']),
      ),
    },
  ]),
) as Record<TableName, Record<string, ColumnType>>;

/** The value of `key` in a row: a `_code` column shows its word column's raw code. */
export function cellOf(row: Row, key: string): unknown {
  if (key in row || !key.endsWith(CODE_SUFFIX)) return row[key];
  return row[key.slice(0, -CODE_SUFFIX.length)];
}

/** A row as billing produces it: keys of TABLE_COLUMNS, values string/number/boolean/array/null. */
export type Row = Record<string, unknown>;
