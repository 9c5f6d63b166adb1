// Billing's findings the monthly information shows (verdict.ts: shownFinding) in review.csv's words
// for a letter, not a bill: billing's title with its "not billed" turned into what happens to the
// letters, the facts as billing gives them, and the uvi's own explanation (texts-findings.ts). Pure.
import { factPairs, flagText } from '../../billing/findings.js';
import type { Flag } from '../../billing/types.js';
import { inLanguage, type Lang } from '../../i18n/index.js';
import { refuses } from '../verdict.js';
import { uviFindingTexts } from './texts-findings.js';

/** The bill's ending of a refused meter's title (billing's texts-findings.ts), in both languages. */
const NOT_BILLED = /: (?:not billed|value must not be billed|nicht abgerechnet|Wert darf nicht abgerechnet werden)$/;

type Texts = typeof uviFindingTexts;
const OWN_TITLES = ['SEGMENT_OUTSIDE_RANGE'] as const satisfies readonly (keyof Texts)[];
const OWN_EXPLANATIONS = [
  'ASSUMED_ZERO_BASELINE',
  'NOT_SYSTEM_LINKED',
  'UNKNOWN_ENUM_VALUE',
  'SHARE_SUM_MISMATCH',
  'READING_NOT_IN_SERIES',
] as const satisfies readonly (keyof Texts)[];
const isOwn = <K extends string>(list: readonly K[], code: string): code is K => (list as readonly string[]).includes(code);

function title(f: Flag, t: Texts, lang: Lang): string {
  if (isOwn(OWN_TITLES, f.code)) return t[f.code];
  return flagText(f.code, lang).title.replace(NOT_BILLED, `: ${t.notUsed}`);
}

function explanation(f: Flag, t: Texts, lang: Lang): string {
  if (refuses(f)) return f.usage_unit_id === null ? t.refusedPlantMeter : t.refusedUnitMeter;
  if (isOwn(OWN_EXPLANATIONS, f.code)) return t[f.code];
  return flagText(f.code, lang, f.facts?.point_metric).explanation;
}

/** "title (facts). explanation", as billing's flagMessage, in the monthly information's words. */
export function uviFlagMessage(f: Flag, lang: Lang): string {
  const t = inLanguage(uviFindingTexts, lang);
  const facts = factPairs(f, lang)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`);
  return `${title(f, t, lang)}${facts.length ? ` (${facts.join(', ')})` : ''}. ${explanation(f, t, lang)}`;
}
