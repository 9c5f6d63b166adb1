// Model records → wire objects of contract 1.0.0-rc.3 (field order is stable, so answers are
// byte-identical for the same seed). Optional-with-default fields are omitted at their default.
import { UNIT_OF_METRIC } from '../../api/types.js';
import type { AddressRec, Dataset, DeviceRec, PointConsumptionModel, PointRec, PropertyRec, Segment, UnitRec } from '../data/index.js';
import { weightedValue } from '../data/index.js';

const num = (milli: number): number => milli / 1000;

export function addressLine(a: AddressRec): string {
  return `${a.street} ${a.house_number}${a.house_number_addition ?? ''}, ${a.postal_code} ${a.city}`;
}

export function propertyJson(ds: Dataset, p: PropertyRec) {
  return {
    id: ds.propertyId(p),
    tenant_id: ds.tenantId(p.tenantIdx),
    external_ref: null,
    name: p.name,
    addresses: p.addresses,
    usage_unit_count: p.unitCountUnknown ? null : p.unitEnd - p.unitStart,
  };
}

export function unitJson(ds: Dataset, u: UnitRec) {
  const p = ds.propertyByIndex(u.propertyIdx)!;
  const address = p.addresses[u.addressIdx]!;
  return {
    id: ds.unitId(u),
    tenant_id: ds.tenantId(p.tenantIdx),
    property_id: ds.propertyId(p),
    property: { id: ds.propertyId(p), name: p.name, address_line: p.addresses[0] ? addressLine(p.addresses[0]) : null, external_ref: null },
    external_ref: null,
    name: u.name,
    floor: u.floor,
    position: u.position,
    unit_type: u.type,
    area_heated_m2: u.areaHeated,
    area_ww_m2: u.areaWw,
    address,
    measuring_points: ds.pointsOfUnit(u).map(({ point }) => ({
      measuring_point_id: ds.pointId(point),
      metric: point.metric,
      obis: null,
      unit: UNIT_OF_METRIC[point.metric],
      active_device_serial: ds.activeDevice(point)?.serial ?? null,
      is_difference_meter: point.isDifference,
    })),
  };
}

function deviceJson(ds: Dataset, d: DeviceRec) {
  return {
    id: ds.deviceId(d),
    serial: d.serial,
    manufacturer: d.manufacturer,
    device_type: d.deviceType,
    installed_at: d.installedAt,
    deinstalled_at: d.deinstalledAt,
    replacement_reason: d.replacementReason,
    resolution: null,
    factor: Number(d.factor),
  };
}

export function pointJson(ds: Dataset, p: PointRec) {
  const primary = ds.primaryUnit(p);
  const active = ds.activeDevice(p);
  return {
    id: ds.pointId(p),
    usage_unit_id: primary === undefined ? null : ds.unitId(primary),
    property_id: ds.propertyId(p.propertyIdx),
    metric: p.metric,
    obis: null,
    unit: UNIT_OF_METRIC[p.metric],
    localization: p.localization,
    active_device: active && deviceJson(ds, active),
    is_difference_meter: p.isDifference,
    ...(p.isSystemLinked ? {} : { is_system_linked: false }),
    allocations: p.allocations.map((a) => ({ usage_unit_id: ds.unitId(a.unitIdx), share: Number(a.share) })),
  };
}

function segmentJson(ds: Dataset, s: Segment, share: string | undefined) {
  const d = s.device;
  const { id, ...dev } = deviceJson(ds, d);
  delete (dev as { device_type?: string }).device_type;
  return {
    device_id: id,
    ...dev,
    baseline_value: num(s.baselineMilli),
    baseline_date: s.baselineDate,
    baseline_origin: s.baselineOrigin,
    period_consumption: {
      end_value: num(s.endMilli),
      billable_value: Number(s.billable),
      ...(share === undefined ? {} : { weighted_billable_value: Number(weightedValue(s.billable, share)) }),
      status: s.status,
    },
    readings: s.readings.map((r) => ({
      at: r.at,
      value: num(r.milli),
      status: r.status,
      substitution_method: r.substitutionMethod,
      is_synthetic: r.isSynthetic,
    })),
  };
}

/** MeasuringPointConsumption; `share` only for the unit consumption endpoint. */
export function consumptionJson(ds: Dataset, c: PointConsumptionModel, share?: string) {
  const p = c.point;
  return {
    measuring_point_id: ds.pointId(p),
    metric: p.metric,
    obis: null,
    unit: UNIT_OF_METRIC[p.metric],
    ...(c.dataGap ? { data_gap: true } : {}),
    is_difference_meter: p.isDifference,
    ...(p.isSystemLinked ? {} : { is_system_linked: false }),
    ...(share === undefined ? {} : { unit_share: Number(share) }),
    segments: c.segments.map((s) => segmentJson(ds, s, share)),
  };
}
