// A unit's own months per metric (its meters summed, share-weighted), as the Property's figures and
// its letters take them: a point billing refuses is missing (not_billed), one the Property lists for
// the unit but its answer lacks makes the unit's month of that metric missing (own_point_not_sent),
// never a smaller figure. Pure.
import type { UnitConsumption, UsageUnit } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import type { AbsentPoint } from './absent.js';
import type { Month } from './months.js';
import { distinctPointMonths, missingMonth, sumMonths } from './point-months.js';
import type { UviPropertyInput } from './property.js';
import type { PointMonth } from './types.js';

export type Metric = 'heat' | 'hca' | 'water_warm' | 'water_cold';

/** A unit's months per metric (share-weighted); undefined where it has no point of the metric. */
export type UnitMetrics = Partial<Record<Metric, PointMonth[]>> & { unit: UsageUnit };

type Refused = NonNullable<UviPropertyInput['refused']>;
/** What the answers' points are taken as: refused by billing, removed by the Property's list, or listed but not sent. */
export type Use = { refused: Refused; removed: ReadonlySet<string>; absent: readonly AbsentPoint[] };
export const useOf = (input: UviPropertyInput): Use => ({
  refused: input.refused ?? (() => false),
  removed: input.removed ?? new Set(),
  absent: input.absent ?? [],
});

function unitMetrics(unit: UsageUnit, consumption: UnitConsumption, months: readonly Month[], use: Use): UnitMetrics {
  const out: UnitMetrics = { unit };
  // The unit's own meters the Property lists but its answer lacks (not a short share sum, which is carried).
  const notSent = use.absent.filter((a) => !a.shareShort && idKey(a.usage_unit_id) === idKey(unit.id));
  for (const metric of ['heat', 'hca', 'water_warm', 'water_cold'] as const) {
    const points = consumption.measuring_points.filter((p) => p.metric === metric);
    const each = distinctPointMonths(
      points,
      months,
      (p) => p.unit_share ?? 1,
      (id) => use.refused(unit.id, id),
      use.removed,
    );
    // Without it the unit's figure would be short of that meter, or its service would vanish from the letter: missing instead.
    if (notSent.some((a) => a.metric === metric))
      each.push({ measuring_point_id: '', metric, unit: '', months: months.map((m) => missingMonth(m, 'own_point_not_sent')) });
    if (each.length > 0) out[metric] = sumMonths(each, months);
  }
  return out;
}

/**
 * Each unit once. Ids compare as billing compares them (idKey: an id in capitals is the same unit).
 * The same unit twice with the same answer counts once; with different answers none of its figures
 * count (its allocators then leave the Property's sum incomplete).
 */
export function distinctUnits(entries: UviPropertyInput['units'], months: readonly Month[], use: Use): UnitMetrics[] {
  const byId = new Map<string, UviPropertyInput['units'][number][]>();
  for (const e of entries) byId.set(idKey(e.unit.id), [...(byId.get(idKey(e.unit.id)) ?? []), e]);
  const content = (e: UviPropertyInput['units'][number]) =>
    JSON.stringify({
      unit: { ...e.unit, id: idKey(e.unit.id) },
      consumption: { ...e.consumption, usage_unit_id: idKey(e.consumption.usage_unit_id) },
    });
  return [...byId.values()].map((copies) => {
    const first = copies[0]!;
    const metrics = unitMetrics(first.unit, first.consumption, months, use);
    if (copies.every((c) => content(c) === content(first))) return metrics;
    const conflict: UnitMetrics = { unit: first.unit };
    for (const c of copies)
      for (const [metric, m] of Object.entries(unitMetrics(c.unit, c.consumption, months, use))) {
        if (metric !== 'unit') conflict[metric as Metric] = (m as PointMonth[]).map((x) => missingMonth(x.month, 'duplicate_point'));
      }
    return conflict;
  });
}
