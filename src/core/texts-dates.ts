// What src/core/dates.ts says about a date, a year or a range. `what` names the flag
// (--from) or is empty at the browser's `y` prompt, where the typed value says enough.
import { catalogue } from '../i18n/index.js';

const label = (what: string) => (what ? `${what}: ` : '');

export const dateTexts = catalogue(
  'core-dates',
  {
    notADate: (p: { what: string; value: string; example: string }) => `${label(p.what)}"${p.value}" is not a date; use yyyy-mm-dd, e.g. ${p.example}.`,
    notAYear: (p: { what: string; value: string; example: string }) => `${label(p.what)}"${p.value}" is not a year; use four digits, e.g. ${p.example}.`,
    outOfBounds: (p: { what: string; value: string; first: number; last: number }) =>
      `${label(p.what)}${p.value} lies outside the years ${p.first} to ${p.last}.`,
    endBeforeStart: (p: { to: string; toValue: string; from: string; fromValue: string }) => `${p.to} ${p.toValue} lies before ${p.from} ${p.fromValue}.`,
    yearWithRange: (p: { year: string; from: string; to: string }) => `${p.year} cannot be combined with ${p.from}/${p.to}.`,
    yearWithRangeHint: 'Give either --year 2025 or --from 2025-01-01 --to 2025-12-31.',
    fromMissing: (p: { from: string; to: string }) => `${p.from} is missing: ${p.to} needs a start date too.`,
    toMissing: (p: { from: string; to: string }) => `${p.to} is missing: ${p.from} needs an end date too.`,
    pairHint: 'e.g. --from 2025-01-01 --to 2025-12-31, or --year 2025.',
    dateHint: 'Dates are written yyyy-mm-dd (2025-03-31), years with four digits (2025).',
    clockNotADate: (p: { value: string }) => `--clock: "${p.value}" is neither a date (yyyy-mm-dd) nor an ISO 8601 timestamp.`,
    clockHint: 'Example: --clock 2026-11-22',
    /** The browser's `y` prompt, where no flag names the two dates. */
    reversed: (p: { from: string; to: string }) => `the end ${p.to} lies before the start ${p.from}.`,
  },
  {
    notADate: (p) => `${label(p.what)}„${p.value}“ ist kein Datum; bitte als jjjj-mm-tt angeben, z. B. ${p.example}.`,
    notAYear: (p) => `${label(p.what)}„${p.value}“ ist kein Jahr; bitte vierstellig angeben, z. B. ${p.example}.`,
    outOfBounds: (p) => `${label(p.what)}${p.value} liegt außerhalb der Jahre ${p.first} bis ${p.last}.`,
    endBeforeStart: (p) => `${p.to} ${p.toValue} liegt vor ${p.from} ${p.fromValue}.`,
    yearWithRange: (p) => `${p.year} und ${p.from}/${p.to} schließen sich aus.`,
    yearWithRangeHint: 'Entweder --year 2025 oder --from 2025-01-01 --to 2025-12-31 angeben.',
    fromMissing: (p) => `${p.from} fehlt: zu ${p.to} gehört auch ein Anfangsdatum.`,
    toMissing: (p) => `${p.to} fehlt: zu ${p.from} gehört auch ein Enddatum.`,
    pairHint: 'z. B. --from 2025-01-01 --to 2025-12-31 oder --year 2025.',
    dateHint: 'Datumsangaben als jjjj-mm-tt (2025-03-31), Jahre vierstellig (2025).',
    clockNotADate: (p) => `--clock: „${p.value}“ ist weder ein Datum (jjjj-mm-tt) noch ein Zeitpunkt nach ISO 8601.`,
    clockHint: 'Beispiel: --clock 2026-11-22',
    reversed: (p) => `Das Ende ${p.to} liegt vor dem Beginn ${p.from}.`,
  },
);
