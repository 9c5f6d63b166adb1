// The plausibility review's lines during an export (its findings are in src/billing/texts-findings.ts).
import { catalogue, count } from '../../../i18n/index.js';

export const plausibilityTexts = catalogue(
  'plausibility',
  {
    announce: (p: { from: string; to: string; more: string; minutes: string }) =>
      `comparing with ${p.from} to ${p.to}: one more consumption request per unit and per plant-room/main meter (${p.more} for the units${p.minutes}).`,
    perUnit: 'one per unit',
    requests: (p: { n: number }) => count(p.n, 'request', 'requests', 'en'),
    minutes: (p: { minutes: number; rate: number }) => `, about ${count(p.minutes, 'minute', 'minutes', 'en')} more at ${p.rate} requests a minute`,
    refused: (p: { from: string; to: string; message: string }) => `Comparison period ${p.from} to ${p.to}: ${p.message}`,
    refusedHint: 'Check --compare (or --compare-from/--compare-to): the comparison period must end at or before the last completed month.',
  },
  {
    announce: (p) =>
      `Vergleich mit ${p.from} bis ${p.to}: eine weitere Verbrauchsabfrage je Nutzeinheit und je Haupt- bzw. Anlagenzähler (${p.more} für die Nutzeinheiten${p.minutes}).`,
    perUnit: 'eine je Nutzeinheit',
    requests: (p) => count(p.n, 'Abfrage', 'Abfragen', 'de'),
    minutes: (p) => `, etwa ${count(p.minutes, 'Minute', 'Minuten', 'de')} mehr bei ${p.rate} Abfragen je Minute`,
    refused: (p) => `Vergleichszeitraum ${p.from} bis ${p.to}: ${p.message}`,
    refusedHint:
      'Bitte --compare (oder --compare-from/--compare-to) prüfen: Der Vergleichszeitraum muss spätestens mit dem letzten abgeschlossenen Monat enden.',
  },
);
