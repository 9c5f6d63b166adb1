// One usage unit's consumption answer → billing rows (per metric), segment rows, flags.
// Rule 2: weighted values per unit; rule 3 is checked across units by shareTotals().
import type { MeasuringPoint, UnitConsumption, UsageUnit } from '../api/types.js';
import { dec, formatDecimal, sum, type Decimal } from './decimal.js';
import { BY_ANY_UNIT, BY_OWN_SUMMARY, idKey, unitPointBreaks, type ContractBreak, type ListedKinds, type ListedPoints } from './contract.js';
import { codesOf, dedupeFlags, enumFlag, makeFlag, type FlagScope } from './flags.js';
import { SHARE_TOLERANCE, receivedText, representable } from './plausible.js';
import { billPoint, cmp, tieBreak, type PointBill } from './point.js';
import { deviceNotSent, pointsNotSent, type ListedAbsent } from './listed-absent.js';
import { notAsListed } from './listed-facts.js';
import type { BillingRow, Flag, ReadingRow, SegmentRow } from './types.js';

export { SHARE_TOLERANCE };

export interface ShareTotal {
  sum: Decimal;
  units: number;
  /** Shared: under more than one unit, or a share below 1. */
  shared: boolean;
}

export interface UnitInput {
  property: { id: string; name: string };
  unit: UsageUnit;
  consumption: UnitConsumption;
  /** Effective range of the property run; used where the unit's answer echoes none. */
  range?: { from: string; to: string };
  /** Share sums across all units of the property (billProperty supplies them); without, shares are not checked. */
  shares?: ReadonlyMap<string, ShareTotal>;
  /** is_system_linked per point (idKey) from the Property's point list: false on either side means not linked (as for plant points). */
  listedLinks?: ReadonlyMap<string, boolean>;
  /** listedPointsOf the Property's point list: a point not listed for the unit (listedForUnit) is not billed. Without it: not checked. */
  listedPoints?: ListedPoints;
  /** listedKindsOf the Property's point list: a point the answer gives another metric or unit is not billed. Without it: not checked. */
  listedKinds?: ListedKinds;
  /** Breaks found across the Property's units, by point (idKey): a shared meter whose copies disagree (disagreeingCopies). */
  crossBreaks?: ReadonlyMap<string, ContractBreak>;
  /** listedAbsentOf the Property's point list: a listed point or active device the answer lacks is not billed. Without it: not checked. */
  listedAbsent?: ListedAbsent;
}

export interface UnitBill {
  billing: BillingRow[];
  segments: SegmentRow[];
  readings: ReadingRow[];
  flags: Flag[];
  points: PointBill[];
}

/**
 * Sum of unit_share per point (by idKey) over the given units' answers (missing unit_share
 * counts as 1). A unit counts once per point: a point its answer names twice (not billed
 * there) adds the smallest of its shares, not one per copy. `counts`: whether a unit's copy
 * of a point takes part (a copy not listed for its unit is not billed there, and its share
 * must not make another unit's lowered share look whole).
 */
export function shareTotals(
  consumptions: readonly UnitConsumption[],
  counts: (c: UnitConsumption, pointId: string) => boolean = () => true,
): Map<string, ShareTotal> {
  const totals = new Map<string, ShareTotal>();
  for (const c of consumptions) {
    const shares = new Map<string, number>();
    for (const p of c.measuring_points) {
      if (!counts(c, p.measuring_point_id)) continue;
      const id = idKey(p.measuring_point_id);
      const share = p.unit_share ?? 1;
      shares.set(id, Math.min(share, shares.get(id) ?? share));
    }
    for (const [id, share] of shares) {
      const t = totals.get(id) ?? { sum: dec(0), units: 0, shared: false };
      totals.set(id, { sum: t.sum.plus(share), units: t.units + 1, shared: t.shared || t.units > 0 || share < 1 });
    }
  }
  return totals;
}

/**
 * The Property's point list for UnitInput.listedPoints: per point (idKey), the units it is
 * listed for (see ListedPoints). A plant-room or main meter (usage_unit_id null, no
 * allocations) is listed for none: it is billed in plant-points.csv already. One with neither
 * field is listed for any unit; carried by a unit too, it is billed nowhere (unplacedPlantPoints).
 */
export function listedPointsOf(points: readonly Pick<MeasuringPoint, 'id' | 'usage_unit_id' | 'allocations'>[]): Map<string, Map<string, number | undefined>> {
  const out = new Map<string, Map<string, number | undefined>>();
  for (const p of points) {
    if (typeof p.id !== 'string') continue;
    const units = new Map<string, number | undefined>();
    for (const a of Array.isArray(p.allocations) ? p.allocations : []) addShare(units, idKey(a.usage_unit_id), a.share);
    if (typeof p.usage_unit_id === 'string' && !units.has(idKey(p.usage_unit_id))) units.set(idKey(p.usage_unit_id), undefined);
    // no allocations given: a unit whose own summary names the point may share it; any unit only where the entry names no unit either
    if (!Array.isArray(p.allocations)) {
      if (typeof p.usage_unit_id === 'string') units.set(BY_OWN_SUMMARY, undefined);
      else if (p.usage_unit_id === undefined) units.set(BY_ANY_UNIT, undefined);
    }
    // a point listed twice: the units of both entries
    const known = out.get(idKey(p.id));
    if (known) for (const [u, share] of units) addShare(known, u, share);
    else out.set(idKey(p.id), units);
  }
  return out;
}

