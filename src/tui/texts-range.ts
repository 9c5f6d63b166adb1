// The `y` prompt's own refusals (src/tui/range.ts); dates and years are refused by src/core/dates.ts.
import { catalogue } from '../i18n/index.js';

export const rangeTexts = catalogue(
  'tui-range-prompt',
  {
    oneComparison: 'give one comparison, e.g. 2025 vs 2024',
    comparison: (p: { message: string }) => `comparison: ${p.message}`,
    empty: 'type a year such as 2025, or from..to such as 2025-01-01..2025-06-30',
    neither: (p: { text: string }) => `"${p.text}" is neither a year nor from..to; e.g. 2025 or 2025-01-01..2025-06-30`,
    sameComparison: (p: { example: string }) => `compare with another period than the range itself, e.g. ${p.example}`,
    otherLength: (p: { theirs: number; ours: number; example: string }) =>
      `the comparison covers ${p.theirs} ${p.theirs === 1 ? 'month' : 'months'}, the range ${p.ours}: compare as many months, e.g. ${p.example}`,
    oneDate: (p: { date: string; example: string }) => `${p.date} is a single date; give from..to, e.g. ${p.example}`,
  },
  {
    oneComparison: 'nur ein Vergleich, z. B. 2025 vs 2024',
    comparison: (p) => `Vergleich: ${p.message}`,
    empty: 'ein Jahr wie 2025 eingeben oder von..bis wie 2025-01-01..2025-06-30',
    neither: (p) => `„${p.text}“ ist weder ein Jahr noch von..bis; z. B. 2025 oder 2025-01-01..2025-06-30`,
    sameComparison: (p) => `bitte mit einem anderen Zeitraum als dem gewählten vergleichen, z. B. ${p.example}`,
    otherLength: (p) =>
      `der Vergleich umfasst ${p.theirs} ${p.theirs === 1 ? 'Monat' : 'Monate'}, der Zeitraum ${p.ours}: bitte gleich viele Monate vergleichen, z. B. ${p.example}`,
    oneDate: (p) => `${p.date} ist nur ein Datum; bitte von..bis angeben, z. B. ${p.example}`,
  },
);
