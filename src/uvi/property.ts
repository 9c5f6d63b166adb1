// Per unit and service the 13 months in kWh for one Property (docs/uvi.md, "How each kWh
// figure is found"). Heat meters: their kWh. Heat cost allocators: the Property's heating
// heat (plant-room heat meter less warm-water heat less the units' own heat meters) over
// the month's sum of allocator units, times the unit's units. Warm water: the warm-water
// heat meter by the unit's share of the volume, else § 9 Abs. 2 HeizkostenV. Pure.
import type { MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../api/types.js';
import { judgedWarmWaterMonths, plantMeterNames, plausibleWarmWaterMeter, type UnclearPlantName, type UnlistedPlantMeter } from './plant.js';
import { benchmarkMonth, type BenchmarkService, type BenchmarkTable } from './benchmark.js';
import { absentFindings, type AbsentPoint } from './absent.js';
import { bounded, implausibleArea, usableArea } from './bounds.js';
import { type Month } from './months.js';
import { missingMonth, notInstalled, sumMonths } from './point-months.js';
import { heatingHeatMonths, plantHeatMonths } from './plant-heat.js';
import { warmWaterKwh } from './ww-formula.js';
import { distinctUnits, useOf, type Metric, type UnitMetrics } from './unit-metrics.js';

export { WW_FACTOR, COLD_WATER_C, warmWaterKwh } from './ww-formula.js';
import type { Finding, FindingCode, Method, MissingReason, PointMonth, Service, ServiceMonth, UnitService, UnitUvi } from './types.js';

/** The Property's points without a unit, sorted by what they measure (classifyPlant, or the caller's own choice). */
export interface PlantPoints {
  /** Heat meters of the whole heating plant (heating and warm water). */
  heat: MeasuringPointConsumption[];
  /** Heat meters of the central warm-water heating only (§ 9 Abs. 2 Satz 1). */
  warmWaterHeat: MeasuringPointConsumption[];
  /** Volume meters of the heated water (m³). */
  warmWaterVolume: MeasuringPointConsumption[];
  /** Heat meters whose name mentions warm water but also heating or a negation: read as `heat`, listed for review. */
  unclearNames?: UnclearPlantName[];
  /** Lines of --plant-meters naming a point the Property has not as a heat meter without a unit: its names were read instead. */
  unlisted?: UnlistedPlantMeter[];
  /** The plant heat meters' localization by id (classifyPlant), for review.csv to name them. */
  names?: Readonly<Record<string, string>>;
}

export interface UviPropertyInput {
  property_id: string;
  months: readonly Month[];
  units: readonly { unit: UsageUnit; consumption: UnitConsumption }[];
  plant: PlantPoints;
  benchmark: BenchmarkTable;
  /** Mean warm-water temperature t_w in °C for § 9 Abs. 2 (default 60). */
  wwTemperature?: number;
  /**
   * Whether billing refuses a unit's copy of a point (unit id) or a plant point (null): such a
   * point's months are missing (`not_billed`), never 0 (uviVerdict). Without it every point is used.
   */
  refused?: (unitId: string | null, pointId: string) => boolean;
  /** Meters the Property lists for a unit that the unit's answer lacks, and shared meters whose shares fall short of 1 (absentPoints): the sums over units of their metric are not formed. */
  absent?: readonly AbsentPoint[];
  /** Points (idKey) the Property's list shows with their device removed and none since (removedPoints): a `data_gap` of theirs is no device, not missing. */
  removed?: ReadonlySet<string>;
}

export interface PropertyUvi {
  units: UnitUvi[];
  findings: Finding[];
  /** The Property's heating heat for allocators, per month (null: no plant heat meter). */
  heatingHeat: PointMonth[] | null;
  /** The warm-water heat per month (null: no warm-water heat meter and no volume). */
  warmWaterHeat: PointMonth[] | null;
}

/** A finding (a uvi finding, not an error code: the letter or review.csv shows it). */
function finding(code: FindingCode, scope: Omit<Finding, 'code' | 'facts'>, facts?: Record<string, string>): Finding {
  return facts ? { code, ...scope, facts } : { code, ...scope };
}

/** The sum over the units that have the metric; a unit without a device yet adds 0, any other unit's missing month leaves it missing (the reason given instead). */
function unitsSum(
  units: readonly UnitMetrics[],
  metric: Metric,
  months: readonly Month[],
  reason: MissingReason,
  absent: readonly AbsentPoint[],
): PointMonth[] | null {
  const have = units.map((u) => u[metric]).filter((m): m is PointMonth[] => m !== undefined);
  // a listed meter a unit's answer lacks, or shares short of the whole meter: the sum would silently be smaller (absent.ts)
  if (absent.some((a) => a.metric === metric)) return months.map((m) => missingMonth(m, reason));
  if (have.length === 0) return null;
  return sumMonths(
    have.map((m) => ({ measuring_point_id: '', metric, unit: '', months: m })),
    months,
  ).map((m) => (m.value === null && !notInstalled(m) ? missingMonth(m.month, reason) : m));
}

/** Property-wide figures every unit's conversion uses. */
interface PropertyFigures {
  heatingHeat: PointMonth[] | null;
  warmWaterHeat: PointMonth[] | null;
  allocatorSum: PointMonth[] | null;
  volumeSum: PointMonth[] | null;
  hasWarmWaterHeatMeter: boolean;
}

function propertyFigures(input: UviPropertyInput, units: readonly UnitMetrics[], findings: Finding[]): PropertyFigures {
  const { months, plant } = input;
  const tw = input.wwTemperature ?? 60;
  const use = useOf(input);
  const absent = input.absent ?? [];
  findings.push(...absentFindings(input.property_id, absent));
  const volumeSum = unitsSum(units, 'water_warm', months, 'warm_water_volume_incomplete', absent);
  const scope = { property_id: input.property_id, usage_unit_id: null, service: 'HEATING' } as const;
  // Several plant warm-water meters that measured together are not added up either (one may sit behind
  // another, as a circulation's): the units' own warm-water meters give the volume then, as without one.
  const plantVolume = plantHeatMonths(plant.warmWaterVolume, months, use);
  if (plantVolume.several)
    findings.push(finding('WARM_WATER_VOLUME_METERS_SEVERAL', { ...scope, service: 'HOT_WATER' }, { meters: plantMeterNames(plant.warmWaterVolume, plant) }));
  const volume = plantVolume.several ? (volumeSum ?? plantVolume.months) : (plantVolume.months ?? volumeSum);
  for (const u of plant.unlisted ?? []) findings.push(finding('PLANT_METER_LISTED_UNKNOWN', scope, { ...u }));
  for (const u of plant.unclearNames ?? []) findings.push(finding('PLANT_METER_NAME_UNCLEAR', scope, { ...u }));
  const wwMeters = plantHeatMonths(plant.warmWaterHeat, months, use);
  // several warm-water heat meters at once cannot be summed either: § 9 Abs. 2 then, as for an implausible one
  if (wwMeters.several)
    findings.push(finding('WARM_WATER_HEAT_METERS_SEVERAL', { ...scope, service: 'HOT_WATER' }, { meters: plantMeterNames(plant.warmWaterHeat, plant) }));
  const meter = wwMeters.several ? null : plausibleWarmWaterMeter(input.property_id, wwMeters.months, volume, findings);
  // A month missing here is the Property's, not the unit's: the letter says so rather than "a reading is missing".
  const known =
    (meter ?? volume)?.map((m) =>
      m.value === null ? missingMonth(m.month, 'warm_water_heat_missing') : meter ? m : { ...m, value: warmWaterKwh(m.value, tw) },
    ) ?? null;
  const warmWaterHeat = meter && known ? judgedWarmWaterMonths(known, volume) : known;
  const { months: plantHeat, several } = plantHeatMonths(plant.heat, months, use);
  const hasAllocators = units.some((u) => u.hca !== undefined);
  if (hasAllocators && plantHeat !== null && warmWaterHeat === null) findings.push(finding('WARM_WATER_HEAT_NOT_KNOWN', scope));
  if (hasAllocators && several) findings.push(finding('PLANT_HEAT_METERS_SEVERAL', scope, { meters: plantMeterNames(plant.heat, plant) }));
  const unitHeat = unitsSum(units, 'heat', months, 'unit_heat_incomplete', absent);
  const heatingHeat = plantHeat === null ? null : heatingHeatMonths(plantHeat, warmWaterHeat, unitHeat);
  const allocatorSum = unitsSum(units, 'hca', months, 'allocator_sum_incomplete', absent);
  return { heatingHeat, warmWaterHeat, allocatorSum, volumeSum, hasWarmWaterHeatMeter: meter !== null };
}

/** part / whole × total, or the reason it cannot be given. */
function shareOf(part: PointMonth, whole: PointMonth | undefined, total: PointMonth | undefined, zero: MissingReason, noTotal: MissingReason): PointMonth {
  if (part.value === null) return part;
  if (!total || total.value === null) return missingMonth(part.month, ...(total?.reasons.length ? total.reasons : [noTotal]));
  if (!whole || whole.value === null) return missingMonth(part.month, ...(whole?.reasons ?? []));
  if (whole.value.isZero()) return missingMonth(part.month, zero);
  return {
    month: part.month,
    value: total.value.times(part.value).div(whole.value),
    estimated: part.estimated || whole.estimated || total.estimated,
    reasons: [],
  };
}

function row(native: PointMonth, kwh: PointMonth | null, converted: boolean): Omit<ServiceMonth, 'benchmark_kwh'> {
  // Each figure carries the mark of what it rests on: a calculated reading of another unit marks the
  // converted kWh (the Property's sum), never the unit's own allocator units.
  const estimated = kwh?.value != null ? kwh.estimated : native.estimated;
  return {
    month: native.month,
    kwh: kwh?.value ?? null,
    native: native.value,
    converted,
    estimated,
    native_estimated: native.value !== null && native.estimated,
    reasons: kwh ? kwh.reasons : native.reasons,
  };
}

function heating(
  u: UnitMetrics,
  p: PropertyFigures,
  plantHasHeat: boolean,
): { method: Method; rows: Omit<ServiceMonth, 'benchmark_kwh'>[]; nativeUnit: 'kWh' | 'unit' } | null {
  if (!u.hca) return u.heat ? { method: 'heat_meter', nativeUnit: 'kWh', rows: u.heat.map((m) => row(m, m, false)) } : null;
  const converted = u.hca.map((m, i) => {
    if (!plantHasHeat) return m.value === null ? m : missingMonth(m.month, 'no_plant_heat_meter');
    return shareOf(m, p.allocatorSum?.[i], p.heatingHeat?.[i], 'allocator_sum_zero', 'plant_heat_missing');
  });
  if (!u.heat) return { method: 'allocators', nativeUnit: 'unit', rows: u.hca.map((m, i) => row(m, converted[i]!, true)) };
  const both = sumMonths(
    [converted, u.heat].map((months) => ({ measuring_point_id: '', metric: '', unit: '', months })),
    u.hca.map((m) => m.month),
  );
  return { method: 'heat_meter_and_allocators', nativeUnit: 'unit', rows: u.hca.map((m, i) => row(m, both[i]!, true)) };
}

function hotWater(u: UnitMetrics, p: PropertyFigures, tw: number): { method: Method; rows: Omit<ServiceMonth, 'benchmark_kwh'>[] } | null {
  if (!u.water_warm) return null;
  if (p.hasWarmWaterHeatMeter) {
    const rows = u.water_warm.map((m, i) =>
      row(m, shareOf(m, p.volumeSum?.[i], p.warmWaterHeat?.[i], 'warm_water_volume_zero', 'warm_water_heat_missing'), true),
    );
    return { method: 'ww_heat_meter_share', rows };
  }
  const rows = u.water_warm.map((m) => row(m, m.value === null ? m : { ...m, value: warmWaterKwh(m.value, tw) }, true));
  return { method: 'formula_9_2', rows };
}

function withBenchmark(
  input: UviPropertyInput,
  unit: UsageUnit,
  service: Service,
  method: Method,
  nativeUnit: UnitService['native_unit'],
  rows: Omit<ServiceMonth, 'benchmark_kwh'>[],
  findings: Finding[],
): UnitService {
  const scope = { property_id: input.property_id, usage_unit_id: unit.id, service };
  const area = service === 'HEATING' ? unit.area_heated_m2 : service === 'HOT_WATER' ? unit.area_ww_m2 : null;
  let months: ServiceMonth[] = rows.map((r) => ({ ...bounded(r, service, area, nativeUnit), benchmark_kwh: null }));
  if (service !== 'COLD_WATER') {
    // An area no usage unit has (72,500 m², 0.001 m²) would make the average user a million kWh or none: no comparison.
    const believed = usableArea(area);
    const implausible = implausibleArea(area);
    if (implausible) findings.push(finding('AREA_IMPLAUSIBLE', scope, { area: String(area) }));
    const bench = months.map((r) => benchmarkMonth(input.benchmark, unit.unit_type, service as BenchmarkService, believed, r.month));
    const gone = bench.find((b) => 'missing' in b);
    if (gone && 'missing' in gone && !implausible)
      findings.push(finding(gone.missing === 'no_area' ? 'NO_FLOOR_AREA' : 'NO_BENCHMARK_FOR_TYPE', scope, { unit_type: unit.unit_type }));
    months = months.map((r, i) => {
      const b = bench[i]!;
      return { ...r, benchmark_kwh: 'kwh' in b ? b.kwh : null };
    });
  }
  const last = months.at(-1);
  if (last && last.kwh === null && last.native === null) findings.push(finding('MONTH_MISSING', scope, { month: last.month, reasons: last.reasons.join(' ') }));
  else if (last?.estimated) findings.push(finding('MONTH_ESTIMATED', scope, { month: last.month }));
  return { service, method, native_unit: nativeUnit, months };
}

/** Every unit's 13 months per service, and the Property's findings. */
export function propertyUvi(input: UviPropertyInput): PropertyUvi {
  const findings: Finding[] = [];
  const units = distinctUnits(input.units, input.months, useOf(input));
  const p = propertyFigures(input, units, findings);
  const tw = input.wwTemperature ?? 60;
  const plantHasHeat = input.plant.heat.length > 0;
  const out = units.map((u): UnitUvi => {
    const own: Finding[] = [];
    const services: UnitService[] = [];
    const h = heating(u, p, plantHasHeat);
    if (h && u.hca && !plantHasHeat) own.push(finding('NO_PLANT_HEAT_METER', { property_id: input.property_id, usage_unit_id: u.unit.id, service: 'HEATING' }));
    if (h) services.push(withBenchmark(input, u.unit, 'HEATING', h.method, h.nativeUnit, h.rows, own));
    const w = hotWater(u, p, tw);
    if (w) services.push(withBenchmark(input, u.unit, 'HOT_WATER', w.method, 'm3', w.rows, own));
    if (u.water_cold)
      services.push(
        withBenchmark(
          input,
          u.unit,
          'COLD_WATER',
          'volume_only',
          'm3',
          u.water_cold.map((m) => row(m, null, false)),
          own,
        ),
      );
    return { usage_unit_id: u.unit.id, services, findings: own };
  });
  return { units: out, findings, heatingHeat: p.heatingHeat, warmWaterHeat: p.warmWaterHeat };
}
