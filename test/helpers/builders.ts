// Builders of Partner API wire objects for unit tests. Every builder takes overrides;
// ids come from a counter so each object is distinct unless a test pins an id.
import type {
  DeviceSegment,
  MeasuringPoint,
  MeasuringPointConsumption,
  MeasuringPointSummary,
  MeterReading,
  PeriodConsumption,
  Property,
  UnitConsumption,
  UsageUnit,
  WhoAmI,
} from '../../src/api/types.js';
import type { PropertyInput } from '../../src/billing/index.js';
import { monthEndOnOrBefore } from '../../src/billing/month-end.js';
import { BILLABLE_STATUSES } from '../../src/billing/types.js';

let counter = 0;
/** A valid UUID made from a number: uuid(7) → 00000000-0000-4000-8000-000000000007. */
export function uuid(n: number = ++counter + 0x100000): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export const PROPERTY = { id: uuid(1), name: 'Lindenstraße 12' };
export const RANGE = { from: '2025-01-01', to: '2025-12-31' };

/** The tenant every builder's object belongs to. */
export const TENANT = uuid(2);

const ADDRESS = { street: 'Lindenstraße', house_number: '12', house_number_addition: null, postal_code: '10115', city: 'Berlin', country_code: 'DE' };

/** What /whoami says for a signed-in demo client with every scope: all Properties unless a list is given. */
export function aWhoAmI(overrides: Partial<WhoAmI> = {}): WhoAmI {
  return {
    tenant_id: TENANT,
    tenant_name: 'Hausverwaltung Test',
    client_id: 'sandbox-demo-client',
    granted_scopes: ['read:units', 'read:devices', 'read:readings'],
    property_scope: 'all',
    ...overrides,
  };
}

/** A Property with one address and two units. */
export function aProperty(overrides: Partial<Property> = {}): Property {
  return { id: uuid(), tenant_id: TENANT, external_ref: null, name: PROPERTY.name, addresses: [ADDRESS], usage_unit_count: 2, ...overrides };
}

export function aReading(overrides: Partial<MeterReading> = {}): MeterReading {
  return { at: '2025-12-31', value: 110, status: 'measured', substitution_method: null, is_synthetic: false, ...overrides };
}

export type SegmentOverrides = Omit<Partial<DeviceSegment>, 'period_consumption'> & { period_consumption?: Partial<PeriodConsumption> };

/**
 * A measured segment billing 10 (weighted 10, i.e. unit_share 1), baseline recorded at 100. A period_consumption key overridden with undefined is left out.
 * A weighted value given without a billable value is a unit_share 1 segment: the billable value follows it (billing refuses a weighted value that is not billable × share).
 */
const readingDay = (installed: string | null, removed: string | null): string => {
  if (installed !== null && installed > RANGE.to) return installed;
  const end = removed !== null && removed < RANGE.to ? removed : RANGE.to;
  // the last month end it was installed, which its value stands on (month-end.ts); between two month ends the removal day
  const monthEnd = monthEndOnOrBefore(end);
  return installed !== null && monthEnd < installed ? end : monthEnd;
};

export function aSegment(overrides: SegmentOverrides = {}): DeviceSegment {
  const { period_consumption: given, ...rest } = overrides;
  const follows = typeof given?.weighted_billable_value === 'number' && !(given && 'billable_value' in given);
  const period_consumption = follows ? { billable_value: given!.weighted_billable_value!, ...given } : given;
  const segment: DeviceSegment = {
    device_id: uuid(),
    serial: `SN-${counter}`,
    manufacturer: 'Qundis',
    installed_at: '2020-03-15',
    deinstalled_at: null,
    replacement_reason: null,
    resolution: null,
    factor: 1,
    baseline_value: 100,
    baseline_date: '2024-12-31',
    baseline_origin: 'recorded',
    ...rest,
    // read while installed (READING_OUTSIDE_WINDOW), at the window's last month end in the range (readingDay)
    readings: rest.readings ?? [aReading({ at: readingDay(rest.installed_at === undefined ? '2020-03-15' : rest.installed_at, rest.deinstalled_at ?? null) })],
    period_consumption: { end_value: 110, billable_value: 10, weighted_billable_value: 10, status: 'measured', ...period_consumption },
  };
  // the register gives the value billed ((end - start) x factor, BILLABLE_VALUE_DIFFERS otherwise), unless the case says its end value
  const start = segment.baseline_value;
  const billed = segment.period_consumption.billable_value;
  if (period_consumption?.end_value === undefined && segment.factor > 0 && Number.isFinite(billed) && Number.isFinite(start))
    segment.period_consumption.end_value = start + billed / segment.factor;
  // the default reading of a value to bill is its end value (END_VALUE_NOT_AS_READ)
  if (rest.readings === undefined && BILLABLE_STATUSES.includes(segment.period_consumption.status))
    segment.readings[0]!.value = segment.period_consumption.end_value;
  const pc = segment.period_consumption as unknown as Record<string, unknown>;
  for (const key of Object.keys(pc)) if (pc[key] === undefined) delete pc[key];
  return segment;
}

