// Input and output of the plausibility review. Plain data only: the export's worker
// threads pass these between each other, and an earlier export folder is read into them.
import type { DecimalString, FlagCode } from '../billing/types.js';

/** One billed figure of a period: a unit's row for one metric, or a plant-room/main meter. */
export interface Figure {
  kind: 'unit' | 'plant';
  property_id: string;
  property_name: string;
  /** null for a plant point. */
  usage_unit_id: string | null;
  usage_unit_name: string | null;
  unit_type: string | null;
  /** The plant point's id; null for a unit row. */
  measuring_point_id: string | null;
  metric: string;
  unit: string;
  value: DecimalString;
  /** The row's review_flags as billing wrote them (codes of another version are kept, and ignored). */
  flags: string[];
}

/** A figure of the period being billed, with what the single-period checks need. */
export interface CurrentFigure extends Figure {
  /** area_heated_m2 for heat and hca, area_ww_m2 for water_warm; null otherwise or when unknown. */
  area_m2: number | null;
  /** A device was installed at every point of the row from the range's start to its end. */
  active_whole_range: boolean;
  /** The part of `value` that rests on calculated, substituted or assumed-zero values. */
  estimated_value: DecimalString;
  /** Some segment of the row rests on such a value (also where its part of `value` is 0). */
  estimated?: boolean;
}

/** One device as its segments show it. */
export interface DeviceFact {
  property_id: string;
  usage_unit_id: string | null;
  measuring_point_id: string;
  device_id: string;
  serial: string | null;
  metric: string;
  installed_at: string | null;
  deinstalled_at: string | null;
  /** The service marked some of the device's values `calibration_expired`. */
  expired_marked?: boolean;
  /** None of the device's values was billed (missing, not plausible, a contract break, calibration expired). */
  nothing_billed?: boolean;
  /** The other units a shared point bills this device to (its finding concerns their bills too). */
  shared_with?: string[];
}

export interface ReviewOptions {
  /** Percent, e.g. "25": a change above it is a finding. */
  threshold: DecimalString;
  /** Effective range of the period being billed. */
  range: { from: string; to: string };
}

export type ComparisonState = 'billed' | 'not_billed' | 'absent';

/** plausibility.csv: one row per unit/metric and plant point (of either period). */
export interface PlausibilityRow extends Pick<
  Figure,
  'property_id' | 'property_name' | 'usage_unit_id' | 'usage_unit_name' | 'unit_type' | 'measuring_point_id' | 'metric' | 'unit'
> {
  /** null: the figure exists only in the comparison period. */
  billable_value: DecimalString | null;
  comparison_value: DecimalString | null;
  /** billed / not_billed / absent; null without a comparison period. */
  comparison_status: ComparisonState | null;
  change_percent: DecimalString | null;
  area_m2: DecimalString | null;
  value_per_m2: DecimalString | null;
  median_per_m2: DecimalString | null;
  checks: FlagCode[];
}

/** A comparison not of as many months as the billed period (`ours`, `theirs`): nothing compared, and a finding saying why. */
export interface OtherLength {
  property_id: string;
  ours: number;
  theirs: number;
}
