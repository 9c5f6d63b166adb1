// The plausibility review as a step of the export (review.ts): the comparison period fetched
// with each Property, plausibility.csv and its findings per Property, its settings on the
// About sheet. Without the review (--no-plausibility) only plausibility.csv is left out.
import type { WhoAmI } from '../../../api/types.js';
import { language } from '../../../i18n/index.js';
import type { ExportArgs } from '../../options.js';
import type { ExportStep } from '../../pipeline/index.js';
import { activeTemplate } from '../../review-options.js';
import { startPlausibility, withFindings, type AnswersWithComparison } from './review.js';

export { withFindings, type AnswersWithComparison, type ComparisonAnswers } from './review.js';

/** Loads (and checks) a comparison folder before anything is fetched. */
export async function plausibilityStep(args: ExportArgs, who: WhoAmI): Promise<ExportStep> {
  const review = await startPlausibility(args, who);
  if (!review) return { template: (template) => activeTemplate(template, null) };
  return {
    progressUnits: (units) => review.progressUnits(units),
    announce: (reporter, unitsHint) => review.announce(reporter, unitsHint),
    fetch: (api, answers, { onUnit, stop }) => review.fetch(api, answers, onUnit, stop),
    findings({ answers, bill, range }) {
      const { rows, flags } = review.review(answers as AnswersWithComparison, bill, range);
      return { tables: [['plausibility', withFindings(rows, language())]], flags, marks: rows };
    },
    about: () => ({ checks: review.about() }),
  };
}
