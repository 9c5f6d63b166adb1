// The five output tables: which keys they have and what type each key holds. The
// type decides rendering (CSV text per template, XLSX number/date cells); headers
// and column selection come from templates (templates/*.json).

export type ColumnType = 'text' | 'number' | 'integer' | 'date' | 'boolean' | 'flags' | 'id';

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

export const TABLE_COLUMNS: Record<TableName, Record<string, ColumnType>> = {
  billing: {
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    unit_type: text,
    metric: text,
    unit: text,
    from: date,
    to: date,
    billable_value: num,
    points: 'integer',
    review_flags: flags,
  },
  segments: {
    property_id: id,
    usage_unit_id: id,
    measuring_point_id: id,
    metric: text,
    unit: text,
    unit_share: num,
    is_system_linked: bool,
    data_gap: bool,
    is_difference_meter: bool,
    device_id: id,
    serial: text,
    manufacturer: text,
    installed_at: date,
    deinstalled_at: date,
    replacement_reason: text,
    factor: num,
    baseline_value: num,
    baseline_date: date,
    baseline_origin: text,
    end_value: num,
    billable_value: num,
    weighted_billable_value: num,
    status: text,
    billed_value: num,
    review_flags: flags,
  },
  readings: {
    measuring_point_id: id,
    device_id: id,
    serial: text,
    at: date,
    value: num,
    status: text,
    is_synthetic: bool,
    substitution_method: text,
  },
  'plant-points': {
    property_id: id,
    property_name: text,
    measuring_point_id: id,
    metric: text,
    unit: text,
    localization: text,
    is_difference_meter: bool,
    is_system_linked: bool,
    billable_value: num,
    status: text,
    review_flags: flags,
  },
  review: {
    severity: text,
    code: text,
    property_id: id,
    usage_unit_id: id,
    measuring_point_id: id,
    device_id: id,
    message: text,
  },
  // Written only when the export runs the plausibility review (--compare, --plausibility).
  plausibility: {
    property_id: id,
    property_name: text,
    usage_unit_id: id,
    usage_unit_name: text,
    unit_type: text,
    measuring_point_id: id,
    metric: text,
    unit: text,
    billable_value: num,
    comparison_value: num,
    comparison_status: text,
    change_percent: num,
    area_m2: num,
    value_per_m2: num,
    median_per_m2: num,
    checks: flags,
  },
};

/** A row as billing produces it: keys of TABLE_COLUMNS, values string/number/boolean/array/null. */
export type Row = Record<string, unknown>;
