// What `meterdata uvi` says: a refused layout and the summary of a run (src/export/uvi.ts).
import { catalogue, count, day, num } from '../i18n/index.js';
import { plural } from '../core/plural.js';
import { moment } from './texts-run.js';

/** What a portfolio's line says of one profile (portfolio-summary.ts). */
interface ProfileLine {
  profile: string;
  strict: string;
  tenant: string;
  properties: number;
  units: number;
  review: number;
  requests: number;
  out: string;
}

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
    letterReplaced: (p: { file: string; problem: string }) => `The letter's temporary file ${p.file} is no longer the file meterdata wrote (${p.problem}).`,
    letterReplacedHint: 'Check that no other program or person writes into the --out folder during the run.',
    portfolioWritten: (p: ProfileLine & { seconds: string }) =>
      `profile ${p.profile}: monthly information written in ${p.seconds}s${p.strict}: "${p.tenant}", ${count(p.properties, 'Property', 'Properties')}, ${count(p.units, 'unit', 'units')}, ${p.review} with no or an incomplete letter (review.csv), ${count(p.requests, 'request', 'requests')} -> ${p.out}`,
    portfolioKept: (p: ProfileLine) =>
      `profile ${p.profile}: monthly information written by the earlier run, kept${p.strict}: "${p.tenant}", ${count(p.properties, 'Property', 'Properties')}, ${count(p.units, 'unit', 'units')}, ${p.review} with no or an incomplete letter (review.csv), ${count(p.requests, 'request', 'requests')} -> ${p.out}`,
    portfolioFinished: (p: { done: number; total: number; failed: string; summary: string }) =>
      `portfolio: monthly information written for ${p.done} of ${plural(p.total, 'profile')}${p.failed ? ` (failed: ${p.failed}; do what each one's line above says, then run the same command again to continue them)` : ''}; summary in ${p.summary}\n`,
    portfolioSingleInOut: (p: { out: string; found: string }) =>
      `--out ${p.out} holds the monthly information of a single profile (${p.found}); with --all-profiles or --profiles it is written into one folder per profile below --out.`,
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
    letterReplaced: (p: { file: string; problem: string }) =>
      `Die temporäre Datei ${p.file} eines Schreibens ist nicht mehr die Datei, die meterdata geschrieben hat (${p.problem}).`,
    letterReplacedHint: 'Bitte prüfen Sie, dass während des Laufs kein anderes Programm und niemand sonst in den Zielordner (--out) schreibt.',
    portfolioWritten: (p) =>
      `Profil ${p.profile}: Verbrauchsinformation geschrieben in ${String(p.seconds).replace('.', ',')} s${p.strict}: „${p.tenant}“, ${count(p.properties, 'Liegenschaft', 'Liegenschaften')}, ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, davon ${num(p.review)} ohne oder mit unvollständigem Schreiben (review.csv), ${count(p.requests, 'Abfrage', 'Abfragen')} -> ${p.out}`,
    portfolioKept: (p) =>
      `Profil ${p.profile}: Verbrauchsinformation im früheren Lauf geschrieben, beibehalten${p.strict}: „${p.tenant}“, ${count(p.properties, 'Liegenschaft', 'Liegenschaften')}, ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, davon ${num(p.review)} ohne oder mit unvollständigem Schreiben (review.csv), ${count(p.requests, 'Abfrage', 'Abfragen')} -> ${p.out}`,
    portfolioFinished: (p) =>
      `Portfolio: Verbrauchsinformation für ${num(p.done)} von ${count(p.total, 'Profil', 'Profilen')} geschrieben${p.failed ? ` (fehlgeschlagen: ${p.failed}; beheben Sie, was die Zeile des jeweiligen Profils oben nennt, und führen Sie dann denselben Befehl erneut aus, um diese fortzusetzen)` : ''}; Übersicht in ${p.summary}\n`,
    portfolioSingleInOut: (p) =>
      `Der Zielordner --out ${p.out} enthält die Verbrauchsinformation eines einzelnen Profils (${p.found}); mit --all-profiles oder --profiles wird sie darin in einen Ordner je Profil geschrieben.`,
  },
);

/** What a stopped or resumed monthly run says in place of the export's words (run-words.ts). */
export const uviStopTexts = catalogue(
  'uvi-run.stop',
  {
    stoppedAfter: (p: { done: number; total: number; missing: string }) =>
      `The monthly information run stopped after ${p.done} of ${count(p.total, 'Property', 'Properties')} (not finished: ${p.missing});`,
    resuming: (p: { started: string }) => `resuming the monthly information run started at ${p.started}: Properties fetched then are not fetched again.`,
    continueAgain: 'Run the same `meterdata uvi` command again to continue: what was fetched is kept.',
    finishAgain: 'Run the same `meterdata uvi` command again: it continues from what was fetched.',
    fetchAfresh: 'Run the same `meterdata uvi` command again: it fetches the data afresh and puts every file in place.',
    running: 'Another `meterdata uvi` with the same arguments is running.',
    periodChanged: (p: { from: string; to: string; firstFrom: string; firstTo: string; unit: string; property: string }) =>
      `The service answered for ${p.from} to ${p.to} for unit "${p.unit}" of "${p.property}", but for ${p.firstFrom} to ${p.firstTo} earlier in this run (it answers units for different periods): one month's letters must not rest on two periods.`,
    periodChangedHint:
      'Run the same `meterdata uvi` command again: it starts over (the progress saved was dropped). If it stops so again, report it to the metering service.',
  },
  {
    stoppedAfter: (p) =>
      `Die Erstellung der Verbrauchsinformation endete nach ${num(p.done)} von ${count(p.total, 'Liegenschaft', 'Liegenschaften')} (nicht fertig: ${p.missing});`,
    resuming: (p) =>
      `Die am ${moment(p.started)} begonnene Erstellung der Verbrauchsinformation wird fortgesetzt: Bereits abgerufene Liegenschaften werden nicht erneut abgerufen.`,
    continueAgain: 'Führen Sie denselben Befehl `meterdata uvi` erneut aus, um fortzusetzen: Bereits Abgerufenes bleibt erhalten.',
    finishAgain: 'Führen Sie denselben Befehl `meterdata uvi` erneut aus: Er setzt mit dem bereits Abgerufenen fort.',
    fetchAfresh: 'Führen Sie denselben Befehl `meterdata uvi` erneut aus: Er ruft die Daten neu ab und legt alle Dateien ab.',
    running: 'Ein anderer Lauf von `meterdata uvi` mit denselben Angaben läuft bereits.',
    periodChanged: (p) =>
      `Der Dienst lieferte für die Nutzeinheit „${p.unit}“ der Liegenschaft „${p.property}“ den Zeitraum ${day(p.from)} bis ${day(p.to)}, zuvor in diesem Lauf aber ${day(p.firstFrom)} bis ${day(p.firstTo)} (er liefert den Nutzeinheiten unterschiedliche Zeiträume): Die Schreiben eines Monats dürfen nicht auf zwei Zeiträumen beruhen.`,
    periodChangedHint:
      'Führen Sie denselben Befehl `meterdata uvi` erneut aus: Er beginnt neu (der Zwischenstand wurde verworfen). Bricht er erneut so ab, melden Sie es dem Messdienst.',
  },
);
