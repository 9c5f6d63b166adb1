// Names beside the ids, so that review.csv, readings.csv and segments.csv are readable on their own: the
// Property, the unit(s) and the meter (metric, serial, localization) of a finding or a
// reading, from the answers of the Property being written.
import type { FindingPlace } from '../../../billing/findings.js';
import { refusedCopies, type PropertyBill } from '../../../billing/property.js';
import { idKey } from '../../../billing/contract.js';
import type { Flag, ReadingRow, SegmentRow } from '../../../billing/types.js';
import type { MeasuringPoint, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../../../api/types.js';
import type { PropertyAnswers } from '../../../api/walk.js';

interface Point {
  metric: string | null;
  unit: string | null;
  localization: string | null;
  /** The serial of the device the point has now, where the answers name one. */
  serial: string | null;
  /** Names of the units the point is billed to, in unit order. */
  units: string[];
}

export interface Places {
  /** Where a finding is: the ids' names. */
  of(f: Flag): FindingPlace;
  /** readings.csv rows with the unit name(s), metric and unit of their point. */
  readings(rows: readonly ReadingRow[]): ReadingPlaceRow[];
  /** What `readings` adds to a row of this point. */
  readingPlace(pointId: string): ReadingPlace;
  /** segments.csv rows with the Property's and the unit's name. */
  segments(rows: readonly SegmentRow[]): NamedSegmentRow[];
}

export type NamedSegmentRow = SegmentRow & { property_name: string; usage_unit_name: string | null };

/** A segment row names its Property and unit beside the ids: a printed Segmente sheet is read by name, not by four ids. */
export function namedSegments(rows: readonly SegmentRow[], property_name: string, unitName: (id: string) => string | undefined): NamedSegmentRow[] {
  return rows.map((r) => ({ ...r, property_name, usage_unit_name: (r.usage_unit_id === null ? undefined : unitName(r.usage_unit_id)) ?? null }));
}

export interface ReadingPlace {
  usage_unit_name: string | null;
  metric: string | null;
  unit: string | null;
}
export type ReadingPlaceRow = ReadingRow & ReadingPlace;

type Refused = (unitId: string | null, pointId: string) => boolean;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * What the answers say about each point, filled in answer order (the first name given
 * wins): the point lists, then the units' answers, then the plant-room points' readings.
 * The export fills one unit by unit, to write readings before the Property's last answer.
 */
export class PointIndex {
  private readonly points = new Map<string, Point>();

  // by idKey: an id one answer writes in capitals is the same point
  get(id: string): Point | undefined {
    return this.points.get(idKey(id));
  }

  private pointOf(id: string): Point {
    let p = this.points.get(idKey(id));
    if (!p) this.points.set(idKey(id), (p = { metric: null, unit: null, localization: null, serial: null, units: [] }));
    return p;
  }

  listed(points: readonly MeasuringPoint[]): this {
    for (const mp of points) {
      if (!mp.id) continue;
      const p = this.pointOf(mp.id);
      p.metric ??= str(mp.metric);
      p.unit ??= str(mp.unit);
      p.localization ??= str(mp.localization);
      p.serial ??= str(mp.active_device?.serial);
    }
    return this;
  }

  /** `refused`: the unit's copies billing did not accept (refusedCopies); the point is not billed to the unit, so not named with it. */
  unit(unit: Pick<UsageUnit, 'id' | 'name'>, consumption: Pick<UnitConsumption, 'measuring_points'>, refused: Refused = () => false): this {
    for (const c of consumption.measuring_points) {
      const p = this.pointOf(c.measuring_point_id);
      p.metric ??= str(c.metric);
      p.unit ??= str(c.unit);
      if (!refused(unit.id, c.measuring_point_id) && !p.units.includes(unit.name)) p.units.push(unit.name);
    }
    return this;
  }

  plant(c: Pick<MeasuringPointConsumption, 'measuring_point_id' | 'metric' | 'unit'>): this {
    const p = this.pointOf(c.measuring_point_id);
    p.metric ??= str(c.metric);
    p.unit ??= str(c.unit);
    return this;
  }

  readingPlace(id: string): ReadingPlace {
    const p = this.get(id);
    return { usage_unit_name: p?.units.length ? p.units.join(', ') : null, metric: p?.metric ?? null, unit: p?.unit ?? null };
  }

  readings(rows: readonly ReadingRow[]): ReadingPlaceRow[] {
    return rows.map((r) => ({ ...r, ...this.readingPlace(r.measuring_point_id) }));
  }
}

export function placesOf(answers: PropertyAnswers, bill: Pick<PropertyBill, 'segments' | 'flags'>): Places {
  const unitNames = new Map(answers.units.map(({ unit }) => [unit.id, unit.name]));
  const points = new PointIndex().listed([...answers.points, ...answers.plantPoints.map((p) => p.point)]);
  const refused = refusedCopies(bill.flags);
  for (const { unit, consumption } of answers.units) points.unit(unit, consumption, refused);
  for (const { consumption } of answers.plantPoints) points.plant(consumption);
  const serials = new Map(bill.segments.filter((s) => s.device_id).map((s) => [s.device_id!, s.serial]));
  const property_name = answers.property.name;

  return {
    of(f) {
      const p = f.measuring_point_id ? points.get(f.measuring_point_id) : undefined;
      return {
        property_name,
        usage_unit_name: (f.usage_unit_id ? unitNames.get(f.usage_unit_id) : undefined) ?? null,
        metric: p?.metric ?? str(f.facts?.metric),
        serial: (f.device_id ? serials.get(f.device_id) : undefined) ?? p?.serial ?? null,
        localization: p?.localization ?? null,
      };
    },
    readings: (rows) => points.readings(rows),
    readingPlace: (id) => points.readingPlace(id),
    segments: (rows) => namedSegments(rows, property_name, (id) => unitNames.get(id)),
  };
}
