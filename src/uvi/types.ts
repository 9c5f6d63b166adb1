// Output of the pure monthly consumption information (§ 6a HeizkostenV): per point and
// month a value or the reasons there is none, per unit and service 13 months in kWh
// with the native figures beside them. Writers (PDF letter, uvi.csv) and browse read these.
import type { Decimal } from '../billing/decimal.js';
import type { Month } from './months.js';

/** Why a month has no value. A month without a value is missing, never 0. */
export const MISSING_REASONS = [
  // One measuring point
  'no_device', // before the point's first device or after its last removal (a unit new this year): measured nothing
  'device_gap', // days of the month between a device's removal and the next one's installation: consumed, but not measured
  'removal_unconfirmed', // after the point's last removal, but the Property's list still shows a device there: maybe consumed, not measured
  'no_reading', // the month-end reading at the start or end of the month is not in the answer
  'no_start_value', // the segment's start value is unknown (baseline_origin none)
  'missing', // a reading the month rests on has the status missing
  'calibration_expired', // … has the status calibration_expired: never consumption
  'unknown_status', // … has a status the contract does not name
  'negative', // the end value is below the start value (counts down, or a replacement mixed up)
  'duplicate_reading', // two different readings at one month end
  'estimate_contradicted', // an estimated month-end reading lies above the device's next read count or below its previous one
  'overlapping_segments', // two devices of the point claim the same days
  'implausible_value', // a number no meter can show, or a factor that is not positive
  'implausible_share', // unit_share outside (0, 1]
  'difference_meter', // the service sends no values for a difference meter
  'duplicate_point', // the same point twice in one answer with different contents
  'own_point_not_sent', // a meter the Property lists for this unit is not in the unit's answer: its figure would be short of that meter
  'not_billed', // billing does not bill the point (a contract break, an unknown unit of measure): review.csv names the finding
  'above_bound', // a kWh figure above the plausibility bound (bounds.ts): a typo or a wrong factor, not a fact
  // Conversion of the Property's figures
  'no_plant_heat_meter', // allocators, and the Property has no heat meter without a unit
  'plant_heat_missing', // the plant heat meter has no value for the month
  'warm_water_heat_missing', // warm-water heat (meter or § 9 Abs. 2 volume) has no value for the month
  'warm_water_heat_above_bound', // the warm-water heat meter's month lies above 450 kWh per m³ of the Property's warm water
  'warm_water_heat_unjudged', // the warm-water heat meter measured heat in a month whose warm-water volume is missing or 0
  'plant_heat_meters_several', // two or more plant heat meters measured: whether one measures behind another cannot be told
  'heating_heat_negative', // the warm-water heat alone exceeds the plant heat
  'heating_heat_negative_unit_heat', // the units' own heat meters alone exceed the plant heat
  'heating_heat_negative_both', // only the warm-water heat and the units' own heat meters together exceed the plant heat (or each alone does)
  'unit_heat_incomplete', // some unit's heat meter is missing: the heat left for the allocators is unknown
  'allocator_sum_incomplete', // some unit's allocator units are missing: the Property's sum is unknown
  'allocator_sum_zero', // no allocator counted in the Property: nothing to divide by
  'warm_water_volume_incomplete', // some unit's warm-water volume is missing: its share is unknown
  'warm_water_volume_zero', // no warm water counted in the Property
] as const;
export type MissingReason = (typeof MISSING_REASONS)[number];

/** One month of one measuring point (share-weighted under a unit), in the point's own unit. */
export interface PointMonth {
  month: Month;
  /** null: missing (see reasons). */
  value: Decimal | null;
  /** True where a reading it rests on is calculated or synthetic, or a start value was assumed. */
  estimated: boolean;
  reasons: MissingReason[];
}

export interface PointMonths {
  measuring_point_id: string;
  metric: string;
  unit: string;
  months: PointMonth[];
}

export const SERVICES = ['HEATING', 'HOT_WATER', 'COLD_WATER'] as const;
export type Service = (typeof SERVICES)[number];

