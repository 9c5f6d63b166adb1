// One measuring point's answer (under a unit, or a plant-room point) → billed value,
// segment rows, reading rows and flags. Rules: spec "Billing rules" 1, 2, 4, 5, 6, 7.
import type { DeviceSegment, MeasuringPointConsumption } from '../api/types.js';
import { ZERO, dec, formatDecimal, sum, type Decimal } from './decimal.js';
import { isContractBreak, segmentBreaks } from './contract.js';
import { codesOf, dedupeFlags, enumFlag, makeFlag, type FlagScope } from './flags.js';
import { unmeasured } from './gaps.js';
import { meterDifferenceOff, receivedText, segmentProblems, shareProblem, shownValue, unrepresentable } from './plausible.js';
import { BILLABLE_STATUSES, type Flag, type ReadingRow, type SegmentRow } from './types.js';
import { notInSeries } from './month-end.js';

export { BILLABLE_STATUSES };

export interface PointContext {
  property_id: string;
  /** null for plant-room and main points (readings endpoint). */
  usage_unit_id: string | null;
  /** From the MeasuringPoint resource, where known: false on either side means not linked. */
  is_system_linked?: boolean | undefined;
  /** Point-level findings made elsewhere (e.g. share sums across units, plant-room allocation). */
  extraFlags?: Flag[] | undefined;
  /** Effective range: a device removed or replaced after its end is no finding for this period. */
  range?: { from: string; to: string } | undefined;
}

export interface PointBill {
  measuring_point_id: string;
  metric: string;
  unit: string;
  is_system_linked: boolean;
  /** The point's contribution after all rules (share-weighted under a unit). */
  billed: Decimal;
  segments: SegmentRow[];
  readings: ReadingRow[];
  /** Point-level and segment-level flags of this point, in segment order. */
  flags: Flag[];
}

export interface SegmentValue {
  billed: Decimal;
  /** True when weighted_billable_value was expected (under a unit) but absent and the value counts. */
  weightedAbsent: boolean;
}

/**
 * What one segment contributes. Under a unit: weighted_billable_value; where absent,
 * billable_value x unit_share (the contract defines weighted as exactly that, and billing
 * billable_value alone would bill a shared meter in full to each unit). Plant points:
 * billable_value. Non-billable statuses: 0, whatever value they carry.
 */
export function segmentValue(segment: DeviceSegment, unitShare: number | null): SegmentValue {
  const pc = segment.period_consumption;
  if (!BILLABLE_STATUSES.includes(pc.status)) return { billed: ZERO, weightedAbsent: false };
  if (unitShare === null) return { billed: dec(pc.billable_value), weightedAbsent: false };
  if (typeof pc.weighted_billable_value === 'number') return { billed: dec(pc.weighted_billable_value), weightedAbsent: false };
  return { billed: dec(pc.billable_value).times(unitShare), weightedAbsent: true };
}

/**
 * Segment order: by start (installation, else baseline date), then end (a device removed the day it was
 * installed before its successor installed that day; still installed last), then device id, independent of input order.
 */
