// The plausibility review of one Property: every check on the period being billed, and
// the comparison with another period where one is given. Pure: figures in, rows and
// findings (billing Flags, so review.csv lists them with the billing findings) out.
import { dec, formatDecimal, type Decimal } from '../billing/decimal.js';
import { codesOf, makeFlag } from '../billing/flags.js';
import type { Flag, FlagCode } from '../billing/types.js';
import { calibrationFlags } from './calibration.js';
import { compareFigure, type Comparison } from './compare.js';
import { estimatedShares, figureKey, isZeroConsumption, perM2 } from './checks.js';
import { COST_GROUPS, estimatedAreas, type EstimatedArea } from './heating-area.js';
import type { CurrentFigure, DeviceFact, Figure, PlausibilityRow, ReviewOptions } from './types.js';

export interface ReviewInput {
  current: readonly CurrentFigure[];
  devices: readonly DeviceFact[];
  /** The same Property's figures in the comparison period; null without a comparison. */
  comparison: readonly Figure[] | null;
}

export interface ReviewResult {
  rows: PlausibilityRow[];
  flags: Flag[];
}

const show = (d: Decimal | null): string | null => (d === null ? null : formatDecimal(d.toDecimalPlaces(3, 4)));

function scopeOf(f: Figure) {
  return { property_id: f.property_id, usage_unit_id: f.usage_unit_id, measuring_point_id: f.measuring_point_id, device_id: null };
}

function comparisonFacts(f: Figure, c: Comparison, current: Figure | undefined): Record<string, string> {
  return {
    metric: f.metric,
    unit: f.unit,
    billed_value: current?.value ?? '',
    comparison_value: c.comparison_value ?? '',
    change_percent: c.change_percent ?? '',
    not_billed_in: c.notBilledIn ?? '',
  };
}

/** Names a finding lists before it counts the rest ("WE 01, …, WE 20 +280"): a message stays readable in a cell. */
const NAMES_SHOWN = 20;

/** The § 9a (2) finding's facts: the areas, the share and the units it rests on, those without an area named. */
function areaFacts(a: EstimatedArea): Record<string, string> {
  const names = (pick: (u: EstimatedArea['units'][number]) => boolean) => {
    const all = a.units.filter(pick).map((u) => u.name);
    return all.slice(0, NAMES_SHOWN).join(', ') + (all.length > NAMES_SHOWN ? ` +${all.length - NAMES_SHOWN}` : '');
  };
  return {
    cost_group: a.group,
    estimated_area: formatDecimal(a.estimatedArea),
    total_area: formatDecimal(a.totalArea),
    // Without every estimated unit's area there is no share to give, only the units to ask about.
    estimated_area_share: a.high ? (a.percent?.toFixed(1) ?? '') : '',
    estimated_units: names((u) => u.estimated),
    units_without_area: names((u) => u.area === null),
  };
}

