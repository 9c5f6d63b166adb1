// The findings (flags) in words for an accountant (their catalogue: texts-findings.ts):
// what happened, what to do, and where: review.csv names the Property, unit and meter beside the ids.
import { day, inLanguage, type Lang } from '../i18n/index.js';
import { factLabels, factWords } from './texts-facts.js';
import { flagExplanations, flagTitles } from './texts-findings.js';
import { heizkostenExplanations } from './texts-heizkosten.js';
import { valueWord } from './texts-values.js';
import type { Flag, FlagCode, ReviewRow, Severity } from './types.js';

export type { Lang };
interface Text {
  title: string;
  explanation: string;
}

const SEVERITY_ORDER: Record<Severity, number> = { not_billed: 0, review: 1, info: 2 };

/** Metrics billed under the HeizkostenV (heat meters, heat cost allocators, warm water); the rest is not. */
const HEIZKOSTEN_METRICS = new Set(['heat', 'hca', 'water_warm']);

/** The texts of a code; `metric` (the meter's) picks the HeizkostenV's wording where the code has one. */
export function flagText(code: FlagCode, lang: Lang, metric?: string): Text {
  const heizkosten = inLanguage(heizkostenExplanations, lang) as Partial<Record<FlagCode, string>>;
  const special = metric !== undefined && HEIZKOSTEN_METRICS.has(metric) ? heizkosten[code] : undefined;
  return { title: inLanguage(flagTitles, lang)[code], explanation: special ?? inLanguage(flagExplanations, lang)[code] };
}

/** "title (facts). explanation" — facts in the reader's language, German decimals with a comma. */
export function flagMessage(flag: Flag, lang: Lang): string {
  const { title, explanation } = flagText(flag.code, lang, flag.facts?.point_metric);
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

/** Facts that are quantities in the flag's unit, per m² of it, in percent, or in m². */
const IN_UNIT = new Set(['billed_value', 'comparison_value']);
const PER_M2 = new Set(['value_per_m2', 'median_per_m2']);
const PERCENT = new Set(['change_percent', 'estimated_share', 'estimated_area_share']);
const AREA = new Set(['estimated_area', 'total_area']);
/** Facts only the others' rendering reads (the unit of the quantities, the meter's metric that picks the explanation). */
const HIDDEN = new Set(['unit', 'point_metric']);

/** "5451.12" → "5.451,12" (de) or "5,451.12" (en); anything that is not a plain decimal as it is. */
export function decimalText(v: string, lang: Lang): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v);
  if (!m) return v;
  const [group, point] = lang === 'de' ? ['.', ','] : [',', '.'];
  const whole = m[2]!.replace(/\B(?=(\d{3})+$)/g, group);
  return `${m[1]}${whole}${m[3] ? point + m[3] : ''}`;
}

function factValue(key: string, v: string, facts: Record<string, string>, lang: Lang): string {
  const words = inLanguage(factWords, lang) as Record<string, string>;
  const unit = facts.unit !== undefined ? valueWord('unit', facts.unit, lang) : '';
  if (key === 'metric' && valueWord('metric', v, lang) !== v) return valueWord('metric', v, lang);
  if (Object.hasOwn(words, `${key}.${v}`)) return words[`${key}.${v}`]!;
  if (v === '' || !/^-?\d+(\.\d+)?$/.test(v)) return lang === 'de' ? germanFact(v) : v;
  if (IN_UNIT.has(key)) return unit ? `${decimalText(v, lang)} ${unit}` : decimalText(v, lang);
  if (PER_M2.has(key)) return unit ? `${decimalText(v, lang)} ${unit}/m²` : decimalText(v, lang);
  if (PERCENT.has(key)) return `${decimalText(v, lang)} %`;
  if (AREA.has(key)) return `${decimalText(v, lang)} m²`;
  return lang === 'de' ? germanFact(v) : v;
}

/** A flag's facts as [label, value] in the reader's language, for screens that list them. */
export function factPairs(flag: Flag, lang: Lang): [string, string][] {
  const labels = inLanguage(factLabels, lang) as Record<string, string>;
  const facts = flag.facts ?? {};
  return Object.entries(facts)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => [labels[k] ?? k, factValue(k, v, facts, lang)]);
}