/** A heat point under a unit with unit_share 1 and one aSegment(). */
export function aPointConsumption(overrides: Partial<MeasuringPointConsumption> = {}): MeasuringPointConsumption {
  return {
    measuring_point_id: uuid(),
    metric: 'heat',
    obis: null,
    unit: 'kWh',
    data_gap: false,
    is_difference_meter: false,
    is_system_linked: true,
    unit_share: 1,
    segments: [aSegment()],
    ...overrides,
  };
}

/** A heat point as a unit answer lists it, with its active device. */
export function aPointSummary(overrides: Partial<MeasuringPointSummary> = {}): MeasuringPointSummary {
  return { measuring_point_id: uuid(), metric: 'heat', obis: null, unit: 'kWh', active_device_serial: 'H-1001', is_difference_meter: false, ...overrides };
}

/** A unit of PROPERTY (or of the given property_id: the embedded Property follows it) without points unless given. */
export function aUnit(overrides: Partial<UsageUnit> = {}): UsageUnit {
  const propertyId = overrides.property_id ?? PROPERTY.id;
  return {
    id: uuid(),
    tenant_id: TENANT,
    property_id: propertyId,
    property: { id: propertyId, name: PROPERTY.name, address_line: 'Lindenstraße 12, 10115 Berlin', external_ref: null },
    external_ref: null,
    name: 'WE 01',
    floor: 'EG',
    position: 'links',
    unit_type: 'residential',
    area_heated_m2: 72.5,
    area_ww_m2: 72.5,
    address: ADDRESS,
    measuring_points: [],
    ...overrides,
  };
}

export function aUnitConsumption(overrides: Partial<UnitConsumption> = {}): UnitConsumption {
  return { usage_unit_id: uuid(), external_ref: null, ...RANGE, measuring_points: [aPointConsumption()], ...overrides };
}

/** A unit and its consumption answer with matching ids. */
export function aUnitEntry(
  name: string,
  points: MeasuringPointConsumption[],
  unitOverrides: Partial<UsageUnit> = {},
): { unit: UsageUnit; consumption: UnitConsumption } {
  const unit = aUnit({ name, ...unitOverrides });
  return { unit, consumption: aUnitConsumption({ usage_unit_id: unit.id, measuring_points: points }) };
}

export interface PlantOverrides {
  point?: Partial<MeasuringPoint>;
  consumption?: Partial<MeasuringPointConsumption>;
}

/** A plant-room point (usage_unit_id null, no allocations) with its /readings answer (no unit_share, no weighted values). */
export function aPlantPoint(overrides: PlantOverrides = {}): { point: MeasuringPoint; consumption: MeasuringPointConsumption } {
  const id = overrides.consumption?.measuring_point_id ?? overrides.point?.id ?? uuid();
  const segment = aSegment({ baseline_value: 1000, period_consumption: { billable_value: 500, end_value: 1500, weighted_billable_value: undefined } });
  const consumption: MeasuringPointConsumption = {
    measuring_point_id: id,
    metric: 'water_cold',
    obis: null,
    unit: 'm3',
    data_gap: false,
    is_difference_meter: false,
    is_system_linked: true,
    segments: [segment],
    ...overrides.consumption,
  };
  const point: MeasuringPoint = {
    id,
    usage_unit_id: null,
    property_id: PROPERTY.id,
    metric: consumption.metric,
    obis: null,
    unit: consumption.unit,
    localization: 'Heizungskeller',
    active_device: null,
    is_difference_meter: consumption.is_difference_meter,
    is_system_linked: true,
    allocations: [],
    ...overrides.point,
  };
  return { point, consumption };
}

/** The Property's complete point list, as the contract gives it: every unit's points, then the plant points. */
export function pointListOf(d: {
  property: { id: string };
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  plant?: { point: MeasuringPoint }[];
}): MeasuringPoint[] {
  const unitPoints = d.units.flatMap(({ unit, consumption }) =>
    consumption.measuring_points.map((c): MeasuringPoint => ({
      id: c.measuring_point_id,
      usage_unit_id: unit.id,
      property_id: d.property.id,
      metric: c.metric,
    })),
  );
  return [...unitPoints, ...(d.plant ?? []).map((p) => p.point)];
}

export function aPropertyInput(overrides: Partial<PropertyInput> = {}): PropertyInput {
  return { property: PROPERTY, range: RANGE, units: [], plantPoints: [], ...overrides };
}

/** The same point as seen under several units: each copy carries its unit's share and weighted value (as the server computes it, in floats). */
export function sharedCopies(billable: number, shares: number[], base: Partial<MeasuringPointConsumption> = {}): MeasuringPointConsumption[] {
  const id = base.measuring_point_id ?? uuid();
  const device = uuid();
  return shares.map((share) =>
    aPointConsumption({
      ...base,
      measuring_point_id: id,
      unit_share: share,
      segments: [
        aSegment({ device_id: device, serial: 'SN-SHARED', period_consumption: { billable_value: billable, weighted_billable_value: billable * share } }),
      ],
    }),
  );
}
