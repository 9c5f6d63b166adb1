// What `meterdata uvi` says: a refused layout and the summary of a run (src/export/uvi.ts).
import { catalogue, num } from '../i18n/index.js';

export const uviRunTexts = catalogue(
  'uvi-run',
  {
    template: (p: { value: string }) => `--template ${p.value}: the monthly information knows the layouts generic and de`,
    templateHint: 'Use --template de for German column names and number formats, or leave --template out.',
    wrote: (p: { month: string; out: string }) => `Wrote the monthly consumption information for ${p.month} to ${p.out}`,
    letters: (p: { letters: number; units: number; properties: number }) =>
      `${p.letters} letters for ${p.units} units in ${p.properties} Properties (one PDF per unit, one per Property for printing), uvi.csv, uvi.json, review.csv`,
    incomplete: (p: { n: number }) => `${p.n} units have no letter or an incomplete one: see review.csv before sending.`,
    complete: 'Every unit has a complete letter.',
    requests: (p: { requests: number }) => `${p.requests} requests`,
    memory: (p: { mb: number; out: string }) =>
      `The monthly information needed more than ${p.mb} MB of memory while fetching and writing the letters; no files were put under their final names in ${p.out}.`,
    memoryHint: (p: { raise: string }) => `Run the same command again with ${p.raise} set; what was fetched is kept.`,
  },
  {
    template: (p: { value: string }) => `--template ${p.value}: für die Verbrauchsinformation gibt es die Layouts generic und de`,
    templateHint: 'Mit --template de erhalten Sie deutsche Spaltennamen und Zahlenformate; oder lassen Sie --template weg.',
    wrote: (p: { month: string; out: string }) => `Verbrauchsinformation für ${p.month} geschrieben nach ${p.out}`,
    letters: (p: { letters: number; units: number; properties: number }) =>
      `${p.letters} Schreiben für ${p.units} Nutzeinheiten in ${p.properties} Liegenschaften (ein PDF je Nutzeinheit, eines je Liegenschaft zum Drucken), uvi.csv, uvi.json, review.csv`,
    incomplete: (p: { n: number }) => `${p.n} Nutzeinheiten erhalten kein oder ein unvollständiges Schreiben: bitte vor dem Versand review.csv prüfen.`,
    complete: 'Alle Nutzeinheiten erhalten ein vollständiges Schreiben.',
    requests: (p: { requests: number }) => `${p.requests} Abfragen`,
    memory: (p: { mb: number; out: string }) =>
      `Die Verbrauchsinformation brauchte beim Abrufen der Daten und Schreiben der Briefe mehr als ${num(p.mb)} MB Arbeitsspeicher; in ${p.out} wurde keine Datei unter ihrem endgültigen Namen abgelegt.`,
    memoryHint: (p: { raise: string }) => `Führen Sie denselben Befehl mit ${p.raise} erneut aus; bereits Abgerufenes bleibt erhalten.`,
  },
);
