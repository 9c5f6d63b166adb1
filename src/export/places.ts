// Names beside the ids, so that review.csv and readings.csv are readable on their own: the
// Property, the unit(s) and the meter (metric, serial, localization) of a finding or a
// reading, from the answers of the Property being written.
import type { FindingPlace } from '../billing/messages.js';
import type { PropertyBill } from '../billing/property.js';
import type { Flag, ReadingRow } from '../billing/types.js';
import type { PropertyAnswers } from './journal.js';

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
  readings(rows: readonly ReadingRow[]): (ReadingRow & { usage_unit_name: string | null; metric: string | null; unit: string | null })[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function placesOf(answers: PropertyAnswers, bill: Pick<PropertyBill, 'segments'>): Places {
  const unitNames = new Map(answers.units.map(({ unit }) => [unit.id, unit.name]));
  const points = new Map<string, Point>();
  const pointOf = (id: string): Point => {
    let p = points.get(id);
    if (!p) points.set(id, (p = { metric: null, unit: null, localization: null, serial: null, units: [] }));
    return p;
  };
  for (const mp of [...answers.points, ...answers.plantPoints.map((p) => p.point)]) {
    if (!mp.id) continue;
    const p = pointOf(mp.id);
    p.metric ??= str(mp.metric);
    p.unit ??= str(mp.unit);
    p.localization ??= str(mp.localization);
    p.serial ??= str(mp.active_device?.serial);
  }
  for (const { unit, consumption } of answers.units) {
    for (const c of consumption.measuring_points) {
      const p = pointOf(c.measuring_point_id);
      p.metric ??= str(c.metric);
      p.unit ??= str(c.unit);
      if (!p.units.includes(unit.name)) p.units.push(unit.name);
    }
  }
  for (const { consumption: c } of answers.plantPoints) {
    const p = pointOf(c.measuring_point_id);
    p.metric ??= str(c.metric);
    p.unit ??= str(c.unit);
  }
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
    readings(rows) {
      return rows.map((r) => {
        const p = points.get(r.measuring_point_id);
        return { ...r, usage_unit_name: p?.units.length ? p.units.join(', ') : null, metric: p?.metric ?? null, unit: p?.unit ?? null };
      });
    },
  };
}
