// Flags of the plausibility review, which runs on every export: --compare (a year, or an
// earlier export folder), --compare-from/--compare-to, --threshold, and --no-plausibility to
// leave it out. Checked before any request.
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { FIRST_YEAR, otherLength, sameMonthsIn, wholeMonths, type Range } from '../../core/dates.js';
import { day } from '../../i18n/index.js';
import { expectedRange } from './options.js';
import { optionTexts as t } from './texts-options.js';
import { thresholdFlag } from './flags/index.js';
import type { Template } from '../output/index.js';

export interface ReviewArgs {
  /** A period fetched from the service, an earlier export folder, or none (single-period checks only). */
  compare: { from: string; to: string } | { dir: string } | null;
  /** Percent, e.g. "25". */
  threshold: string;
}

export const DEFAULT_THRESHOLD = '25';

interface ReviewFlags {
  compare?: string;
  compareFrom?: string;
  compareTo?: string;
  threshold?: string;
  plausibility?: boolean;
}

/**
 * null with --no-plausibility (the review runs by default). Both ranges follow the one rule of
 * src/core/dates.ts; `period` is the export's own, widened to whole months: `--compare YYYY` takes
 * its months in that year, and a comparison range of another number of months is refused.
 */
export function parseReviewArgs(opts: ReviewFlags, cwd: string, period: Range): ReviewArgs | null {
  const { compare, compareFrom: cFrom, compareTo: cTo } = opts;
  let target: ReviewArgs['compare'] = null;
  if (compare !== undefined) {
    if (cFrom !== undefined || cTo !== undefined) throw new UsageError(t.compareWithPair, t.compareWithPairHint);
    if (/^\d{4}$/.test(compare)) target = sameMonthsIn(period, compare, ['--compare', '--compare']);
    else target = { dir: path.resolve(cwd, compare) };
  } else if (cFrom !== undefined || cTo !== undefined) {
    if (cFrom === undefined) throw new UsageError(t.compareFromMissing, t.comparePairHint);
    if (cTo === undefined) throw new UsageError(t.compareToMissing, t.comparePairHint);
    target = wholeMonths(cFrom, cTo, ['--compare-from', '--compare-to']);
    refuseOtherLength(target, period, `--compare-from ${cFrom} --compare-to ${cTo}`);
  }
  if (target === null && opts.threshold !== undefined) throw new UsageError(t.thresholdAlone, t.thresholdAloneHint);
  if (opts.plausibility === false) {
    if (target !== null) throw new UsageError(t.compareWithoutReview, t.compareWithoutReviewHint);
    return null;
  }
  return { compare: target, threshold: thresholdFlag(opts.threshold ?? DEFAULT_THRESHOLD) };
}

/**
 * A comparison of another number of months than the export sets, say, 7 months beside 12 and
 * reports every figure as changed (round 16). Whole months on both sides, so a leap February
 * is the same month as any other February.
 */
export function refuseOtherLength(compare: Range, period: Range, flag: string, now = new Date()): void {
  // as many months as the service will answer for are a comparison too (same-length.ts checks each Property's answer)
  const other = otherLength(period, compare, expectedRange(period.from, period.to, now));
  if (!other) return;
  const { theirs, ours } = other;
  // the example: the same months a year earlier, a year later where that would be before FIRST_YEAR
  const year = Number(period.from.slice(0, 4));
  const like = sameMonthsIn(period, String(year > FIRST_YEAR ? year - 1 : year + 1), null);
  throw new UsageError(
    t.compareOtherLength({ flag, theirs, ours, from: day(period.from), to: day(period.to) }),
    t.compareOtherLengthHint({ from: like.from, to: like.to, year: like.from.slice(0, 4) }),
  );
}

/** The template as this export writes it: plausibility.csv and its sheet only when the review runs. */
export function activeTemplate(template: Template, review: ReviewArgs | null): Template {
  return review ? template : { ...template, files: template.files.filter((f) => f.table !== 'plausibility') };
}