/** A unit's listed share; one the list gives twice, differently, is NaN (no answer can match it). */
function addShare(units: Map<string, number | undefined>, unit: string, share: number | undefined): void {
  const known = units.get(unit);
  units.set(unit, known === undefined || share === undefined || known === share ? (known ?? share) : NaN);
}

/**
 * Whether billing accepted a unit's copy of a point: one not listed for the unit (POINT_NOT_LISTED), or
 * listed but not in its answer (LISTED_POINT_NOT_SENT, no copy at all), is not billed and gives no readings.
 */
export const copyBilled = (p: Pick<PointBill, 'flags'>): boolean => !p.flags.some((f) => f.code === 'POINT_NOT_LISTED' || f.code === 'LISTED_POINT_NOT_SENT');

export function shareMismatch(total: ShareTotal | undefined): boolean {
  return total !== undefined && total.shared && total.sum.minus(1).abs().greaterThan(SHARE_TOLERANCE);
}

export function billUnit(input: UnitInput): UnitBill {
  const { property, unit, consumption } = input;
  const unitScope: FlagScope = { property_id: property.id, usage_unit_id: unit.id, measuring_point_id: null, device_id: null };
  const unitFlags = [enumFlag('unit_type', unit.unit_type, unitScope)].filter((f): f is Flag => f !== null);
  const sorted = [...consumption.measuring_points].sort(
    (a, b) => cmp(a.metric, b.metric) || cmp(a.unit, b.unit) || cmp(a.measuring_point_id, b.measuring_point_id) || tieBreak(a, b),
  );
  const range = { from: consumption.from || input.range?.from || '', to: consumption.to || input.range?.to || '' };
  const breaks = unitPointBreaks(unit, consumption, input.listedPoints, input.listedKinds);
  const points = sorted.map((c) => {
    const total = input.shares?.get(idKey(c.measuring_point_id));
    const scope = { ...unitScope, measuring_point_id: c.measuring_point_id };
    const cross = input.crossBreaks?.get(idKey(c.measuring_point_id));
    const own = [...(breaks.get(idKey(c.measuring_point_id)) ?? []), ...(cross ? [cross] : [])];
    const extraFlags = own.map((b) => makeFlag(b.code, scope, b.facts));
    // a copy not listed for the unit is not the listed meter's answer: the list's device says nothing about it
    const unlisted = own.some((b) => b.code === 'POINT_NOT_LISTED');
    const listedDevice = unlisted ? undefined : input.listedAbsent?.devices.get(idKey(c.measuring_point_id));
    const device = deviceNotSent(c, listedDevice, range);
    if (device) extraFlags.push(makeFlag('LISTED_DEVICE_NOT_SENT', scope, device));
    if (!unlisted)
      extraFlags.push(...notAsListed(c, { device: listedDevice, difference: input.listedAbsent?.difference.get(idKey(c.measuring_point_id)) }, scope));
    // a copy not listed for the unit is not in the share sum (shareTotals), so the sum is not about it
    if (shareMismatch(total) && !own.some((b) => b.code === 'POINT_NOT_LISTED')) {
      extraFlags.push(
        // above 1 the units together would pay for more than the meter measured: billed nowhere
        makeFlag(total!.sum.greaterThan(1) ? 'SHARE_SUM_ABOVE_ONE' : 'SHARE_SUM_MISMATCH', scope, {
          unit_share: receivedText(c.unit_share ?? 1),
          share_sum: representable(total!.sum) ? formatDecimal(total!.sum) : receivedText(total!.sum.toNumber()),
          units: String(total!.units),
        }),
      );
    }
    return billPoint(
      c,
      { property_id: property.id, usage_unit_id: unit.id, is_system_linked: input.listedLinks?.get(idKey(c.measuring_point_id)), extraFlags, range },
      c.unit_share ?? 1,
    );
  });
  const notSent = pointsNotSent(unit, consumption, { absent: input.listedAbsent, listed: input.listedPoints, kinds: input.listedKinds }, unitScope);
  // a meter whose metric neither list names has no row to stand in: its finding is the unit's
  points.push(...notSent.filter((p) => p.metric !== ''));
  unitFlags.push(...notSent.filter((p) => p.metric === '').flatMap((p) => p.flags));

  const groups = new Map<string, PointBill[]>();
  for (const p of points) {
    const key = JSON.stringify([p.metric, p.unit]);
    // pushed, not copied: a list copied per point is quadratic, and one answer can hold 50,000 points
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const billing: BillingRow[] = [...groups.values()].map((group) => ({
    property_id: property.id,
    property_name: property.name,
    usage_unit_id: unit.id,
    usage_unit_name: unit.name,
    unit_type: unit.unit_type,
    metric: group[0]!.metric,
    unit: group[0]!.unit,
    from: range.from,
    to: range.to,
    billable_value: formatDecimal(sum(group.map((p) => p.billed))),
    points: new Set(group.filter(copyBilled).map((p) => idKey(p.measuring_point_id))).size,
    review_flags: codesOf([...unitFlags, ...group.flatMap((p) => p.flags)]),
  }));
  return {
    billing,
    segments: points.flatMap((p) => p.segments),
    readings: points.flatMap((p) => p.readings),
    flags: dedupeFlags([...unitFlags, ...points.flatMap((p) => p.flags)]),
    points,
  };
}
