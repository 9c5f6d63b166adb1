// The Overview sheet's rows: one per unit with its billed totals, one column per (metric, unit).
import { compareUnits } from '../../../../billing/order.js';
import type { OverviewBilling, OverviewProperty, OverviewUnitRef } from '../../format.js';
import { asksAction } from '../../../overview-marks.js';
import { overviewKey } from '../../tables.js';
import type { OverviewUnit } from './xlsx-writer.js';

export type MetricUnit = { metric: string; unit: string };

const METRIC_ORDER = ['heat', 'hca', 'water_warm', 'water_cold', 'water_outdoor', 'electricity', 'gas'];

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function metricRank(m: string): number {
  const i = METRIC_ORDER.indexOf(m);
  return i < 0 ? METRIC_ORDER.length : i;
}

/** The Overview's columns in sheet order. */
export function overviewColumns(pairs: Iterable<MetricUnit>): MetricUnit[] {
  return [...pairs].sort((a, b) => metricRank(a.metric) - metricRank(b.metric) || cmp(a.metric, b.metric) || cmp(a.unit, b.unit));
}

/**
 * A Property's Overview rows: units in billing order, then units without any billing row
 * (no points) in their place in the one unit order. Adds each new (metric, unit) column to `columns`.
 */
export function overviewRows(billing: OverviewBilling, property: OverviewProperty, units: OverviewUnitRef[], columns: Map<string, MetricUnit>): OverviewUnit[] {
  const byUnit = new Map<string, OverviewUnit>();
  for (const b of billing) {
    let row = byUnit.get(b.usage_unit_id);
    if (!row) {
      row = {
        property_id: b.property_id,
        property_name: b.property_name,
        usage_unit_id: b.usage_unit_id,
        usage_unit_name: b.usage_unit_name,
        unit_type: b.unit_type,
        erp_ref: b.erp_ref,
        values: {},
      };
      byUnit.set(b.usage_unit_id, row);
    }
    const flagged = b.review_flags.some(asksAction);
    const key = overviewKey(b.metric, b.unit);
    row.values[key] = { value: b.billable_value, flagged };
    if (!columns.has(key)) columns.set(key, { metric: b.metric, unit: b.unit });
  }
  const rest = units.filter((u) => !byUnit.has(u.id));
  const rows: OverviewUnit[] = [
    ...byUnit.values(),
    ...rest.map((u) => ({
      property_id: property.id,
      property_name: property.name,
      usage_unit_id: u.id,
      usage_unit_name: u.name,
      unit_type: u.unit_type,
      erp_ref: u.erp_ref,
      values: {},
    })),
  ];
  // Units without a billed row take their place in the one unit order, not the end.
  rows.sort((a, b) =>
    compareUnits(
      { id: a.usage_unit_id, name: a.usage_unit_name, unit_type: a.unit_type },
      { id: b.usage_unit_id, name: b.usage_unit_name, unit_type: b.unit_type },
    ),
  );
  return rows;
}
