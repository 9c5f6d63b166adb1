// The plausibility review of one Property: the rules of rules.ts on the period being billed
// and, where one is given, the comparison period. Pure: figures in, rows and findings
// (billing Flags, so review.csv lists them with the billing findings) out.
import { dec, formatDecimal } from '../billing/decimal.js';
import { codesOf } from '../billing/flags.js';
import type { Flag } from '../billing/types.js';
import type { Finding, PlausibilityRule, RuleColumns, RuleContext } from './rule.js';
import { RULES } from './rules.js';
import { figureKey } from './sides.js';
import type { CurrentFigure, DeviceFact, Figure, OtherLength, PlausibilityRow, ReviewOptions } from './types.js';

export interface ReviewInput {
  current: readonly CurrentFigure[];
  devices: readonly DeviceFact[];
  /** The same Property's figures in the comparison period; null without a comparison. */
  comparison: readonly Figure[] | null;
  /** Which figures the comparison speaks of (default: all); others get no comparison, and no finding of one. */
  compared?: (f: Figure) => boolean;
  /** A comparison of another number of months than the billed period, not compared (then `comparison` is null). */
  otherLength?: OtherLength;
}

export interface ReviewResult {
  rows: PlausibilityRow[];
  flags: Flag[];
}

function contextOf(input: ReviewInput, opts: ReviewOptions): RuleContext {
  const current = new Map(input.current.map((f) => [figureKey(f), f]));
  const comparison = input.comparison ? new Map(input.comparison.map((f) => [figureKey(f), f])) : null;
  const keys = [...current.keys(), ...[...(comparison?.keys() ?? [])].filter((k) => !current.has(k))];
  return {
    figures: input.current,
    current,
    comparison,
    keys,
    devices: input.devices,
    opts,
    compared: input.compared ?? (() => true),
    otherLength: input.otherLength ?? null,
  };
}

function rowOf(f: Figure, cur: CurrentFigure | undefined, c: RuleColumns): PlausibilityRow {
  return {
    property_id: f.property_id,
    property_name: f.property_name,
    usage_unit_id: f.usage_unit_id,
    usage_unit_name: f.usage_unit_name,
    unit_type: f.unit_type,
    measuring_point_id: f.measuring_point_id,
    metric: f.metric,
    unit: f.unit,
    billable_value: cur?.value ?? null,
    comparison_value: c.comparison_value ?? null,
    comparison_status: c.comparison_status ?? null,
    change_percent: c.change_percent ?? null,
    area_m2: cur && cur.area_m2 !== null ? formatDecimal(dec(cur.area_m2)) : null,
    value_per_m2: c.value_per_m2 ?? null,
    median_per_m2: c.median_per_m2 ?? null,
    checks: [],
  };
}

export function reviewProperty(input: ReviewInput, opts: ReviewOptions, rules: readonly PlausibilityRule[] = RULES): ReviewResult {
  const ctx = contextOf(input, opts);
  const columns = new Map<string, RuleColumns>();
  const figure: Finding[] = [];
  const other: Finding[] = [];
  for (const rule of rules) {
    const result = rule.check(ctx);
    for (const [k, c] of result.columns ?? []) columns.set(k, { ...columns.get(k), ...c });
    (rule.scope === 'figure' ? figure : other).push(...result.findings);
  }
  // Findings about one figure go row by row (a stable sort keeps the rules' order within a row).
  const index = new Map(ctx.keys.map((k, i) => [k, i]));
  figure.sort((a, b) => index.get(a.marks[0]!)! - index.get(b.marks[0]!)!);

  const rowByKey = new Map(ctx.keys.map((k) => [k, rowOf(ctx.current.get(k) ?? ctx.comparison!.get(k)!, ctx.current.get(k), columns.get(k) ?? {})]));
  const flags: Flag[] = [];
  for (const f of [...figure, ...other]) {
    if (f.flag) flags.push(f.flag);
    for (const k of f.marks) rowByKey.get(k)?.checks.push(f.code);
  }
  const rows = [...rowByKey.values()];
  for (const r of rows) r.checks = codesOf(r.checks.map((code) => ({ code }) as Flag));
  return { rows, flags };
}
