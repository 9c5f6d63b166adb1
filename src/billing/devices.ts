// A device hangs at one place at a time: its segment under a point says from when to when it
// was installed there. The same device id under two different points of a Property with
// windows that overlap cannot be right (one device's consumption sent as two meters', WE 01's
// 10 billed as 20, or 10 to WE 01 and 10 to WE 02), and which of the two places is true the
// answer does not say: neither point is billed. A shared meter is one point in several units
// (copies.ts), and a device moved from one point to another has windows that do not overlap.
import type { DeviceSegment, UnitConsumption, UsageUnit } from '../api/types.js';
import { idKey, installationWindow, overlaps, type ContractBreak } from './contract.js';
import { compareNames } from './order.js';

/** Places of one device compared pairwise; beyond this many (a device moved more often than any real one) every place is a conflict. */
const MAX_PLACES = 64;

/** The fact naming a plant-room or main meter as the other place (a word in the reader's language, texts-facts.ts). */
export const PLANT_PLACE = 'plant';

interface Place {
  point: string;
  pointId: string;
  /** Units whose answers carry the point (names), none for a plant-room or main meter. */
  units: Set<string>;
  start: string;
  end: string;
  serial: string;
}

/**
 * Per point (idKey) whose device the answers place under another point at the same time: the
 * break, naming the device's serial and the other point with its units. `counts`: whether a
 * unit's copy takes part (a copy not listed for its unit is not billed there, and says nothing
 * about the meter, as in disagreeingCopies).
 */
export function devicesAtTwoPoints(
  units: readonly { unit: UsageUnit; consumption: UnitConsumption }[],
  plant: readonly { consumption: { measuring_point_id: string; segments: readonly DeviceSegment[] } }[],
  counts: (c: UnitConsumption, pointId: string) => boolean = () => true,
): Map<string, ContractBreak> {
  const byDevice = new Map<string, Map<string, Place>>();
  const place = (pointId: string, unitName: string | null, s: DeviceSegment) => {
    // the window the point's own check uses (an undocumented installation from its baseline day), by its own
    // dates alone: a segment outside the range is its own point's break, and no reason to refuse the device's next place
    const w = installationWindow(s, undefined);
    const point = idKey(pointId);
    const key = JSON.stringify([point, w.start, w.end]);
    const places = byDevice.get(idKey(s.device_id)) ?? new Map<string, Place>();
    const known = places.get(key) ?? { point, pointId, units: new Set<string>(), ...w, serial: s.serial };
    if (unitName !== null) known.units.add(unitName);
    places.set(key, known);
    byDevice.set(idKey(s.device_id), places);
  };
  for (const { unit, consumption } of units)
    for (const p of consumption.measuring_points) {
      if (counts(consumption, p.measuring_point_id)) for (const s of p.segments) place(p.measuring_point_id, unit.name, s);
    }
  for (const { consumption } of plant) for (const s of consumption.segments) place(consumption.measuring_point_id, null, s);

  const out = new Map<string, ContractBreak>();
  const mark = (at: Place, other: Place) => {
    if (out.has(at.point)) return;
    const where = other.units.size > 0 ? [...other.units].sort(compareNames).join(', ') : PLANT_PLACE;
    out.set(at.point, { code: 'DEVICE_AT_TWO_POINTS', facts: { serial: at.serial, other_point: other.pointId, other_place: where } });
  };
  for (const places of byDevice.values()) {
    const list = [...places.values()];
    if (new Set(list.map((p) => p.point)).size < 2) continue;
    if (list.length > MAX_PLACES) {
      const [first] = list as [Place];
      const other = list.find((p) => p.point !== first.point)!;
      for (const a of list) mark(a, a.point === first.point ? other : first);
      continue;
    }
    // each place against the others until its first conflict: every place in a conflict is marked from its own side
    for (const a of list) {
      const b = list.find((x) => x.point !== a.point && overlaps(a, x));
      if (b) mark(a, b);
    }
  }
  return out;
}
