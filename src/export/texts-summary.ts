// What a finished export says: the summary lines, the --strict failure, and the
// portfolio's line per profile. Counts, dates and numbers as the reader writes them.
import { catalogue, count, day, num } from '../i18n/index.js';

const comma = (v: string | number) => String(v).replace('.', ',');

export const summaryWords = catalogue(
  'export-run.summary',
  {
    wrote: (p: { out: string; from: string; to: string; files: string }) => `wrote ${p.out} for ${p.from} to ${p.to}: ${p.files}`,
    fileRows: (p: { name: string; rows: number }) => `${p.name} (${count(p.rows, 'row', 'rows')})`,
    shortened: (p: { askedFrom: string; askedTo: string; from: string; to: string }) =>
      `range shortened: requested ${p.askedFrom} to ${p.askedTo}, the service answered for ${p.from} to ${p.to} (it delivers completed months only, and has no data past its last one); the folder's manifest carries ${p.from} to ${p.to}`,
    noValues: (p: { points: number; from: string; to: string; see: string }) =>
      `no data: none of the ${count(p.points, 'measuring point', 'measuring points')} has values for ${p.from} to ${p.to}, so nothing was billed${p.see}`,
    noPoints: 'no data: the exported Properties have no measuring points, so nothing was billed',
    see: (p: { place: string }) => ` (see ${p.place})`,
    counts: (p: { properties: number; units: number; points: number; plant: number; requests: number }) =>
      `${count(p.properties, 'Property', 'Properties')}, ${count(p.units, 'unit', 'units')}, ${count(p.points, 'measuring point', 'measuring points')} (${p.plant} plant-room/main), ${count(p.requests, 'request', 'requests')}`,
    resumed: ', resumed',
    flags: (p: { notBilled: number; review: number; info: number }) => `flags: ${p.notBilled} not billed, ${p.review} to review, ${p.info} info`,
    strict: (p: { n: number; notBilled: number; review: number }) =>
      `--strict: ${count(p.n, 'finding', 'findings')} ${Number(p.n) === 1 ? 'needs' : 'need'} attention (${p.notBilled} not billed, ${p.review} to review); the files were written.`,
    strictHint: (p: { place: string; out: string }) => `See ${p.place} in ${p.out}.`,
    theFiles: 'the files',
    sheetOf: (p: { sheet: string; file: string }) => `the "${p.sheet}" sheet of ${p.file}`,
  },
  {
    wrote: (p) => `${p.out} geschrieben für ${day(p.from)} bis ${day(p.to)}: ${p.files}`,
    fileRows: (p) => `${p.name} (${count(p.rows, 'Zeile', 'Zeilen')})`,
    shortened: (p) =>
      `Zeitraum verkürzt: angefordert ${day(p.askedFrom)} bis ${day(p.askedTo)}, der Dienst lieferte ${day(p.from)} bis ${day(p.to)} (er liefert nur abgeschlossene Monate und keine Daten nach dem letzten); das Manifest des Ordners nennt ${day(p.from)} bis ${day(p.to)}`,
    noValues: (p) =>
      `Keine Daten: Für ${day(p.from)} bis ${day(p.to)} hat keine Messstelle Werte (${count(p.points, 'Messstelle', 'Messstellen')}), daher wurde nichts abgerechnet${p.see}`,
    noPoints: 'Keine Daten: Die exportierten Liegenschaften haben keine Messstellen, daher wurde nichts abgerechnet',
    see: (p) => ` (siehe ${p.place})`,
    counts: (p) =>
      `${count(p.properties, 'Liegenschaft', 'Liegenschaften')}, ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, ${count(p.points, 'Messstelle', 'Messstellen')} (davon ${num(p.plant)} Hauptzähler), ${count(p.requests, 'Abfrage', 'Abfragen')}`,
    resumed: ', fortgesetzt',
    flags: (p) => `Hinweise: ${num(p.notBilled)} nicht abgerechnet, ${num(p.review)} zu prüfen, ${num(p.info)} nur zur Information`,
    strict: (p) =>
      `--strict: ${count(p.n, 'Hinweis erfordert', 'Hinweise erfordern')} Aufmerksamkeit (${num(p.notBilled)} nicht abgerechnet, ${num(p.review)} zu prüfen); die Dateien wurden geschrieben.`,
    strictHint: (p) => `Siehe ${p.place} in ${p.out}.`,
    theFiles: 'die Dateien',
    sheetOf: (p) => `Blatt „${p.sheet}“ in ${p.file}`,
  },
);

export const portfolioText = catalogue(
  'export-run.portfolio-lines',
  {
    failed: (p: { profile: string; exit: number; code: string; message: string }) => `profile ${p.profile}: failed (exit ${p.exit}, ${p.code}): ${p.message}`,
    exported: (p: {
      profile: string;
      seconds: string;
      strict: string;
      tenant: string;
      properties: number;
      units: number;
      notBilled: number;
      review: number;
      info: number;
      requests: number;
      out: string;
    }) =>
      `profile ${p.profile}: exported in ${p.seconds}s${p.strict}: "${p.tenant}", ${count(p.properties, 'Property', 'Properties')}, ${count(p.units, 'unit', 'units')}, flags ${p.notBilled} not billed, ${p.review} to review, ${p.info} info, ${count(p.requests, 'request', 'requests')} -> ${p.out}`,
    kept: (p: {
      profile: string;
      strict: string;
      tenant: string;
      properties: number;
      units: number;
      notBilled: number;
      review: number;
      info: number;
      requests: number;
      out: string;
    }) =>
      `profile ${p.profile}: exported by the earlier run, kept${p.strict}: "${p.tenant}", ${count(p.properties, 'Property', 'Properties')}, ${count(p.units, 'unit', 'units')}, flags ${p.notBilled} not billed, ${p.review} to review, ${p.info} info, ${count(p.requests, 'request', 'requests')} -> ${p.out}`,
    strictExit: ' (--strict: exit 6)',
    interrupted: 'Interrupted before the export of this profile started.',
    interruptedHint: 'Run the same command again to continue.',
  },
  {
    failed: (p) => `Profil ${p.profile}: fehlgeschlagen (Exit-Code ${p.exit}, ${p.code}): ${p.message}`,
    exported: (p) =>
      `Profil ${p.profile}: exportiert in ${comma(p.seconds)} s${p.strict}: „${p.tenant}“, ${count(p.properties, 'Liegenschaft', 'Liegenschaften')}, ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, Hinweise ${num(p.notBilled)} nicht abgerechnet, ${num(p.review)} zu prüfen, ${num(p.info)} nur zur Information, ${count(p.requests, 'Abfrage', 'Abfragen')} -> ${p.out}`,
    kept: (p) =>
      `Profil ${p.profile}: im früheren Lauf exportiert, beibehalten${p.strict}: „${p.tenant}“, ${count(p.properties, 'Liegenschaft', 'Liegenschaften')}, ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, Hinweise ${num(p.notBilled)} nicht abgerechnet, ${num(p.review)} zu prüfen, ${num(p.info)} nur zur Information, ${count(p.requests, 'Abfrage', 'Abfragen')} -> ${p.out}`,
    strictExit: ' (--strict: Exit-Code 6)',
    interrupted: 'Abgebrochen, bevor der Export dieses Profils begann.',
    interruptedHint: 'Führen Sie denselben Befehl erneut aus, um fortzusetzen.',
  },
);
