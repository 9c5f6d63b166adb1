// The contract's enum values as a reader writes them (docs/glossary.md): the workbook
// always shows these words, a CSV layout shows them or the codes (templates' "values").
// A value the contract does not list (it allows new ones) stays its code.
import { catalogue, inLanguage, type Lang } from '../i18n/index.js';

export const valueWords = catalogue(
  'values',
  {
    'metric.heat': 'heat',
    'metric.hca': 'heat cost allocator',
    'metric.water_cold': 'cold water',
    'metric.water_warm': 'warm water',
    'metric.water_outdoor': 'outdoor water',
    'metric.electricity': 'electricity',
    'metric.gas': 'gas',
    'unit.kWh': 'kWh',
    'unit.m3': 'm³',
    'unit.unit': 'units',
    'unit_type.residential': 'residential',
    'unit_type.commercial': 'commercial',
    'unit_type.technical': 'technical',
    'unit_type.traffic': 'traffic area',
    'status.measured': 'measured',
    'status.substituted': 'substituted',
    'status.calculated': 'calculated',
    'status.missing': 'missing',
    'status.calibration_expired': 'calibration expired',
    'severity.not_billed': 'not billed',
    'severity.review': 'review',
    'severity.info': 'info',
    'comparison_status.billed': 'billed',
    'comparison_status.not_billed': 'not billed',
    'comparison_status.absent': 'absent',
    'replacement_reason.EndOfLife': 'end of life',
    'replacement_reason.Defect': 'defect',
    'replacement_reason.PeriodEnd': 'calibration period ended',
    'replacement_reason.DeviceRemoval': 'device removed',
    'replacement_reason.Other': 'other',
    'replacement_reason.DeviceReplacement': 'device replaced',
    'baseline_origin.recorded': 'recorded',
    'baseline_origin.assumed_zero': 'assumed 0',
    'baseline_origin.first_reading': 'first reading',
    'baseline_origin.portal_rule': 'portal rule',
    'baseline_origin.month_end_before_range': 'month end before the period',
    'baseline_origin.first_known_in_range': 'first value in the period',
    'baseline_origin.none': 'none',
    'substitution_method.linear_interpolation': 'linear interpolation',
    'substitution_method.degree_day_weighted': 'weighted by degree days',
    'substitution_method.last_value_forward': 'last value carried forward',
    'substitution_method.weighted_recent_2values': 'weighted from the last 2 values',
    'substitution_method.weighted_recent_3values': 'weighted from the last 3 values',
    'substitution_method.baseline_fallback': 'from the start value (fallback)',
    'substitution_method.baseline_single_value': 'from the start value alone',
  },
  {
    'metric.heat': 'Wärme',
    'metric.hca': 'Heizkostenverteiler',
    'metric.water_cold': 'Kaltwasser',
    'metric.water_warm': 'Warmwasser',
    'metric.water_outdoor': 'Gartenwasser',
    'metric.electricity': 'Strom',
    'metric.gas': 'Gas',
    'unit.kWh': 'kWh',
    'unit.m3': 'm³',
    'unit.unit': 'Einheiten',
    'unit_type.residential': 'Wohnen',
    'unit_type.commercial': 'Gewerbe',
    'unit_type.technical': 'Technik',
    'unit_type.traffic': 'Verkehrsfläche',
    'status.measured': 'gemessen',
    'status.substituted': 'ersetzt',
    'status.calculated': 'berechnet',
    'status.missing': 'fehlend',
    'status.calibration_expired': 'Eichfrist abgelaufen',
    'severity.not_billed': 'nicht abgerechnet',
    'severity.review': 'prüfen',
    'severity.info': 'Hinweis',
    'comparison_status.billed': 'abgerechnet',
    'comparison_status.not_billed': 'nicht abgerechnet',
    'comparison_status.absent': 'nicht vorhanden',
    'replacement_reason.EndOfLife': 'Ende der Lebensdauer',
    'replacement_reason.Defect': 'Defekt',
    'replacement_reason.PeriodEnd': 'Eichfrist abgelaufen (Turnustausch)',
    'replacement_reason.DeviceRemoval': 'Ausbau ohne Ersatz',
    'replacement_reason.Other': 'Sonstiges',
    'replacement_reason.DeviceReplacement': 'Gerätetausch',
    'baseline_origin.recorded': 'erfasst',
    'baseline_origin.assumed_zero': 'mit 0 angenommen',
    'baseline_origin.first_reading': 'erster Ablesewert',
    'baseline_origin.portal_rule': 'Portalregel',
    'baseline_origin.month_end_before_range': 'Monatsende vor dem Zeitraum',
    'baseline_origin.first_known_in_range': 'erster Wert im Zeitraum',
    'baseline_origin.none': 'keiner',
    'substitution_method.linear_interpolation': 'lineare Interpolation',
    'substitution_method.degree_day_weighted': 'nach Gradtagzahlen gewichtet',
    'substitution_method.last_value_forward': 'letzter Wert fortgeschrieben',
    'substitution_method.weighted_recent_2values': 'gewichtet aus den letzten 2 Werten',
    'substitution_method.weighted_recent_3values': 'gewichtet aus den letzten 3 Werten',
    'substitution_method.baseline_fallback': 'aus dem Anfangsstand (ersatzweise)',
    'substitution_method.baseline_single_value': 'nur aus dem Anfangsstand',
  },
);

export const VALUE_KINDS = [
  'metric',
  'unit',
  'unit_type',
  'status',
  'severity',
  'comparison_status',
  'replacement_reason',
  'baseline_origin',
  'substitution_method',
] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

const words = valueWords as Record<string, string>;

/** The word for a code in `lang`; a code the contract does not list (or any other value) as it came. */
export function valueWord(kind: ValueKind, code: unknown, lang: Lang): string {
  const s = String(code);
  const key = `${kind}.${s}`;
  return Object.hasOwn(words, key) ? (inLanguage(valueWords, lang) as Record<string, string>)[key]! : s;
}

let codes: Map<string, string> | null = null;

/**
 * The code behind a value read back from a file: the code itself, or its word in either
 * language ("Wärme" → heat). Anything else comes back as it is.
 */
export function valueCode(kind: ValueKind, text: string): string {
  if (!codes) {
    codes = new Map();
    for (const lang of ['en', 'de'] as const) {
      for (const [key, word] of Object.entries(inLanguage(valueWords, lang) as Record<string, string>)) {
        const [k, code] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
        codes.set(`${k}.${word}`, code);
        codes.set(`${k}.${code}`, code);
      }
    }
  }
  return codes.get(`${kind}.${text}`) ?? text;
}
