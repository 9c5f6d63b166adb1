// The plausibility review as a step of the export (review.ts). Without it (--no-plausibility)
// the step only leaves plausibility.csv and its sheet out.
import type { WhoAmI } from '../../../api/types.js';
import type { ExportArgs } from '../../options/index.js';
import type { ExportStep } from '../../pipeline/index.js';
import { activeTemplate } from '../../options/index.js';
import { reviewStep } from './review.js';

export { withFindings, type AnswersWithComparison, type ComparisonAnswers } from './review.js';
export { checkSameLength, comparisonFor } from './same-length.js';

export async function plausibilityStep(args: ExportArgs, who: WhoAmI): Promise<ExportStep> {
  if (!args.review) return { template: (template) => activeTemplate(template, null) };
  return reviewStep(args, args.review, who);
}
