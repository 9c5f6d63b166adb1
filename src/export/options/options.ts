// `meterdata export` flags, checked before any request: each bad value is one line
// naming the flag (UsageError, exit 2). The parsers here are the ones
// src/commands/export/index.ts declares the flags with; what needs two flags at once is checked in parseExportArgs.
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { periodFlags, wholeMonths } from '../../core/dates.js';
import { lastCompletedMonthEnd } from '../../api/answers.js';
import type { KnownMetric } from '../../api/types.js';
import { parseReviewArgs, type ReviewArgs } from './review-options.js';
import { ALL_FORMATS, formatFlag, metricFlag, propertyFlag, rateLimitFlag, type Format } from './flags/index.js';
import { optionTexts as t } from './texts-options.js';
import { readUnitRefs, type UnitRefs } from '../steps/unit-refs/index.js';

export { ALL_FORMATS, FORMATS, formatFlag, metricFlag, propertyFlag, rateLimitFlag, thresholdFlag, type Format } from './flags/index.js';

export interface ExportArgs {
  /** Requested range, widened locally to whole months (the server's echo is what the sheets show). */
  from: string;
  to: string;
  propertyIds: string[];
  /** Empty: all metrics. */
  metrics: KnownMetric[];
  formats: Format[];
  out: string;
  /** No --out was given: `out` is the default folder named after the range. */
  defaultOut?: boolean;
  template: string;
  profile: string | undefined;
  rateLimit: number;
  json: boolean;
  quiet: boolean;
  strict: boolean;
  /** The plausibility review (src/plausibility); null with --no-plausibility. */
  review: ReviewArgs | null;
  /** --unit-refs: the ERP references, read and checked with the flags (src/export/steps/unit-refs/). */
  unitRefs: UnitRefs | null;
  /**
   * Browse's `e` on a unit screen: each Property is billed and reviewed whole (a shared meter's
   * copies and shares, the plausibility medians), then only this unit's rows and findings are
   * written, without plant-room meters (pipeline/one-unit.ts). Part of the identity: another
   * unit's export never passes for a re-run of this one.
   */
  unit?: string;
}

/** Read here by browse too (src/commands/browse.ts): one reader of --year/--from/--to. */
export { periodFlags };

/**
 * What parseExportArgs reads: the export command's flags as declared in
 * src/commands/export/index.ts (their inferred type must fit this one; the compiler checks it
 * where the command hands them over), each already read by its parser below. A caller that
 * builds them by hand (demo, browse's `e`, tests) may give the raw text of a list flag: it
 * goes through the same parser.
 */
export type ExportFlags = {
  profile?: string;
  allProfiles?: boolean;
  profiles?: string;
  year?: string;
  from?: string;
  to?: string;
  property?: string[];
  metric?: KnownMetric[] | string;
  format?: Format[] | string;
  out?: string;
  template?: string;
  rateLimit?: number | string;
  json?: boolean;
  quiet?: boolean;
  strict?: boolean;
  compare?: string;
  compareFrom?: string;
  compareTo?: string;
  threshold?: string;
  plausibility?: boolean;
  unitRefs?: string;
  /** Not a flag of the command: browse's `e` on a unit screen (ExportArgs.unit). */
  unit?: string;
};

/**
 * The range the service will answer for, as far as this computer's clock can tell: `to`
 * capped at the last completed month. The default folder is named after it; the sheets
 * and the manifest carry what the service echoed.
 */
export function expectedRange(from: string, to: string, now: Date): { from: string; to: string } {
  const last = lastCompletedMonthEnd(now);
  return { from, to: to > last && last >= from ? last : to };
}

export function parseExportArgs(opts: ExportFlags, cwd: string, env: NodeJS.ProcessEnv, now = new Date()): ExportArgs {
  const period = periodFlags(opts);
  if (!period) throw new UsageError(t.whichPeriod, t.whichPeriodHint, 'USAGE_NO_PERIOD');
  const { from, to } = wholeMonths(period.from, period.to, ['--from', '--to']);
  const propertyIds = (opts.property ?? []).reduce<string[]>((ids, v) => propertyFlag(v, ids), []);
  const metrics = typeof opts.metric === 'string' ? metricFlag(opts.metric) : (opts.metric ?? []);
  const formats = typeof opts.format === 'string' || opts.format === undefined ? formatFlag(opts.format ?? ALL_FORMATS) : opts.format;
  const rateLimit = typeof opts.rateLimit === 'string' ? rateLimitFlag(opts.rateLimit) : (opts.rateLimit ?? 300);
  const template = opts.template ?? 'generic';
  const expected = expectedRange(from, to, now);
  const out = path.resolve(cwd, opts.out ?? `meterdata-${expected.from}_${expected.to}`);
  const profile = opts.profile ?? env.METERDATA_PROFILE;
  const review = parseReviewArgs(opts, cwd, { from, to });
  refuseSelfComparison(opts, review, { from, to });
  return {
    from,
    to,
    propertyIds,
    metrics,
    formats,
    out,
    ...(opts.out === undefined ? { defaultOut: true } : {}),
    template,
    profile: profile || undefined,
    rateLimit,
    json: opts.json === true,
    quiet: opts.quiet === true,
    strict: opts.strict === true,
    review,
    unitRefs: readUnitRefs(opts.unitRefs, cwd),
    ...(opts.unit ? { unit: opts.unit } : {}),
  };
}

/** A comparison period equal to the export's own is a mistake (a year typed twice), never a review. */
function refuseSelfComparison(opts: ExportFlags, review: ReviewArgs | null, period: { from: string; to: string }): void {
  const c = review?.compare;
  if (!c || !('from' in c) || c.from !== period.from || c.to !== period.to) return;
  const flag = opts.compare !== undefined ? `--compare ${opts.compare}` : `--compare-from ${opts.compareFrom} --compare-to ${opts.compareTo}`;
  throw new UsageError(t.compareSame({ flag }), t.compareSameHint({ example: String(Number(period.from.slice(0, 4)) - 1) }));
}

/**
 * What identifies "the same export": everything that shapes the files. The manifest and
 * the --out check use it; the journal key adds the out folder (two folders, two journals).
 */
export function identity(a: ExportArgs): Record<string, unknown> {
  return {
    profile: a.profile ?? 'default',
    from: a.from,
    to: a.to,
    properties: a.propertyIds,
    metrics: a.metrics,
    formats: a.formats,
    template: a.template,
    ...(a.review ? { review: a.review } : {}),
    ...(a.unit ? { unit: a.unit } : {}),
  };
}

export type RunKind = 'export' | 'uvi';
/**
 * The command a run belongs to, by its template: the monthly information's are `uvi-<layout>` (src/export/uvi.ts). An
 * export's is a built-in name or a file's path, which holds a dot or a slash: `--template uvi-mine.json` was taken for
 * the monthly information's by every folder check (round 63 Y7).
 */
export function runKind(template: unknown): RunKind {
  return typeof template === 'string' && template.startsWith('uvi-') && !/[./\\]/.test(template) ? 'uvi' : 'export';
}

/**
 * SOURCE_DATE_EPOCH (seconds, the reproducible-builds convention) fixes the export time
 * written into the files, so separate runs over the same data give the same bytes.
 */
export function fixedExportTime(env: NodeJS.ProcessEnv): Date | null {
  const v = env.SOURCE_DATE_EPOCH;
  if (v === undefined || v === '') return null;
  if (!/^\d{1,12}$/.test(v)) throw new UsageError(t.badEpoch({ value: v }), t.badEpochHint);
  return new Date(Number(v) * 1000);
}