/** How a service's kWh are found; named on the letter. */
export type Method =
  | 'heat_meter' // the unit's heat meters, kWh as measured
  | 'allocators' // heat cost allocators converted with the Property's heating heat
  | 'heat_meter_and_allocators' // both kinds of device in one unit
  | 'ww_heat_meter_share' // the Property's warm-water heat meter, by the unit's share of warm water
  | 'formula_9_2' // § 9 Abs. 2 HeizkostenV from the unit's warm-water volume
  | 'volume_only'; // cold water: m³, no kWh

/** One month of one service of one unit. */
export interface ServiceMonth {
  month: Month;
  /** null: no kWh (cold water always; else see reasons). */
  kwh: Decimal | null;
  /** The unit's own figure: kWh of heat meters, allocator units, m³ of water; null where missing. */
  native: Decimal | null;
  /** Set where kwh is computed rather than measured in kWh. */
  converted: boolean;
  /** The mark of `kwh` (its conversion's inputs too: the Property's sums, the plant heat); without kWh, that of `native`. */
  estimated: boolean;
  /** The mark of `native` alone: the unit's own readings. A figure shown in the unit's own units carries this one, never the kWh's. */
  native_estimated: boolean;
  reasons: MissingReason[];
  /** The average user's kWh for the month, scaled to the unit's area; null without area or value. */
  benchmark_kwh: Decimal | null;
}

export interface UnitService {
  service: Service;
  method: Method;
  /** The unit of `native`: kWh, unit (allocator units) or m3; for heat_meter_and_allocators, allocator units. */
  native_unit: 'kWh' | 'unit' | 'm3';
  months: ServiceMonth[];
}

export const FINDING_CODES = [
  'NO_FLOOR_AREA', // the unit has no area for the service: no benchmark comparison
  'NO_BENCHMARK_FOR_TYPE', // the benchmark table has no value for the unit type and service
  'AREA_IMPLAUSIBLE', // the unit's area is outside AREA_MIN_M2 … AREA_LIMIT_M2 (bounds.ts): no benchmark comparison
  'NO_PLANT_HEAT_METER', // allocators without a plant heat meter: allocator units only
  'POINT_NOT_SENT', // a meter the Property lists for a unit is not in that unit's answer: the sums over units of its metric are not formed
  'WARM_WATER_HEAT_NOT_KNOWN', // no warm-water heat meter and no warm-water volume: plant heat taken as heating heat
  'PLANT_METER_NAME_UNCLEAR', // a plant heat meter's name mentions warm water beside a word not known to be harmless there (plant-names.ts): read as the whole plant's
  'PLANT_METER_LISTED_UNKNOWN', // a --plant-meters line names a point the Property has not as a heat meter without a unit: its names are read instead
  'PLANT_HEAT_METERS_SEVERAL', // two or more plant heat meters not read as warm water's measured in a month: no heating heat then (plant-heat.ts)
  'WARM_WATER_HEAT_METERS_SEVERAL', // two or more warm-water heat meters measured in a month: not added up, § 9 Abs. 2 used instead
  'WARM_WATER_VOLUME_METERS_SEVERAL', // two or more plant warm-water meters (m³) measured in a month: not added up, the units' warm-water meters used instead
  'WARM_WATER_HEAT_IMPLAUSIBLE', // the warm-water heat meter gives more than 200 kWh per m³ over the months (WW_MAX_KWH_PER_M3): § 9 Abs. 2 used instead
  'MONTH_MISSING', // the letter's month has no value for the service
  'MONTH_ESTIMATED', // the letter's month rests on a calculated reading or an assumed start value
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface Finding {
  code: FindingCode;
  property_id: string;
  usage_unit_id: string | null;
  service: Service | null;
  facts?: Record<string, string>;
}

export interface UnitUvi {
  usage_unit_id: string;
  services: UnitService[];
  findings: Finding[];
}
