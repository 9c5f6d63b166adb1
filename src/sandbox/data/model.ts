// The raw synthetic model. Records are plain data; ids are derived from keys (see Ids).
import type { IsoDate } from './dates.js';

export type KnownMetricName = 'heat' | 'hca' | 'water_cold' | 'water_warm' | 'water_outdoor';
export type UnitTypeName = 'residential' | 'commercial' | 'technical' | 'traffic';
export type StartKind = 'recorded' | 'assumed_zero' | 'unrecorded';

export interface AddressRec {
  street: string;
  house_number: string;
  house_number_addition: string | null;
  postal_code: string;
  city: string;
  country_code: 'DE';
}

export interface TenantRec {
  idx: number;
  name: string;
}

export interface PropertyRec {
  idx: number;
  tenantIdx: number;
  name: string;
  addresses: AddressRec[];
  /** usage_unit_count is answered as null for this Property. */
  unitCountUnknown: boolean;
  /** Units of this Property are the contiguous unit indices [unitStart, unitEnd). */
  unitStart: number;
  unitEnd: number;
}

export interface UnitRec {
  idx: number;
  propertyIdx: number;
  name: string;
  addressIdx: number;
  floor: string | null;
  position: string | null;
  type: UnitTypeName;
  areaHeated: number | null;
  areaWw: number | null;
}

export interface Allocation {
  unitIdx: number;
  /** Decimal string, e.g. "0.25"; the shares of one point sum to exactly 1. */
  share: string;
}

export interface PointRec {
  key: number;
  propertyIdx: number;
  metric: KnownMetricName;
  localization: string | null;
  isDifference: boolean;
  isSystemLinked: boolean;
  /** Empty for plant-room and main meters. */
  allocations: Allocation[];
  /** In installation order; empty for difference meters. */
  devices: DeviceRec[];
}

export type MonthOverride = 'calculated' | 'missing' | 'measured';

export interface DeviceRec {
  key: number;
  pointKey: number;
  metric: KnownMetricName;
  serial: string;
  manufacturer: string;
  deviceType: string;
  /** null = installation date not documented; data still starts at `anchor`. */
  installedAt: IsoDate | null;
  /** The day the device's value curve starts (equals installedAt when known). */
  anchor: IsoDate;
  deinstalledAt: IsoDate | null;
  replacementReason: 'DeviceReplacement' | 'DeviceRemoval' | null;
  /** K-factor as a decimal string. */
  factor: string;
  /** Value at `anchor` in milli-units (0 for assumed_zero). */
  startMilli: number;
  startKind: StartKind;
  /** Mean consumption per month in milli-units. */
  rateMilli: number;
  /** From month index `from` on, every increment is multiplied by `factor` (a change against the year before). */
  rateChange?: { from: number; factor: number };
  /** Half-width of the month-to-month spread of the seasonal part (default 0.25: 0.75 … 1.25 of the mean). */
  noise?: number;
  /** A part of every month's consumption that does not follow the season (a plant heat meter's warm water), ± 5 %, milli-units. */
  baseMilli?: number;
  /** Month index from which every month end is calibration_expired. */
  calibrationFrom?: number;
  /** Month indices [from, to] without any data (status missing). */
  gap?: [number, number];
  /** Fixed statuses of single month ends (month index → status). */
  overrides?: Record<number, MonthOverride>;
  /** Whether a few random month ends are calculated or missing. */
  anomalies: boolean;
}
