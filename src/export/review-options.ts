// Flags of the plausibility review: --compare (a year, or an earlier export folder),
// --compare-from/--compare-to, --threshold and --plausibility. Checked before any request.
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { Template } from './templates.js';

export interface ReviewArgs {
  /** A period fetched from the service, an earlier export folder, or none (single-period checks only). */
  compare: { from: string; to: string } | { dir: string } | null;
  /** Percent, e.g. "25". */
  threshold: string;
}

export const DEFAULT_THRESHOLD = '25';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * null when no review was asked for. `wholeMonths` widens a date pair like --from/--to
 * (options.ts passes its own parser, so both ranges follow one rule).
 */
export function parseReviewArgs(opts: Record<string, unknown>, cwd: string, wholeMonths: (from: string, to: string, flags: [string, string]) => { from: string; to: string }): ReviewArgs | null {
  const compare = str(opts.compare);
  const cFrom = str(opts.compareFrom);
  const cTo = str(opts.compareTo);
  const thresholdRaw = str(opts.threshold);
  let target: ReviewArgs['compare'] = null;
  if (compare !== undefined) {
    if (cFrom !== undefined || cTo !== undefined) throw new UsageError('--compare cannot be combined with --compare-from/--compare-to.', 'Give either --compare 2024 (or an export folder) or --compare-from and --compare-to.');
    if (compare === '') throw new UsageError('--compare is empty.', 'Give a year (e.g. --compare 2024) or the folder of an earlier meterdata export.');
    if (/^\d{4}$/.test(compare)) target = wholeMonths(`${compare}-01-01`, `${compare}-12-31`, ['--compare', '--compare']);
    else target = { dir: path.resolve(cwd, compare) };
  } else if (cFrom !== undefined || cTo !== undefined) {
    if (cFrom === undefined) throw new UsageError('--compare-from is missing: --compare-to needs a start date too.', 'e.g. --compare-from 2024-01-01 --compare-to 2024-12-31, or --compare 2024.');
    if (cTo === undefined) throw new UsageError('--compare-to is missing: --compare-from needs an end date too.', 'e.g. --compare-from 2024-01-01 --compare-to 2024-12-31, or --compare 2024.');
    target = wholeMonths(cFrom, cTo, ['--compare-from', '--compare-to']);
  }
  if (target === null && thresholdRaw !== undefined) throw new UsageError('--threshold needs a comparison period.', 'Add --compare 2024 (or an earlier export folder), or leave --threshold out.');
  if (target === null && opts.plausibility !== true) return null;
  const threshold = thresholdRaw ?? DEFAULT_THRESHOLD;
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(threshold) || Number(threshold) <= 0 || Number(threshold) > 1000) {
    throw new UsageError(`--threshold: "${threshold}" is not a percentage above 0 and up to 1000.`, 'e.g. --threshold 25 for changes of more than 25 %.');
  }
  return { compare: target, threshold: String(Number(threshold)) };
}

/** The template as this export writes it: plausibility.csv and its sheet only when the review runs. */
export function activeTemplate(template: Template, review: ReviewArgs | null): Template {
  return review ? template : { ...template, files: template.files.filter((f) => f.table !== 'plausibility') };
}
