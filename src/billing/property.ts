// A whole property: every unit's bill, the plant-room points, share sums across units,
// and the readings of every point once. Output order depends only on ids and names.
import type { MeasuringPoint, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../api/types.js';
import { dedupeFlags, makeFlag } from './flags.js';
import { billPlantPoint } from './plant.js';
import { compareUnits } from './order.js';
import { cmp, tieBreak } from './point.js';
import type { BillingRow, Flag, PlantPointRow, ReadingRow, SegmentRow } from './types.js';
import { allocatedPlantPoints, idKey, unplacedPlantPoints, listedForUnit, listedKindsOf } from './contract.js';
import { disagreeingCopies } from './copies.js';
import { devicesAtTwoPoints } from './devices.js';
import { billUnit, copyBilled, listedPointsOf, shareMismatch, shareTotals, type UnitBill } from './unit.js';
import { listedAbsentOf, unitsNotListed } from './listed-absent.js';

export interface PropertyInput {
  property: { id: string; name: string; usage_unit_count?: number | null | undefined };
  /** Effective range echoed by the server. */
  range: { from: string; to: string };
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  /** Points with usage_unit_id null, with their /readings answer. */
  plantPoints: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
  /** The Property's measuring-point list, where fetched: its is_system_linked also counts for unit points (rule 7). */
  points?: readonly MeasuringPoint[];
  /** The metrics the answers were asked for (--metric); empty or none: all. A listed meter of another is not missing. */
  metrics?: readonly string[];
}

export interface PropertyBill {
  billing: BillingRow[];
  segments: SegmentRow[];
  /** Each point once, also when shared by several units. */
  readings: ReadingRow[];
  plant: PlantPointRow[];
  flags: Flag[];
  /** Each unit's bill, in unit order (the export checks the rows it wrote early against them). */
  units: UnitBill[];
}

type UnitEntry = PropertyInput['units'][number];

/**
 * A unit billed before the Property's other answers came (the export bills each unit as it
 * arrives): its range, and the bill made without share sums but with the same point list.
 */
export interface EarlyBill {
  range: { from: string; to: string };
  bill: UnitBill;
}

export { copyBilled };

/** The copies billing refused, by unit id and point (idKey), from a bill's findings: see copyBilled. */
export function refusedCopies(flags: readonly Flag[]): (unitId: string | null, pointId: string) => boolean {
  const refused = new Set(
    flags.filter((f) => f.code === 'POINT_NOT_LISTED' && f.measuring_point_id).map((f) => `${f.usage_unit_id}\n${idKey(f.measuring_point_id!)}`),
  );
  return (unitId, pointId) => refused.has(`${unitId}\n${idKey(pointId)}`);
}

/** is_system_linked per point (idKey: an id in capitals is the same point), from the Property's point list (rule 7). */
export function listedLinksOf(points: readonly MeasuringPoint[] | undefined): Map<string, boolean> {
  const links = new Map<string, boolean>();
  for (const p of points ?? []) if (p.id && typeof p.is_system_linked === 'boolean') links.set(idKey(p.id), p.is_system_linked);
  return links;
}

/**
 * `early`: a unit's bill made as its answer came, taken as it is where nothing across units
 * changes it (the same range, no share sum of its points off 1, no shared meter whose copies
 * disagree), else billed again.
 */
export function billProperty(input: PropertyInput, early?: (entry: UnitEntry) => EarlyBill | undefined): PropertyBill {
  const { property, range } = input;
  const units = [...input.units].sort((a, b) => compareUnits(a.unit, b.unit) || tieBreak(a, b));
  const listedLinks = listedLinksOf(input.points);
  const listedPoints = input.points ? listedPointsOf(input.points) : undefined;
  const listedKinds = input.points ? listedKindsOf(input.points) : undefined;
  const listedAbsent = input.points ? listedAbsentOf(input.points, input.metrics) : undefined;
  const listedFor = new Map(units.map((u) => [u.consumption, listedPoints ? listedForUnit(u.unit, listedPoints) : () => true]));
  const shares = shareTotals(
    units.map((u) => u.consumption),
    (c, id) => listedFor.get(c)!(id),
  );
  const crossBreaks = disagreeingCopies(units, (c, id) => listedFor.get(c)!(id));
  const plantAllocated = allocatedPlantPoints(input.points);
  for (const id of plantAllocated.keys()) crossBreaks.set(id, { code: 'PLANT_POINT_ALLOCATED', facts: {} });
  const inUnits = new Set(units.flatMap((u) => u.consumption.measuring_points.map((c) => idKey(c.measuring_point_id))));
  const plantUnplaced = unplacedPlantPoints(
    input.plantPoints.map((p) => p.point),
    inUnits,
  );
  for (const id of plantUnplaced.keys()) crossBreaks.set(id, { code: 'PLANT_POINT_IN_UNITS', facts: {} });
  const twoPlaces = devicesAtTwoPoints(units, input.plantPoints, (c, id) => listedFor.get(c)!(id));
  for (const [id, b] of twoPlaces) if (!crossBreaks.has(id)) crossBreaks.set(id, b);
  const unitBills = units.map((entry) => {
    const known = early?.(entry);
    const acrossUnits = (c: { measuring_point_id: string }) =>
      shareMismatch(shares.get(idKey(c.measuring_point_id))) || crossBreaks.has(idKey(c.measuring_point_id));
    if (known && known.range.from === range.from && known.range.to === range.to && !entry.consumption.measuring_points.some(acrossUnits)) return known.bill;
    return billUnit({
      property,
      unit: entry.unit,
      consumption: entry.consumption,
      range,
      shares,
      listedLinks,
      crossBreaks,
      ...(listedPoints ? { listedPoints, listedKinds, listedAbsent } : {}),
    });
  });
  const plantBills = input.plantPoints
    .filter((p) => !(typeof p.point.id === 'string' && (plantAllocated.has(idKey(p.point.id)) || plantUnplaced.has(idKey(p.point.id)))))
    .sort(
      (a, b) => cmp(a.consumption.metric, b.consumption.metric) || cmp(a.consumption.measuring_point_id, b.consumption.measuring_point_id) || tieBreak(a, b),
    )
    .map(({ point, consumption }) => billPlantPoint({ property, point, consumption, range, cross: twoPlaces.get(idKey(consumption.measuring_point_id)) }));

  // Such a point no unit's answer carries is named at the Property: nothing of it is billed.
  const unbilled = [...plantAllocated]
    .filter(([k]) => !inUnits.has(k))
    .map(([, id]) => makeFlag('PLANT_POINT_ALLOCATED', { property_id: property.id, usage_unit_id: null, measuring_point_id: id, device_id: null }));

  // A shared point's readings come once (idKey: an id in capitals is the same meter), from the
  // first unit (in unit order) whose copy billing accepted: a copy not listed for its unit is not
  // billed, so its month ends would contradict the bill.
  const readingsByPoint = new Map<string, ReadingRow[]>();
  for (const bill of [
    ...unitBills.flatMap((u) => u.points).filter(copyBilled),
    ...plantBills.map((p) => ({ measuring_point_id: p.row.measuring_point_id, readings: p.readings })),
  ]) {
    const key = idKey(bill.measuring_point_id);
    if (!readingsByPoint.has(key)) readingsByPoint.set(key, bill.readings);
  }
  // In unit order, as billing.csv: a point's readings follow its first unit's, plant points last.
  const readings = [...readingsByPoint.values()].flat();

  return {
    billing: unitBills.flatMap((u) => u.billing),
    segments: [...unitBills.flatMap((u) => u.segments), ...plantBills.flatMap((p) => p.segments)],
    readings,
    plant: plantBills.map((p) => p.row),
    flags: dedupeFlags([
      ...unitsNotListed(property, input.units, input.points),
      ...unitBills.flatMap((u) => u.flags),
      ...plantBills.flatMap((p) => p.flags),
      ...unbilled,
    ]),
    units: unitBills,
  };
}