export function reviewProperty(input: ReviewInput, opts: ReviewOptions): ReviewResult {
  const current = new Map(input.current.map((f) => [figureKey(f), f]));
  const previous = new Map((input.comparison ?? []).map((f) => [figureKey(f), f]));
  const keys = [...current.keys(), ...[...previous.keys()].filter((k) => !current.has(k))];
  const comparisons = new Map<string, Comparison>();
  if (input.comparison) for (const k of keys) comparisons.set(k, compareFigure(current.get(k), previous.get(k), opts.threshold));

  // A unit new (or gone) with all its figures is one finding about the unit, not one per metric.
  const wholeUnit = (code: FlagCode): Set<string> => {
    const byUnit = new Map<string, boolean>();
    for (const k of keys) {
      const f = current.get(k) ?? previous.get(k)!;
      if (f.usage_unit_id === null) continue;
      byUnit.set(f.usage_unit_id, (byUnit.get(f.usage_unit_id) ?? true) && (comparisons.get(k)?.codes.includes(code) ?? false));
    }
    return new Set([...byUnit].filter(([, all]) => all).map(([u]) => u));
  };
  const newUnits = wholeUnit('NEW_SINCE_COMPARISON');
  const goneUnits = wholeUnit('GONE_SINCE_COMPARISON');
  const unitFlagged = new Set<string>();

  const areas = perM2(input.current);
  const rows: PlausibilityRow[] = [];
  const rowByKey = new Map<string, PlausibilityRow>();
  const flags: Flag[] = [];
  for (const k of keys) {
    const cur = current.get(k);
    const f = cur ?? previous.get(k)!;
    const c = comparisons.get(k);
    const codes: FlagCode[] = [];
    for (const code of c?.codes ?? []) {
      codes.push(code);
      const whole = f.usage_unit_id !== null && (code === 'NEW_SINCE_COMPARISON' ? newUnits : code === 'GONE_SINCE_COMPARISON' ? goneUnits : null)?.has(f.usage_unit_id);
      if (!whole) flags.push(makeFlag(code, scopeOf(f), comparisonFacts(f, c!, cur)));
      else if (!unitFlagged.has(f.usage_unit_id!)) {
        unitFlagged.add(f.usage_unit_id!);
        flags.push(makeFlag(code, { ...scopeOf(f), measuring_point_id: null }));
      }
    }
    if (cur && isZeroConsumption(cur)) {
      codes.push('ZERO_CONSUMPTION');
      flags.push(makeFlag('ZERO_CONSUMPTION', scopeOf(cur), { metric: cur.metric, unit: cur.unit }));
    }
    const a = areas.get(k);
    if (cur && a?.outlier) {
      codes.push('PER_M2_OUTLIER');
      flags.push(makeFlag('PER_M2_OUTLIER', scopeOf(cur), { metric: cur.metric, unit: cur.unit, value_per_m2: show(a.perM2)!, median_per_m2: show(a.median)! }));
    }
    const row: PlausibilityRow = {
      property_id: f.property_id,
      property_name: f.property_name,
      usage_unit_id: f.usage_unit_id,
      usage_unit_name: f.usage_unit_name,
      unit_type: f.unit_type,
      measuring_point_id: f.measuring_point_id,
      metric: f.metric,
      unit: f.unit,
      billable_value: cur?.value ?? null,
      comparison_value: c?.comparison_value ?? null,
      comparison_status: c?.state ?? null,
      change_percent: c?.change_percent ?? null,
      area_m2: cur && cur.area_m2 !== null ? formatDecimal(dec(cur.area_m2)) : null,
      value_per_m2: show(a?.perM2 ?? null),
      median_per_m2: show(a?.median ?? null),
      checks: codes,
    };
    rows.push(row);
    rowByKey.set(k, row);
  }

  for (const s of estimatedShares(input.current)) {
    if (!s.high) continue;
    const scope = { property_id: s.property_id, usage_unit_id: null, measuring_point_id: null, device_id: null };
    flags.push(makeFlag('ESTIMATED_SHARE_HIGH', scope, { metric: s.metric, unit: s.unit, estimated_share: s.percent.toFixed(1) }));
    // The rows whose figure rests on non-measured values carry the mark, so the accountant sees where the share comes from.
    for (const [k, f] of current) if (f.kind === 'unit' && f.metric === s.metric && f.unit === s.unit && !dec(f.estimated_value).isZero()) rowByKey.get(k)?.checks.push('ESTIMATED_SHARE_HIGH');
  }
  for (const a of estimatedAreas(input.current)) {
    if (!a.high && !a.unknown) continue;
    const code = a.high ? 'ESTIMATED_AREA_HIGH' : 'ESTIMATED_AREA_UNKNOWN';
    flags.push(makeFlag(code, { property_id: a.property_id, usage_unit_id: null, measuring_point_id: null, device_id: null }, areaFacts(a)));
    const marked = new Set(a.units.filter((u) => u.estimated).map((u) => u.usage_unit_id));
    const metrics: readonly string[] = COST_GROUPS[a.group];
    for (const [k, f] of current) if (f.kind === 'unit' && metrics.includes(f.metric) && marked.has(f.usage_unit_id!)) rowByKey.get(k)?.checks.push(code);
  }
  const calibration = calibrationFlags(input.devices, opts.range);
  flags.push(...calibration);
  for (const fl of calibration) {
    const dev = input.devices.find((d) => d.device_id === fl.device_id)!;
    const row = rows.find((r) => r.billable_value !== null && (r.measuring_point_id ?? null) === (dev.usage_unit_id === null ? dev.measuring_point_id : null) && r.usage_unit_id === dev.usage_unit_id && r.metric === dev.metric);
    if (row) row.checks.push(fl.code);
  }
  for (const r of rows) r.checks = codesOf(r.checks.map((code) => ({ code }) as Flag));
  return { rows, flags };
}
