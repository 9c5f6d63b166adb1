// The plausibility review's lines during an export (its findings are in src/billing/texts-findings.ts).
import { catalogue, count } from '../../../i18n/index.js';

export const plausibilityTexts = catalogue(
  'plausibility',
  {
    announce: (p: { from: string; to: string; expected: string; more: string; minutes: string }) =>
      `comparing with ${p.from} to ${p.to}${p.expected}: one more consumption request per unit and per plant-room/main meter (${p.more} for the units${p.minutes}).`,
    expected:
      " (the months this computer's clock expects the service to answer for; each Property is compared with the same months of the period the service answers it for)",
    perUnit: 'one per unit',
    requests: (p: { n: number }) => count(p.n, 'request', 'requests', 'en'),
    minutes: (p: { minutes: number; rate: number }) => `, about ${count(p.minutes, 'minute', 'minutes', 'en')} more at ${p.rate} requests a minute`,
    refused: (p: { from: string; to: string; message: string }) => `Comparison period ${p.from} to ${p.to}: ${p.message}`,
    refusedHint: 'Check --compare (or --compare-from/--compare-to): the comparison period must end at or before the last completed month.',
    otherLength: (p: { from: string; to: string; ours: number; cFrom: string; cTo: string; theirs: number }) =>
      `The service answered for ${p.from} to ${p.to} (${count(p.ours, 'month', 'months', 'en')}, up to its last completed month), the comparison covers ${p.cFrom} to ${p.cTo} (${count(p.theirs, 'month', 'months', 'en')}): periods of different length would show changes where there are none.`,
    otherLengthHint: (p: { from: string; to: string }) => `Compare the same months: --compare-from ${p.from} --compare-to ${p.to}, or --compare with a year.`,
  },
  {
    announce: (p) =>
      `Vergleich mit ${p.from} bis ${p.to}${p.expected}: eine weitere Verbrauchsabfrage je Nutzeinheit und je Haupt- bzw. Anlagenzähler (${p.more} für die Nutzeinheiten${p.minutes}).`,
    expected:
      ' (die Monate, die der Messdienst nach der Uhr dieses Rechners liefern wird; jede Liegenschaft wird mit denselben Monaten des Zeitraums verglichen, den er für sie tatsächlich liefert)',
    perUnit: 'eine je Nutzeinheit',
    requests: (p) => count(p.n, 'Abfrage', 'Abfragen', 'de'),
    minutes: (p) => `, etwa ${count(p.minutes, 'Minute', 'Minuten', 'de')} mehr bei ${p.rate} Abfragen je Minute`,
    refused: (p) => `Vergleichszeitraum ${p.from} bis ${p.to}: ${p.message}`,
    refusedHint:
      'Bitte --compare (oder --compare-from/--compare-to) prüfen: Der Vergleichszeitraum muss spätestens mit dem letzten abgeschlossenen Monat enden.',
    otherLength: (p) =>
      `Der Dienst lieferte ${p.from} bis ${p.to} (${count(p.ours, 'Monat', 'Monate', 'de')}, bis zu seinem letzten abgeschlossenen Monat), der Vergleich umfasst ${p.cFrom} bis ${p.cTo} (${count(p.theirs, 'Monat', 'Monate', 'de')}): Zeiträume unterschiedlicher Länge zeigten Veränderungen, wo keine sind.`,
    otherLengthHint: (p) => `Vergleichen Sie dieselben Monate: --compare-from ${p.from} --compare-to ${p.to}, oder --compare mit einem Jahr.`,
  },
);
