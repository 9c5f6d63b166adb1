// Column headers of uvi.csv and the letters' review.csv: the generic layout names the
// keys (an import matches on them), the German layout (--template de) names them as a
// German accountant's spreadsheet does.
import { catalogue } from '../../i18n/index.js';

// The generic layout's headers are the keys themselves.
const KEYS = [
  'property_id',
  'property_name',
  'usage_unit_id',
  'usage_unit_name',
  'erp_ref',
  'unit_type',
  'month',
  'letter_month',
  'service',
  'unit_of_measure',
  'amount',
  'converted',
  'estimated',
  'errors',
  'benchmark_amount',
  'native_amount',
  'native_unit',
  'method',
  'letter',
  'code',
  'message',
] as const;
const keys = Object.fromEntries(KEYS.map((k) => [k, k])) as Record<(typeof KEYS)[number], string>;

export const columnHeaders = catalogue('uvi-columns', keys, {
  property_id: 'Liegenschaft-ID',
  property_name: 'Liegenschaft',
  usage_unit_id: 'Nutzeinheit-ID',
  usage_unit_name: 'Nutzeinheit',
  erp_ref: 'ERP-Nummer',
  unit_type: 'Art der Nutzeinheit',
  month: 'Monat',
  letter_month: 'Monat des Schreibens',
  service: 'Leistung',
  unit_of_measure: 'Einheit',
  amount: 'Verbrauch',
  converted: 'Umgerechnet',
  estimated: 'Geschätzt',
  errors: 'Fehlergründe',
  benchmark_amount: 'Durchschnittsnutzer kWh',
  native_amount: 'Messwert der Geräte',
  native_unit: 'Einheit der Geräte',
  method: 'Ermittlung',
  letter: 'Schreiben',
  code: 'Hinweis-Code',
  message: 'Befund',
});

export const columnTexts = catalogue(
  'uvi-column-problems',
  {
    unknownColumn: (p: { at: string; key: string; known: string }) => `${p.at}: unknown column "${p.key}" (known: ${p.known})`,
    twice: (p: { at: string; key: string }) => `${p.at}: the column "${p.key}" is named twice`,
    headerTwice: (p: { at: string; header: string }) => `${p.at}: two columns are headed "${p.header}"`,
    empty: (p: { at: string }) => `${p.at}: name at least one column`,
    hint: 'Name each column once by its key, optionally with a header of its own: "columns": ["usage_unit_id", {"key": "amount", "header": "kWh"}].',
  },
  {
    unknownColumn: (p) => `${p.at}: unbekannte Spalte „${p.key}“ (bekannt: ${p.known})`,
    twice: (p) => `${p.at}: die Spalte „${p.key}“ ist doppelt genannt`,
    headerTwice: (p) => `${p.at}: zwei Spalten haben die Überschrift „${p.header}“`,
    empty: (p) => `${p.at}: mindestens eine Spalte angeben`,
    hint: 'Jede Spalte einmal mit ihrem Schlüssel nennen, auf Wunsch mit eigener Überschrift: "columns": ["usage_unit_id", {"key": "amount", "header": "kWh"}].',
  },
);
