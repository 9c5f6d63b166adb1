// The browser's export of one unit (`e` on a unit screen). The checks across a Property's units
// (a shared meter's copies, its share sum, the plausibility medians) need every unit, so the
// Property is billed and reviewed whole first; only then is everything narrowed to the unit:
// its rows, its points' readings and the findings about it. Plant-room meters are left out.
import type { PropertyAnswers } from '../../api/walk.js';
import type { PropertyBill } from '../../billing/index.js';
import { idKey } from '../../billing/contract.js';
import { refusedCopies } from '../../billing/property.js';
import type { Flag } from '../../billing/types.js';
import type { TableName } from '../output/index.js';
import type { StepFindings } from './step.js';

export interface OneUnit {
  answers: PropertyAnswers;
  bill: PropertyBill;
  found: StepFindings[];
}

/** What of a Property billed whole is written for unit `unitId`. */
export function narrowToUnit(unitId: string, whole: OneUnit): OneUnit {
  const { bill, answers } = whole;
  const units = answers.units.filter((u) => u.unit.id === unitId);
  // the unit's points as billing compares ids (idKey); a copy billing refused (not listed for the unit) is not billed to it
  const refused = refusedCopies(bill.flags);
  const ids = units.flatMap((u) => u.consumption.measuring_points.map((c) => c.measuring_point_id)).filter((id) => !refused(unitId, id));
  const points = new Set(ids.map(idKey));
  const has = (id: string | null | undefined) => typeof id === 'string' && points.has(idKey(id));
  const mine = (row: { usage_unit_id: string | null }) => row.usage_unit_id === unitId;
  // A finding about one of the unit's points without a unit, or about the whole Property, is the unit's too; a plant meter's is not.
  const about = (f: Flag) => mine(f) || (f.usage_unit_id === null && (f.measuring_point_id === null || has(f.measuring_point_id)));
  return {
    answers: { ...answers, units, plantPoints: [], points: answers.points.filter((p) => has(p.id)) },
    bill: {
      billing: bill.billing.filter(mine),
      segments: bill.segments.filter(mine),
      readings: bill.readings.filter((r) => has(r.measuring_point_id)),
      plant: [],
      flags: bill.flags.filter(about),
      units: bill.units.filter((u) => [...u.billing, ...u.segments, ...u.flags].some(mine)),
    },
    found: whole.found.map((f) => ({
      ...(f.tables ? { tables: f.tables.map(([name, rows]): [TableName, object[]] => [name, rows.filter(unitRow(unitId))]) } : {}),
      ...(f.flags ? { flags: f.flags.filter(about) } : {}),
      ...(f.marks ? { marks: f.marks.filter(mine) } : {}),
    })),
  };
}

/** A step's table row naming a unit is kept for that unit only (a plant-room row names none: it goes). */
function unitRow(unitId: string): (row: object) => boolean {
  return (row) => !('usage_unit_id' in row) || row.usage_unit_id === unitId;
}
