// Output of the pure billing module: the rows of the billing sheets and the flags an
// accountant must look at. Writers (CSV/XLSX) and the TUI consume these types.
//
// Money-like quantities are decimal strings in plain notation ("12.5", "-0.001",
// never "1e-7"): billing sums them with decimal arithmetic and writers decide the
// rendering (dot or comma, number cells in XLSX).

export type DecimalString = string;

/** Statuses whose value may be billed. calibration_expired and missing never (rule 5); unknown ones not either. */
export const BILLABLE_STATUSES: readonly string[] = ['measured', 'substituted', 'calculated'];

export type Severity = 'not_billed' | 'review' | 'info';

/** Finding codes and their severity, as a part of meterdata declares the codes it raises. */
export type CodeDeclaration = Readonly<Record<string, Severity>>;

/** Billing's own finding codes; a plausibility rule or an export step declares its own in its file. */
export const BILLING_SEVERITY = {
  CALIBRATION_EXPIRED: 'not_billed',
  MISSING_VALUE: 'not_billed',
  IMPLAUSIBLE_VALUE: 'not_billed',
  IMPLAUSIBLE_SHARE: 'not_billed',
  WEIGHTED_VALUE_MISMATCH: 'not_billed',
  REGISTER_BACKWARDS: 'not_billed',
  // Answers the contract rules out (src/billing/contract.ts): never added up.
  SEGMENTS_OVERLAP: 'not_billed',
  DEVICE_REPEATED: 'not_billed',
  READING_REPEATED: 'not_billed',
  READING_OUTSIDE_WINDOW: 'not_billed',
  SEGMENT_OUTSIDE_RANGE: 'not_billed',
  POINT_REPEATED: 'not_billed',
  POINT_NOT_LISTED: 'not_billed',
  SHARE_NOT_AS_LISTED: 'not_billed',
  METRIC_NOT_AS_LISTED: 'not_billed',
  COPIES_DISAGREE: 'not_billed',
  DEVICE_AT_TWO_POINTS: 'not_billed',
  PLANT_POINT_ALLOCATED: 'not_billed',
  PLANT_POINT_IN_UNITS: 'not_billed',
  SHARE_SUM_ABOVE_ONE: 'not_billed',
  CONTRADICTORY_VALUES: 'not_billed',
  READINGS_MISSING: 'not_billed',
  END_VALUE_NOT_AS_READ: 'not_billed',
  // What the Property's lists show and the answers leave out (src/billing/listed-absent.ts).
  LISTED_POINT_NOT_SENT: 'not_billed',
  LISTED_DEVICE_NOT_SENT: 'not_billed',
  // What an answer says of a listed meter that the list says otherwise (src/billing/listed-facts.ts).
  DEVICE_NOT_AS_LISTED: 'not_billed',
  DIFFERENCE_NOT_AS_LISTED: 'not_billed',
  UNIT_NOT_IN_LIST: 'not_billed',
  UNITS_FEWER_THAN_COUNT: 'not_billed',
  ASSUMED_ZERO_BASELINE: 'review',
  BILLABLE_VALUE_DIFFERS: 'review',
  NOT_SYSTEM_LINKED: 'review',
  UNKNOWN_ENUM_VALUE: 'review',
  SHARE_SUM_MISMATCH: 'review',
  DATA_GAP: 'review',
  DEVICE_GAP: 'review',
  START_VALUE_LATE: 'review',
  DIFFERENCE_METER: 'info',
  DEVICE_REPLACED: 'info',
  DEVICE_REMOVED: 'info',
  SYNTHETIC_VALUE: 'info',
  WEIGHTED_VALUE_ABSENT: 'info',
  WATER_OUTDOOR: 'info',
  READING_NOT_IN_SERIES: 'info',
  UNALLOCATED_POINT: 'info',
} as const satisfies CodeDeclaration;

export type BillingCode = keyof typeof BILLING_SEVERITY;
type BillingSeverities = typeof BILLING_SEVERITY;

/**
 * Every finding code with its severity, as a type: billing's, and the plausibility rules' and export
 * steps' added where they are listed (src/plausibility/rules.ts, src/export/steps/index.ts) with
 * `declare module` from their declarations, so billing imports neither. The table at run time is
 * src/findings' FLAG_SEVERITY.
 */
export interface FlagSeverities extends BillingSeverities {}

export type FlagCode = keyof FlagSeverities;

/** The codes of several declarations as one object type (the listed rules' codes, the steps'). */
export type DeclaredCodes<T extends CodeDeclaration> = (T extends unknown ? (k: T) => void : never) extends (k: infer I) => void ? I : never;

/** One finding. Ids are null where the finding is not about that level. */
export interface Flag {
  code: FlagCode;
  severity: Severity;
  property_id: string;
  usage_unit_id: string | null;
  measuring_point_id: string | null;
  device_id: string | null;
  /** Facts the message template fills in, e.g. { field: 'status', value: 'frozen' }. Never secrets. */
  facts?: Record<string, string>;
}

/** billing.csv: one row per usage unit and metric the unit has points for. */
export interface BillingRow {
  property_id: string;
  property_name: string;
  usage_unit_id: string;
  usage_unit_name: string;
  unit_type: string;
  metric: string;
  unit: string;
  from: string;
  to: string;
  billable_value: DecimalString;
  /** Number of measuring points that fed this row: each once, a point not listed for the unit (POINT_NOT_LISTED) not. */
  points: number;
  /** Sorted, unique. */
  review_flags: FlagCode[];
}

/** segments.csv: one row per unit, point and device segment; a point without segments gets one row with empty device fields. */
export interface SegmentRow {
  property_id: string;
  usage_unit_id: string | null;
  measuring_point_id: string;
  metric: string;
  unit: string;
  unit_share: DecimalString | null;
  is_system_linked: boolean;
  data_gap: boolean;
  is_difference_meter: boolean;
  device_id: string | null;
  serial: string | null;
  manufacturer: string | null;
  installed_at: string | null;
  deinstalled_at: string | null;
  replacement_reason: string | null;
  factor: DecimalString | null;
  baseline_value: DecimalString | null;
  baseline_date: string | null;
  baseline_origin: string | null;
  end_value: DecimalString | null;
  billable_value: DecimalString | null;
  weighted_billable_value: DecimalString | null;
  status: string | null;
  /** What this segment contributes to the bill after the rules (0 for non-billable statuses). */
  billed_value: DecimalString;
  review_flags: FlagCode[];
}

/** readings.csv: one row per monthly reading, each point once. */
export interface ReadingRow {
  measuring_point_id: string;
  device_id: string;
  serial: string;
  at: string;
  /** null where the service sent a number no meter can show (see the IMPLAUSIBLE_VALUE finding). */
  value: DecimalString | null;
  status: string;
  is_synthetic: boolean;
  substitution_method: string | null;
}

/** plant-points.csv: measuring points allocated to no unit (plant room, main meters). */
export interface PlantPointRow {
  property_id: string;
  property_name: string;
  measuring_point_id: string;
  metric: string;
  unit: string;
  localization: string | null;
  is_difference_meter: boolean;
  is_system_linked: boolean;
  billable_value: DecimalString;
  /** Status of the last segment's period consumption, or null without segments. */
  status: string | null;
  review_flags: FlagCode[];
}

/** review.csv: one row per flag, with an accountant-facing message. */
export interface ReviewRow {
  severity: Severity;
  code: FlagCode;
  property_id: string;
  usage_unit_id: string | null;
  measuring_point_id: string | null;
  device_id: string | null;
  message: string;
}
