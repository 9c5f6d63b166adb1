// A shared meter comes once in each of its units' consumption answers, each copy with that
// unit's share. The meter is one: its devices, installation windows, readings and billable
// values are the same whichever unit's answer carries them; only unit_share and the weighted
// value are the unit's own. Copies that disagree cannot all be right, and billing each unit's
// copy at its share would bill a consumption the meter never had (WE 15's copy at 1.5 times:
// 5457.514 in place of 3638.343). Such a point is billed in none of its units.
import type { DeviceSegment, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../api/types.js';
import { idKey, type ContractBreak } from './contract.js';
import { compareNames } from './order.js';

/** Units named in the finding's text; a meter shared by more says how many in all. */
const NAMED_UNITS = 10;

/** What every copy of one meter must give alike: not unit_share, not the weighted value. */
function meterOf(c: MeasuringPointConsumption): string {
  const segment = (s: DeviceSegment) => {
    const pc = s.period_consumption;
    const readings = [...s.readings]
      .map((r) => [r.at, r.value, r.status, r.substitution_method ?? null, r.is_synthetic])
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    // replacement_reason and baseline_origin decide findings (DEVICE_REMOVED or DEVICE_REPLACED, ASSUMED_ZERO_BASELINE): units would get different ones
    const how = [s.replacement_reason ?? null, s.baseline_origin ?? null];
    return [
      idKey(s.device_id),
      s.serial,
      s.installed_at,
      s.deinstalled_at,
      s.factor,
      s.baseline_date,
      s.baseline_value,
      ...how,
      pc.status,
      pc.end_value,
      pc.billable_value,
      readings,
    ];
  };
  const segments = c.segments.map((s) => JSON.stringify(segment(s))).sort();
  // is_system_linked is optional, default true
  return JSON.stringify([c.metric, c.unit, c.is_difference_meter, c.data_gap === true, c.is_system_linked ?? true, segments]);
}

/**
 * Per point (idKey) whose copies in the given units' answers disagree: the break every copy
 * gets, naming the units that sent it. `counts`: whether a unit's copy takes part (a copy not
 * listed for its unit is not billed there anyway, and says nothing about the meter).
 */
export function disagreeingCopies(
  units: readonly { unit: UsageUnit; consumption: UnitConsumption }[],
  counts: (c: UnitConsumption, pointId: string) => boolean = () => true,
): Map<string, ContractBreak> {
  const copies = new Map<string, { meters: Set<string>; units: Map<string, string> }>();
  for (const { unit, consumption } of units) {
    for (const p of consumption.measuring_points) {
      if (!counts(consumption, p.measuring_point_id)) continue;
      const id = idKey(p.measuring_point_id);
      const known = copies.get(id) ?? { meters: new Set<string>(), units: new Map<string, string>() };
      known.meters.add(meterOf(p));
      known.units.set(idKey(unit.id), unit.name);
      copies.set(id, known);
    }
  }
  const out = new Map<string, ContractBreak>();
  for (const [id, { meters, units: sentBy }] of copies) {
    if (meters.size < 2 || sentBy.size < 2) continue; // copies within one answer: POINT_REPEATED
    const names = [...sentBy.values()].sort(compareNames);
    const shown = names.length > NAMED_UNITS ? [...names.slice(0, NAMED_UNITS), '…'] : names;
    out.set(id, { code: 'COPIES_DISAGREE', facts: { sent_by: shown.join(', '), units: String(names.length) } });
  }
  return out;
}
