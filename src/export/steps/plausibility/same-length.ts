// The comparison of a period the service shortened. An export of the current year is answered up
// to the service's last completed month (January to October in November), while `--compare 2025`
// or a 2025 folder covers twelve months: ten months beside twelve would report nearly every figure
// as changed (round 16's flood, by another way). Where the comparison is the export's own months in
// another year, it follows the answer: the same months of that year. Any other comparison of
// another number of months than the answer is refused. Pure.
import { otherLength, sameMonthsIn, type Range } from '../../../core/dates.js';
import { MeterdataError, ExitCode } from '../../../core/errors.js';
import { day } from '../../../i18n/index.js';
import { plausibilityTexts as pt } from './texts.js';

/**
 * The months to fetch for the comparison beside the export's period as the service answered it
 * (`own`): `asked` moved with the answer where it is the requested months in another year, else `asked`.
 */
export function comparisonFor(asked: Range, requested: Range, own: Range): Range {
  const year = asked.from.slice(0, 4);
  const same = sameMonthsIn(requested, year, null);
  return same.from === asked.from && same.to === asked.to ? sameMonthsIn(own, year, null) : asked;
}

/** Refuses a comparison of another number of months than the period the service answered for. */
export function checkSameLength(own: Range, comparison: Range): void {
  const other = otherLength(own, comparison);
  if (!other) return;
  const { ours, theirs } = other;
  const like = sameMonthsIn(own, comparison.from.slice(0, 4), null);
  throw new MeterdataError(pt.otherLength({ from: day(own.from), to: day(own.to), ours, cFrom: day(comparison.from), cTo: day(comparison.to), theirs }), {
    code: 'EXPORT_COMPARE_MISMATCH',
    exitCode: ExitCode.USAGE,
    hint: pt.otherLengthHint({ from: like.from, to: like.to }),
  });
}
