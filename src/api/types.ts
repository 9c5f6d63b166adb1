// Wire types of the Partner API, contract 1.0.0-rc.3 (shared/spec). Shared by the
// sandbox (which produces them), the API client (which validates them) and billing.
//
// Enums are open: the contract says clients must tolerate unknown values, so every
// enum type is `Known | (string & {})` and code must handle the unknown case.

export const CONTRACT_VERSION = '1.0.0-rc.3';

export type Open<T extends string> = T | (string & {});

export const METRICS = ['heat', 'hca', 'water_cold', 'water_warm', 'electricity', 'gas', 'water_outdoor'] as const;
export type KnownMetric = (typeof METRICS)[number];
export type Metric = Open<KnownMetric>;

export const METRIC_UNITS = ['kWh', 'm3', 'unit'] as const;
export type MetricUnit = Open<(typeof METRIC_UNITS)[number]>;

export const UNIT_TYPES = ['residential', 'commercial', 'technical', 'traffic'] as const;
export type UnitType = Open<(typeof UNIT_TYPES)[number]>;

export const READING_STATUSES = ['measured', 'substituted', 'calculated', 'missing', 'calibration_expired'] as const;
export type ReadingStatus = Open<(typeof READING_STATUSES)[number]>;

export const SUBSTITUTION_METHODS = [
  'linear_interpolation',
  'degree_day_weighted',
  'last_value_forward',
  'weighted_recent_2values',
  'weighted_recent_3values',
  'baseline_fallback',
  'baseline_single_value',
] as const;
export type SubstitutionMethod = Open<(typeof SUBSTITUTION_METHODS)[number]>;

export const REPLACEMENT_REASONS = ['EndOfLife', 'Defect', 'PeriodEnd', 'DeviceRemoval', 'Other', 'DeviceReplacement'] as const;
export type ReplacementReason = Open<(typeof REPLACEMENT_REASONS)[number]>;

export const BASELINE_ORIGINS = ['recorded', 'assumed_zero', 'first_reading', 'portal_rule', 'month_end_before_range', 'first_known_in_range', 'none'] as const;
export type BaselineOrigin = Open<(typeof BASELINE_ORIGINS)[number]>;

export const SCOPES = ['read:units', 'read:devices', 'read:readings'] as const;
export type Scope = (typeof SCOPES)[number];

/** ISO 8601 calendar date, yyyy-MM-dd. */
export type IsoDate = string;
/** ISO 8601 date-time. */
export type IsoDateTime = string;
export type Uuid = string;

export interface WhoAmI {
  tenant_id: Uuid;
  tenant_name: string;
  client_id: string;
  granted_scopes: string[];
  /** `all` means every Property, including future ones. */
  property_scope: 'all' | Uuid[];
  /** Omitted when unknown, never null. */
  token_expires_at?: IsoDateTime;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  prev_cursor: string | null;
}

export interface Address {
  street: string;
  house_number: string;
  house_number_addition: string | null;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2; currently always DE. */
  country_code: string;
}

export interface Property {
  id: Uuid;
  tenant_id: Uuid;
  external_ref: string | null;
  name: string;
  /** Every address, including addresses without units. */
  addresses: Address[];
  usage_unit_count: number | null;
}

export interface PropertySummary {
  id: Uuid;
  name: string;
  address_line: string | null;
  external_ref: string | null;
}

export interface MeasuringPointSummary {
  measuring_point_id: Uuid;
  metric: Metric;
  obis: string | null;
  unit: MetricUnit;
  active_device_serial: string | null;
  is_difference_meter: boolean;
}

export interface UsageUnit {
  id: Uuid;
  tenant_id: Uuid;
  property_id: Uuid;
  property: PropertySummary;
  external_ref: string | null;
  name: string;
  floor: string | null;
  position: string | null;
  unit_type: UnitType;
  area_heated_m2: number | null;
  area_ww_m2: number | null;
  address: Address;
  measuring_points: MeasuringPointSummary[];
}

