// The monthly information uses only what the export's billing would bill (docs/uvi.md, "Only
// what billing accepts"): billing's verdict on the same answers (billProperty) says which
// unit copies and plant points it refuses, and those findings go into the letters' review.
// A meter whose answer breaks the contract (overlapping segments, a point nobody lists, one
// id twice, shares above 1, readings outside a device's window, values where the point says
// it has none …) would otherwise reach a letter as a fact. Pure.
import type { PropertyBill } from '../billing/property.js';
import { idKey } from '../billing/contract.js';
import type { Flag, FlagCode } from '../billing/types.js';

/**
 * not_billed codes about a segment's own status: billing refuses the whole year's value, the uvi
 * judges each month by its readings' statuses (a month read before the calibration ran out counts).
 */
const JUDGED_PER_MONTH: ReadonlySet<FlagCode> = new Set<FlagCode>(['CALIBRATION_EXPIRED', 'MISSING_VALUE']);

/** Whether a finding makes the point's figures unusable for the uvi. */
export function refuses(f: Flag): boolean {
  if (f.measuring_point_id === null) return false;
  if (f.severity === 'not_billed') return !JUDGED_PER_MONTH.has(f.code);
  // A unit of measure the contract does not list (MWh): its numbers cannot be taken as kWh, m³ or units.
  return f.code === 'UNKNOWN_ENUM_VALUE' && f.facts?.field === 'unit';
}

/**
 * Billing's review findings the uvi shows: values the contract does not know (an unknown metric is left out),
 * shares of a shared meter adding up to less than 1, which leave the Property's sums of its metric unformed
 * (absent.ts), and what the contract asks to put to the landlord (billing rules 6 and 7): a meter not linked to
 * a heating or water system and a start value assumed to be 0; and a reading dated off a month end, which leaves
 * the months on either side of that month end without a figure (round 29 F6: they read as an ordinary gap). Such a meter's figures stay in the letters
 * (information, not a bill; docs/uvi.md), and the check row tells the clerk before they are sent.
 */
const SHOWN: ReadonlySet<FlagCode> = new Set<FlagCode>([
  'UNKNOWN_ENUM_VALUE',
  'SHARE_SUM_MISMATCH',
  'NOT_SYSTEM_LINKED',
  'ASSUMED_ZERO_BASELINE',
  'READING_NOT_IN_SERIES',
]);

/** What the uvi shows of billing's findings: what it refuses, and the review findings above. */
export const shownFinding = (f: Flag): boolean => refuses(f) || SHOWN.has(f.code);

export interface UviVerdict {
  /** A unit's copy of a point (unit id), or a plant point (null), that the uvi must not use. */
  refused(unitId: string | null, pointId: string): boolean;
}

const key = (unitId: string | null, pointId: string) => `${unitId === null ? '' : idKey(unitId)}\n${idKey(pointId)}`;

/**
 * Billing's verdict on a Property. A plant point billing leaves out of plant-points.csv (listed with
 * allocations, or carried by a unit too) is refused as well: it is billed nowhere.
 */
export function uviVerdict(bill: Pick<PropertyBill, 'flags' | 'plant'>): UviVerdict {
  const refused = new Set(bill.flags.filter(refuses).map((f) => key(f.usage_unit_id, f.measuring_point_id!)));
  const plant = new Set(bill.plant.map((p) => idKey(p.measuring_point_id)));
  return {
    refused: (unitId, pointId) => refused.has(key(unitId, pointId)) || (unitId === null && !plant.has(idKey(pointId))),
  };
}