export function sortSegments(segments: readonly DeviceSegment[]): DeviceSegment[] {
  const start = (s: DeviceSegment) => s.installed_at ?? s.baseline_date ?? '';
  const end = (s: DeviceSegment) => s.deinstalled_at ?? '9999-12-31';
  return [...segments].sort(
    (a, b) =>
      cmp(start(a), start(b)) || cmp(end(a), end(b)) || cmp(a.baseline_date ?? '', b.baseline_date ?? '') || cmp(a.device_id, b.device_id) || tieBreak(a, b),
  );
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Last resort when ids tie (the same point or device twice in an answer): order by content, so input order never shows. */
export function tieBreak(a: unknown, b: unknown): number {
  return cmp(JSON.stringify(a), JSON.stringify(b));
}

/** Flags about the point as a whole (device_id null). */
export function pointFlags(c: MeasuringPointConsumption, scope: FlagScope, linked: boolean, range?: { from: string; to: string }): Flag[] {
  const flags: (Flag | null)[] = [enumFlag('metric', c.metric, scope), enumFlag('unit', c.unit, scope)];
  if (c.metric === 'water_outdoor') flags.push(makeFlag('WATER_OUTDOOR', scope));
  if (!linked) flags.push(makeFlag('NOT_SYSTEM_LINKED', scope));
  if (c.is_difference_meter) flags.push(makeFlag('DIFFERENCE_METER', scope));
  const offDate = notInSeries(c, range);
  if (offDate) flags.push(makeFlag('READING_NOT_IN_SERIES', scope, offDate));
  // A point with no segments that is not a difference meter has no coverage at all, whatever data_gap says.
  if (c.data_gap === true || (c.segments.length === 0 && !c.is_difference_meter)) flags.push(makeFlag('DATA_GAP', scope));
  return flags.filter((f): f is Flag => f !== null);
}

/** Flags about one segment (device_id set). */
export function segmentFlags(
  seg: DeviceSegment,
  scope: FlagScope,
  ctx: {
    segmentCount: number;
    isLast: boolean;
    weightedAbsent: boolean;
    unitShare?: number | null;
    rangeTo?: string | undefined;
    broken?: boolean;
    /** The Property's list shows a device installed that the answer lacks: "no device follows" is untrue. */
    deviceNotSent?: boolean;
    metric?: string;
  },
): Flag[] {
  const s: FlagScope = { ...scope, device_id: seg.device_id };
  const serial = { serial: seg.serial };
  const pc = seg.period_consumption;
  const flags: (Flag | null)[] = [];
  if (pc.status === 'calibration_expired' || pc.status === 'missing') {
    // The value the server still sent is shown (it is not billed), so the accountant can judge an estimate.
    const delivered: Record<string, string> = pc.billable_value ? { delivered_value: receivedText(pc.billable_value) } : {};
    // The meter's metric picks the explanation: only heating and warm water fall under the HeizkostenV's § 9a.
    const metric: Record<string, string> = pc.status === 'calibration_expired' && ctx.metric !== undefined ? { point_metric: ctx.metric } : {};
    flags.push(makeFlag(pc.status === 'missing' ? 'MISSING_VALUE' : 'CALIBRATION_EXPIRED', s, { ...serial, ...delivered, ...metric }));
  } else {
    flags.push(enumFlag('status', pc.status, s));
  }
  flags.push(enumFlag('baseline_origin', seg.baseline_origin, s), enumFlag('replacement_reason', seg.replacement_reason, s));
  if (seg.baseline_origin === 'assumed_zero') flags.push(makeFlag('ASSUMED_ZERO_BASELINE', s, { ...serial, baseline_date: seg.baseline_date }));
  // A device taken out after the range still measured the whole period: its reason is about a later one.
  const inRange = !(seg.deinstalled_at && ctx.rangeTo && seg.deinstalled_at > ctx.rangeTo);
  const reason = inRange ? seg.replacement_reason : null;
  // "Old and new device added up" is untrue of a point whose segments break the contract: none is billed.
  if (!ctx.broken && (reason === 'DeviceReplacement' || ctx.segmentCount > 1)) {
    flags.push(makeFlag('DEVICE_REPLACED', s, { ...serial, segments: String(ctx.segmentCount) }));
  }
  // "Removed without replacement" only where no device follows and the service does not say it was replaced.
  if (ctx.isLast && inRange && !ctx.deviceNotSent && reason !== 'DeviceReplacement' && (reason === 'DeviceRemoval' || seg.deinstalled_at)) {
    flags.push(makeFlag('DEVICE_REMOVED', s, { ...serial, deinstalled_at: seg.deinstalled_at ?? '' }));
  }
  for (const r of seg.readings) {
    flags.push(enumFlag('reading_status', r.status, s), enumFlag('substitution_method', r.substitution_method, s));
  }
  // "Billed as delivered" is only true where the segment is billed at all.
  const synthetic = seg.readings.filter((r) => r.is_synthetic || r.status === 'calculated').length;
  if (!ctx.broken && BILLABLE_STATUSES.includes(pc.status) && (synthetic > 0 || pc.status === 'calculated' || pc.status === 'substituted')) {
    flags.push(makeFlag('SYNTHETIC_VALUE', s, { ...serial, readings: String(synthetic) }));
  }
  if (ctx.weightedAbsent) flags.push(makeFlag('WEIGHTED_VALUE_ABSENT', s, { ...serial, unit_share: formatDecimal(ctx.unitShare ?? 1) }));
  return flags.filter((f): f is Flag => f !== null);
}

/**
 * Bills one point. unitShare: the unit's share (unit consumption endpoint, default 1),
 * or null for a plant-room point read through the readings endpoint (rule 1).
 */
export function billPoint(c: MeasuringPointConsumption, ctx: PointContext, unitShare: number | null): PointBill {
  const linked = c.is_system_linked !== false && ctx.is_system_linked !== false;
  const scope: FlagScope = { property_id: ctx.property_id, usage_unit_id: ctx.usage_unit_id, measuring_point_id: c.measuring_point_id, device_id: null };
  // An impossible share blocks every segment of the point; it is blamed once, on the point.
  const badShare = unitShare === null ? null : shareProblem(unitShare);
  const breaks = segmentBreaks(c, ctx.range?.from && ctx.range.to ? ctx.range : undefined).map((b) => makeFlag(b.code, scope, b.facts));
  const own = [
    ...(ctx.extraFlags ?? []),
    ...breaks,
    ...pointFlags(c, scope, linked, ctx.range?.from && ctx.range.to ? ctx.range : undefined),
    ...(badShare ? [makeFlag(badShare.code, scope, badShare.facts)] : []),
  ];
  // A point whose answer breaks the contract (overlapping segments, a meter nobody lists), or lacks the device the
  // Property's list shows installed (listed-absent.ts), bills none of its segments.
  const deviceNotSent = own.some((f) => f.code === 'LISTED_DEVICE_NOT_SENT');
  const broken = deviceNotSent || own.some((f) => isContractBreak(f.code));
  const base = {
    property_id: ctx.property_id,
    usage_unit_id: ctx.usage_unit_id,
    measuring_point_id: c.measuring_point_id,
    metric: c.metric,
    unit: c.unit,
    unit_share: unitShare === null ? null : shownValue(unitShare),
    is_system_linked: linked,
    data_gap: c.data_gap === true,
    is_difference_meter: c.is_difference_meter,
  };
  const segments = sortSegments(c.segments);
  const flags = [...own, ...unmeasured(segments, broken ? undefined : ctx.range, scope, c.metric)];
  const rows: SegmentRow[] = [];
  const readings: ReadingRow[] = [];
  const values: Decimal[] = [];
  segments.forEach((seg, i) => {
    const billable = BILLABLE_STATUSES.includes(seg.period_consumption.status);
    const problems = billable ? segmentProblems(seg, badShare ? null : unitShare, broken ? null : c.metric) : unrepresentable(seg);
    const v = billable && !badShare && !broken && problems.length === 0 ? segmentValue(seg, unitShare) : { billed: ZERO, weightedAbsent: false };
    const found = problems.map((p) => makeFlag(p.code, { ...scope, device_id: seg.device_id }, { serial: seg.serial, ...p.facts }));
    // a hint that the billed value may be wrong: only where it is billed
    const off = billable && !badShare && !broken && problems.length === 0 ? meterDifferenceOff(seg) : null;
    if (off) found.push(makeFlag('BILLABLE_VALUE_DIFFERS', { ...scope, device_id: seg.device_id }, { serial: seg.serial, ...off }));
    const segFlags = dedupeFlags([
      ...found,
      ...segmentFlags(seg, scope, {
        segmentCount: segments.length,
        isLast: i === segments.length - 1,
        weightedAbsent: v.weightedAbsent,
        unitShare,
        rangeTo: ctx.range?.to,
        broken,
        deviceNotSent,
        metric: c.metric,
      }),
    ]);
    values.push(v.billed);
    flags.push(...segFlags);
    rows.push({ ...base, ...deviceFields(seg), billed_value: formatDecimal(v.billed), review_flags: codesOf([...own, ...segFlags]) });
    readings.push(...readingRows(c.measuring_point_id, seg));
  });
  if (segments.length === 0) rows.push({ ...base, ...EMPTY_DEVICE, billed_value: '0', review_flags: codesOf(own) });
  // The same segment sent a thousand times is shown once, with its readings once (differing copies all stay).
  const shown = broken ? { segments: uniqueRows(rows), readings: uniqueRows(readings) } : { segments: rows, readings };
  return {
    measuring_point_id: c.measuring_point_id,
    metric: c.metric,
    unit: c.unit,
    is_system_linked: linked,
    billed: sum(values),
    ...shown,
    flags: dedupeFlags(flags),
  };
}

function uniqueRows<T>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = JSON.stringify(r);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

type DeviceFields = Omit<
  SegmentRow,
  | 'property_id'
  | 'usage_unit_id'
  | 'measuring_point_id'
  | 'metric'
  | 'unit'
  | 'unit_share'
  | 'is_system_linked'
  | 'data_gap'
  | 'is_difference_meter'
  | 'billed_value'
  | 'review_flags'
>;

const EMPTY_DEVICE: DeviceFields = {
  device_id: null,
  serial: null,
  manufacturer: null,
  installed_at: null,
  deinstalled_at: null,
  replacement_reason: null,
  factor: null,
  baseline_value: null,
  baseline_date: null,
  baseline_origin: null,
  end_value: null,
  billable_value: null,
  weighted_billable_value: null,
  status: null,
};

function deviceFields(seg: DeviceSegment): DeviceFields {
  const pc = seg.period_consumption;
  return {
    device_id: seg.device_id,
    serial: seg.serial,
    manufacturer: seg.manufacturer,
    installed_at: seg.installed_at,
    deinstalled_at: seg.deinstalled_at,
    replacement_reason: seg.replacement_reason,
    factor: shownValue(seg.factor),
    baseline_value: shownValue(seg.baseline_value),
    baseline_date: seg.baseline_date ?? null,
    baseline_origin: seg.baseline_origin ?? null,
    end_value: shownValue(pc.end_value),
    billable_value: shownValue(pc.billable_value),
    weighted_billable_value: shownValue(pc.weighted_billable_value),
    status: pc.status,
  };
}

export function readingRows(pointId: string, seg: DeviceSegment): ReadingRow[] {
  return [...seg.readings]
    .sort((a, b) => cmp(a.at, b.at) || tieBreak(a, b))
    .map((r) => ({
      measuring_point_id: pointId,
      device_id: seg.device_id,
      serial: seg.serial,
      at: r.at,
      value: shownValue(r.value),
      status: r.status,
      is_synthetic: r.is_synthetic,
      substitution_method: r.substitution_method ?? null,
    }));
}
