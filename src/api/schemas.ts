// The contract's resources (spec "Resources and their fields") as checkable schemas.
// Required: what the spec marks required plus what src/api/types.ts declares non-optional;
// nullable fields read an absent key as null; spec defaults: is_system_linked true, data_gap false.
import { BASELINE_ORIGINS, METRIC_UNITS, METRICS, READING_STATUSES, REPLACEMENT_REASONS, SUBSTITUTION_METHODS, UNIT_TYPES } from './types.js';
import { arr, bool, date, def, either, int, nul, nullish, num, obj, oneOf, opt, str, type Schema } from './schema.js';

const metric = oneOf(METRICS);
const unit = oneOf(METRIC_UNITS);
const status = oneOf(READING_STATUSES);

export const whoAmI = obj('WhoAmI', {
  tenant_id: str,
  tenant_name: str,
  client_id: str,
  granted_scopes: arr(str),
  // 'all' or a list of uuids; the client checks the string is exactly 'all'
  property_scope: either(arr(str), str),
  token_expires_at: opt(str),
});

const address = obj('Address', {
  street: str,
  house_number: str,
  house_number_addition: nullish(str),
  postal_code: str,
  city: str,
  country_code: str,
});

export const property = obj('Property', {
  id: str,
  tenant_id: str,
  external_ref: nullish(str),
  name: str,
  addresses: arr(address),
  usage_unit_count: nullish(int),
});

const pointSummary = obj('MeasuringPointSummary', {
  measuring_point_id: str,
  metric,
  obis: nullish(str),
  unit,
  active_device_serial: nullish(str),
  is_difference_meter: bool,
});

export const usageUnit = obj('UsageUnit', {
  id: str,
  tenant_id: str,
  property_id: str,
  property: obj('PropertySummary', { id: str, name: str, address_line: nullish(str), external_ref: nullish(str) }),
  external_ref: nullish(str),
  name: str,
  floor: nullish(str),
  position: nullish(str),
  unit_type: oneOf(UNIT_TYPES),
  area_heated_m2: nullish(num),
  area_ww_m2: nullish(num),
  address,
  measuring_points: arr(pointSummary),
});

const device = obj('Device', {
  id: str,
  serial: str,
  manufacturer: str,
  device_type: opt(str),
  installed_at: nullish(date),
  deinstalled_at: nullish(date),
  replacement_reason: nullish(oneOf(REPLACEMENT_REASONS)),
  resolution: nullish(num),
  factor: num,
});

/** The contract leaves every field but property_id "not shown" as to required-ness. */
export const measuringPoint = obj('MeasuringPoint', {
  id: opt(str),
  usage_unit_id: opt(nul(str)),
  property_id: str,
  metric: opt(metric),
  obis: opt(nul(str)),
  unit: opt(unit),
  localization: opt(nul(str)),
  active_device: opt(nul(device)),
  is_difference_meter: opt(bool),
  is_system_linked: def(bool, true),
  allocations: opt(arr(obj('Allocation', { usage_unit_id: str, share: num }))),
});

const reading = obj('MeterReading', {
  at: date,
  value: num,
  status,
  substitution_method: nullish(oneOf(SUBSTITUTION_METHODS)),
  is_synthetic: bool,
});

const segment = obj('DeviceSegment', {
  device_id: str,
  serial: str,
  manufacturer: str,
  installed_at: nullish(date),
  deinstalled_at: nullish(date),
  replacement_reason: nullish(oneOf(REPLACEMENT_REASONS)),
  resolution: nullish(num),
  factor: num,
  baseline_value: num,
  baseline_date: date,
  baseline_origin: opt(oneOf(BASELINE_ORIGINS)),
  period_consumption: obj('PeriodConsumption', {
    end_value: num,
    billable_value: num,
    weighted_billable_value: opt(num),
    status,
  }),
  readings: arr(reading),
});

export const pointConsumption = obj('MeasuringPointConsumption', {
  measuring_point_id: str,
  metric,
  obis: nullish(str),
  unit,
  data_gap: def(bool, false),
  is_difference_meter: bool,
  is_system_linked: def(bool, true),
  unit_share: opt(num),
  segments: arr(segment),
});

export const unitConsumption = obj('UnitConsumption', {
  usage_unit_id: str,
  external_ref: nullish(str),
  from: date,
  to: date,
  measuring_points: arr(pointConsumption),
});

/** List envelope. A missing next_cursor is an error, not "last page": guessing would drop data silently. */
export function page(item: Schema): Schema {
  return obj('Page', { data: arr(item), next_cursor: nul(str), prev_cursor: nullish(str) });
}