export interface Device {
  id: Uuid;
  serial: string;
  manufacturer: string;
  device_type?: string;
  installed_at: IsoDate | null;
  deinstalled_at: IsoDate | null;
  replacement_reason: ReplacementReason | null;
  resolution: number | null;
  factor: number;
}

export interface Allocation {
  usage_unit_id: Uuid;
  share: number;
}

/** Which fields are required besides property_id is "not shown" in the contract: treat all but property_id as optional. */
export interface MeasuringPoint {
  id?: Uuid;
  /** null for plant-room and main meters allocated to no unit. */
  usage_unit_id?: Uuid | null;
  property_id: Uuid;
  metric?: Metric;
  obis?: string | null;
  unit?: MetricUnit;
  localization?: string | null;
  active_device?: Device | null;
  is_difference_meter?: boolean;
  /** Optional, default true. */
  is_system_linked?: boolean;
  allocations?: Allocation[];
}

export interface MeterReading {
  /** Month end. */
  at: IsoDate;
  value: number;
  status: ReadingStatus;
  substitution_method: SubstitutionMethod | null;
  is_synthetic: boolean;
}

export interface PeriodConsumption {
  end_value: number;
  /** 0 when the status is calibration_expired. */
  billable_value: number;
  /** Only in the unit consumption endpoint: billable_value x unit_share. */
  weighted_billable_value?: number;
  status: ReadingStatus;
}

export interface DeviceSegment {
  device_id: Uuid;
  serial: string;
  manufacturer: string;
  installed_at: IsoDate | null;
  deinstalled_at: IsoDate | null;
  replacement_reason: ReplacementReason | null;
  resolution: number | null;
  factor: number;
  baseline_value: number;
  baseline_date: IsoDate;
  baseline_origin?: BaselineOrigin;
  period_consumption: PeriodConsumption;
  readings: MeterReading[];
}

export interface MeasuringPointConsumption {
  measuring_point_id: Uuid;
  metric: Metric;
  obis: string | null;
  unit: MetricUnit;
  /** Default false: true when the range has no coverage at all (then readings are empty). */
  data_gap?: boolean;
  is_difference_meter: boolean;
  /** Optional, default true. */
  is_system_linked?: boolean;
  /** Only in the unit consumption endpoint. */
  unit_share?: number;
  segments: DeviceSegment[];
}

export interface UnitConsumption {
  usage_unit_id: Uuid;
  external_ref: string | null;
  /** Effective range after widening. */
  from: IsoDate;
  /** Effective range after widening and capping. */
  to: IsoDate;
  measuring_points: MeasuringPointConsumption[];
}

/** RFC 7807 body of every /v1 error. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  trace_id?: string;
}

export const PROBLEM_CODES = [
  'invalid-request',
  'invalid-token',
  'insufficient-scope',
  'resource-not-found',
  'too-many-requests',
  'internal-error',
  'service-unavailable',
] as const;
export type ProblemCode = Open<(typeof PROBLEM_CODES)[number]>;

/** The fragment after `#` in a Problem's `type`: what clients branch on. */
export function problemCode(problem: Pick<Problem, 'type'>): ProblemCode {
  const i = problem.type.lastIndexOf('#');
  return i < 0 ? '' : problem.type.slice(i + 1);
}

/** The unit each known metric resolves to on the server. water_outdoor's is "not shown" in the contract; the sandbox uses m3. */
export const UNIT_OF_METRIC: Record<KnownMetric, MetricUnit> = {
  heat: 'kWh',
  hca: 'unit',
  water_cold: 'm3',
  water_warm: 'm3',
  electricity: 'kWh',
  gas: 'm3',
  water_outdoor: 'm3',
};

export function isKnown<T extends string>(values: readonly T[], v: string): v is T {
  return (values as readonly string[]).includes(v);
}

/** The contract's ids: UUIDs in the canonical 8-4-4-4-12 hex form. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
