// What a run says when it stops, resumes or finds itself running twice: the export's words, or the
// monthly information's (`meterdata uvi`, whose template is `uvi-…`), so an interrupted uvi does not
// speak of an export.
import { runKind } from './options/index.js';
import { runText } from './texts-run.js';
import { uviStopTexts } from './texts-uvi.js';

type StopWords = Pick<typeof runText, keyof typeof uviStopTexts>;

/** The words for a run of `template` (ExportArgs.template, or the identity's). */
export function stopWords(template: unknown): StopWords {
  return runKind(template) === 'uvi' ? uviStopTexts : runText;
}
