// Accountant-facing texts for every flag (src/billing/texts.ts): what happened, what to do,
// and where: review.csv names the Property, unit and meter beside the ids.
import { day, inLanguage, type Lang } from '../i18n/index.js';
import { factLabels, flagExplanations, flagTitles } from './texts.js';
import type { Flag, FlagCode, ReviewRow, Severity } from './types.js';

export type { Lang };
interface Text { title: string; explanation: string }

const SEVERITY_ORDER: Record<Severity, number> = { not_billed: 0, review: 1, info: 2 };

export function flagText(code: FlagCode, lang: Lang): Text {
  return { title: inLanguage(flagTitles, lang)[code], explanation: inLanguage(flagExplanations, lang)[code] };
}

/** "title (facts). explanation" — facts in the reader's language, German decimals with a comma. */
export function flagMessage(flag: Flag, lang: Lang): string {
  const { title, explanation } = flagText(flag.code, lang);
  const facts = factPairs(flag, lang)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`);
  return `${title}${facts.length ? ` (${facts.join(', ')})` : ''}. ${explanation}`;
}

/** German decimals with a comma, dates as dd.mm.yyyy; everything else as is (a serial stays unchanged). */
function germanFact(v: string): string {
  if (/^-?\d+\.\d+$/.test(v)) return v.replace('.', ',');
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? day(v, 'de') : v;
}

/** What a finding is about, by name: review.csv and the review sheet carry these beside the ids. */
export interface FindingPlace {
  property_name: string | null;
  usage_unit_name: string | null;
  /** The meter's metric (a code; the writers show it as a word where the layout wants). */
  metric: string | null;
  serial: string | null;
  localization: string | null;
}

const NOWHERE: FindingPlace = { property_name: null, usage_unit_name: null, metric: null, serial: null, localization: null };

/** review.csv rows: not billed first, then review, then info; within a severity the flags' order. */
export function reviewRows(flags: Flag[], lang: Lang, place: (f: Flag) => FindingPlace = () => NOWHERE): (ReviewRow & FindingPlace)[] {
  return flags
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => ({
      severity: f.severity,
      code: f.code,
      property_id: f.property_id,
      usage_unit_id: f.usage_unit_id,
      measuring_point_id: f.measuring_point_id,
      device_id: f.device_id,
      ...place(f),
      message: flagMessage(f, lang),
    }));
}

/** A flag's facts as [label, value] in the reader's language, for screens that list them. */
export function factPairs(flag: Flag, lang: Lang): [string, string][] {
  const labels = inLanguage(factLabels, lang) as Record<string, string>;
  return Object.entries(flag.facts ?? {}).map(([k, v]) => [labels[k] ?? k, lang === 'de' ? germanFact(v) : v]);
}
