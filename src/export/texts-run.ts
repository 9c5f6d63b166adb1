// What an export says while it runs: the progress bar and log lines, the notes about
// saved progress, the About sheet's labels, and the errors of the walk, the journal and
// the worker threads.
import { catalogue, count, day, num } from '../i18n/index.js';

/** "2026-11-22T10:00:00Z" → "22.11.2026, 10:00:00 UTC" (German only; anything else as is). */
export function moment(iso: string | number): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})Z$/.exec(String(iso));
  return m ? `${day(m[1]!, 'de')}, ${m[2]} UTC` : String(iso);
}
const comma = (v: string | number) => String(v).replace('.', ',');

export const progressText = catalogue(
  'export-run.progress',
  {
    property: (p: { index: number; total: number; name: string; units: number; plant: number; flags: number }) =>
      `property ${p.index}/${p.total} "${p.name}": ${count(p.units, 'unit', 'units')}, ${count(p.plant, 'plant point', 'plant points')}, ${count(p.flags, 'flag', 'flags')}`,
    fromJournal: ' (from the journal of the interrupted run)',
    unitsOf: (p: { done: number; total: number }) => `${p.done}/${count(p.total, 'unit', 'units')}`,
    units: (p: { n: number }) => count(p.n, 'unit', 'units'),
    /** `rate`: requests a second with one decimal ("2.5"). */
    bar: (p: { bar: string; units: string; done: number; total: number; rate: string; eta: string }) =>
      `${p.bar} ${p.units} · property ${p.done}/${p.total} · ${p.rate} req/s · ETA ${p.eta}`,
    row: (p: { units: string; done: number; total: number; rate: string; state: string }) =>
      `${p.units} · property ${p.done}/${p.total} · ${p.rate} req/s · ${p.state}`,
    seconds: (p: { s: number }) => `${p.s}s`,
    minutes: (p: { m: number; s: string }) => `${p.m}m${p.s}s`,
    hours: (p: { h: number; m: string }) => `${p.h}h${p.m}m`,
    waiting: 'waiting',
    signingIn: 'signing in',
    fetching: 'fetching',
    writing: 'writing files',
  },
  {
    property: (p) =>
      `Liegenschaft ${p.index}/${p.total} „${p.name}“: ${count(p.units, 'Nutzeinheit', 'Nutzeinheiten')}, ${count(p.plant, 'Hauptzähler', 'Hauptzähler')}, ${count(p.flags, 'Hinweis', 'Hinweise')}`,
    fromJournal: ' (aus dem Zwischenstand des abgebrochenen Laufs)',
    unitsOf: (p) => `${num(p.done)}/${count(p.total, 'Nutzeinheit', 'Nutzeinheiten')}`,
    units: (p) => count(p.n, 'Nutzeinheit', 'Nutzeinheiten'),
    bar: (p) => `${p.bar} ${p.units} · Liegenschaft ${p.done}/${p.total} · ${comma(p.rate)} Abfragen/s · Restzeit ${p.eta}`,
    row: (p) => `${p.units} · Liegenschaft ${p.done}/${p.total} · ${comma(p.rate)} Abfragen/s · ${p.state}`,
    seconds: (p) => `${p.s} s`,
    minutes: (p) => `${p.m} min ${p.s} s`,
    hours: (p) => `${p.h} h ${p.m} min`,
    waiting: 'wartet',
    signingIn: 'meldet an',
    fetching: 'ruft ab',
    writing: 'schreibt Dateien',
  },
);

export const runText = catalogue(
  'export-run.notes-and-errors',
  {
    startingOver: (p: { reason: string }) => `starting over: the saved progress of an earlier run was dropped because ${p.reason}.`,
    resuming: (p: { started: string }) => `resuming the export started at ${p.started}: Properties fetched then are not fetched again.`,
    otherVersion: 'it was written by another version',
    committedBefore: (p: { started: string; out: string }) =>
      `the run started at ${p.started} had already begun finishing its files in ${p.out}, so what it fetched is not used again`,
    otherTenant: (p: { now: string; before: string }) => `the connection now belongs to "${p.now}", not "${p.before}"`,
    otherScope: "the landlord's property selection has changed since",
    unreadable: (p: { file: string; why: string }) => `${p.file} could not be read (${p.why})`,
    damaged: (p: { file: string; why: string }) => `${p.file} is damaged (${p.why})`,
    notJson: 'cut off or not valid JSON',
    notGzip: 'cut off or not gzip-compressed',
    unpackedTooLarge: (p: { mb: number }) => `it unpacks to more than ${p.mb} MB`,
    tooDeep: (p: { max: number }) => `nested deeper than ${p.max} levels`,
    badField: (p: { field: string }) => `field ${p.field} is missing or has the wrong type`,
    otherProperty: 'it holds the answers of another Property',
    answersFolder: (p: { file: string }) =>
      `${p.file} is a folder, where meterdata keeps the saved answers of a Property of this run; it is not meterdata's, and meterdata removes no folder it did not make.`,
    markInWay: (p: { file: string }) =>
      `${p.file} is in the way: there meterdata notes that this run's files are being put into place, and what is there is no file of meterdata's (a folder or a link); meterdata removes nothing it did not make.`,
    markInWayHint: (p: { file: string }) => `Remove ${p.file} (or move it elsewhere), then run the same command again.`,
    fetchAfresh: 'Run the same command again: it fetches the data afresh and puts every file in place.',
    progressLost: 'This run’s progress could not be kept: the same command fetches the data afresh.',
    answersFolderHint: (p: { file: string }) => `Remove the folder ${p.file} (or move it elsewhere), then run the same command again.`,
    answersDamaged: (p: { name: string; file: string; why: string }) =>
      `property "${p.name}": the saved answers in ${p.file} are damaged (${p.why}); fetching them again.`,
    running: 'Another `meterdata export` with the same arguments is running.',
    runningHint: (p: { lock: string }) => `Wait for it to finish; if none runs, delete ${p.lock}.`,
    outBusy: (p: { out: string }) => `Another \`meterdata export\` or \`meterdata uvi\` is writing to ${p.out}; one run owns a folder at a time.`,
    orWord: ' or ',
    outBusyHint: (p: { lock: string }) => `Wait for it to finish, or choose another --out folder; if none runs, delete ${p.lock}.`,
    outTakenOver: (p: { out: string }) =>
      `The lock of ${p.out} was replaced while this run was writing into it: another meterdata run took the folder over (as one does when a run was paused for more than 10 minutes: a closed laptop, a suspended virtual machine), or something else was put in the lock's place.`,
    outTakenOverHint:
      'The folder now belongs to that run: check its result there, then run this command again, into another --out folder if both exports are needed.',
    outLockDeleted: (p: { out: string; lock: string }) =>
      `The lock ${p.lock} was deleted while this run was writing into ${p.out}: someone took it for a leftover, and another run may be starting there now.`,
    outLockDeletedHint:
      'Delete the lock of an --out folder only when no meterdata run writes into it on any computer. Check that no other run uses the folder, then run this command again.',
    scratchGone: (p: { file: string }) => `The export's temporary file ${p.file} was removed while the export ran.`,
    scratchGoneHint:
      'Another program, or meterdata run by another user, cleaned up or wrote into the --out folder meanwhile: make sure none does, then run the same command again.',
    outBusyHolderHint: (p: { lock: string; pid: number; host: string; elsewhere: boolean }) =>
      `It is process ${p.pid} on ${p.host}${p.elsewhere ? ' (perhaps in another container, or from before the last restart)' : ''}. Wait for it to finish, or choose another --out folder; if none runs there, delete ${p.lock}.`,
    notPut: (p: { out: string }) => `no files were put under their final names in ${p.out}.`,
    journalLeft: (p: { out: string; dir: string; why: string }) =>
      `The files in ${p.out} are complete, but this run's journal ${p.dir} could not be removed: ${p.why}`,
    journalLeftHint: (p: { dir: string }) =>
      `Remove the folder ${p.dir} once its disk is writable again. A later run with the same arguments sees that these files are complete and fetches afresh instead of reusing what this one fetched.`,
    partlyPut: (p: { out: string }) => `some files of this run are under their final names in ${p.out} already, but not all and without the manifest.`,
    stoppedAfter: (p: { done: number; total: number; missing: string }) =>
      `The export stopped after ${p.done} of ${count(p.total, 'Property', 'Properties')} (not finished: ${p.missing});`,
    allFetched: 'Every Property was fetched, but the files could not be finished;',
    interrupted: 'Interrupted.',
    interruptedWriting: 'Interrupted while writing the files.',
    continueAgain: 'Run the same command again to continue: what was fetched is kept.',
    finishAgain: 'Run the same command again: it continues from what was fetched.',
    andMore: (p: { shown: string; n: number }) => `${p.shown} and ${p.n} more`,
    quoted: (p: { name: string }) => `"${p.name}"`,
    periodChanged: (p: { from: string; to: string; firstFrom: string; firstTo: string; unit: string; property: string }) =>
      `The service answered for ${p.from} to ${p.to} for unit "${p.unit}" of "${p.property}", but for ${p.firstFrom} to ${p.firstTo} earlier in this export (a month ended in between, or the service answers units for different periods): one export must not mix two periods.`,
    periodChangedHint:
      'Run the same command again: it starts over for the period the service answers for now (the progress saved for the earlier one was dropped). If it stops so again, report it to the metering service.',
    heapInvalid: (p: { raw: string }) => `METERDATA_EXPORT_HEAP_MB=${p.raw} is not a whole number of megabytes between 128 and 65536.`,
    heapInvalidHint: (p: { example: number; standard: number }) => `Set it to e.g. ${p.example}, or unset it for the default ${p.standard}.`,
    memoryFetching: (p: { mb: number; out: string }) =>
      `The export needed more than ${p.mb} MB of memory while fetching the data; no files were put under their final names in ${p.out}.`,
    memoryFetchingHint: (p: { raise: string }) => `Run the same command again with ${p.raise} set; what was fetched is kept.`,
    memoryWorkbook: (p: { mb: number }) => `The export needed more than ${p.mb} MB of memory while writing billing.xlsx.`,
    memoryWorkbookHint: (p: { raise: string }) => `Set ${p.raise} for the next run.`,
  },
  {
    startingOver: (p) => `Neubeginn: Der gespeicherte Zwischenstand eines früheren Laufs wurde verworfen, weil ${p.reason}.`,
    resuming: (p) => `Der am ${moment(p.started)} begonnene Export wird fortgesetzt: Bereits abgerufene Liegenschaften werden nicht erneut abgerufen.`,
    otherVersion: 'er von einer anderen Programmversion stammt',
    committedBefore: (p) =>
      `der Lauf vom ${moment(p.started)} bereits mit dem Abschluss seiner Dateien in ${p.out} begonnen hatte; was er abgerufen hat, wird daher nicht erneut verwendet`,
    otherTenant: (p) => `die Verbindung jetzt zu „${p.now}“ gehört, nicht zu „${p.before}“`,
    otherScope: 'der Eigentümer die Freigabe der Liegenschaften seither geändert hat',
    unreadable: (p) => `${p.file} nicht gelesen werden konnte (${p.why})`,
    damaged: (p) => `${p.file} beschädigt ist (${p.why})`,
    notJson: 'abgeschnitten oder kein gültiges JSON',
    notGzip: 'abgeschnitten oder nicht gzip-komprimiert',
    unpackedTooLarge: (p) => `entpackt größer als ${num(p.mb)} MB`,
    tooDeep: (p) => `tiefer als ${p.max} Ebenen verschachtelt`,
    badField: (p) => `Feld ${p.field} fehlt oder hat den falschen Typ`,
    otherProperty: 'sie enthält die Antworten einer anderen Liegenschaft',
    answersFolder: (p) =>
      `${p.file} ist ein Ordner an der Stelle, an der meterdata die gespeicherten Antworten einer Liegenschaft dieses Laufs ablegt; er stammt nicht von meterdata, und meterdata löscht keinen Ordner, den es nicht angelegt hat.`,
    markInWay: (p) =>
      `${p.file} steht im Weg: Dort vermerkt meterdata, dass die Dateien dieses Laufs abgelegt werden, und was dort liegt, ist keine Datei von meterdata (ein Ordner oder eine Verknüpfung); meterdata löscht nichts, was es nicht angelegt hat.`,
    markInWayHint: (p) => `Bitte ${p.file} löschen (oder verschieben) und den Befehl dann erneut ausführen.`,
    fetchAfresh: 'Führen Sie denselben Befehl erneut aus: Er ruft die Daten neu ab und legt alle Dateien ab.',
    progressLost: 'Der Zwischenstand dieses Laufs ließ sich nicht erhalten: Derselbe Befehl ruft die Daten neu ab.',
    answersFolderHint: (p) => `Bitte den Ordner ${p.file} löschen (oder verschieben) und den Befehl dann erneut ausführen.`,
    answersDamaged: (p) => `Liegenschaft „${p.name}“: Die gespeicherten Antworten in ${p.file} sind beschädigt (${p.why}); sie werden erneut abgerufen.`,
    running: 'Ein anderer `meterdata export` mit denselben Angaben läuft bereits.',
    runningHint: (p) => `Warten Sie, bis er fertig ist; läuft keiner, löschen Sie ${p.lock}.`,
    outBusy: (p) =>
      `Ein anderer Lauf von \`meterdata export\` oder \`meterdata uvi\` schreibt gerade in ${p.out}; in einen Zielordner schreibt immer nur ein Lauf.`,
    orWord: ' oder ',
    outBusyHint: (p) => `Warten Sie, bis er fertig ist, oder wählen Sie einen anderen Zielordner für --out; läuft keiner, löschen Sie ${p.lock}.`,
    outTakenOver: (p) =>
      `Die Sperre des Zielordners ${p.out} wurde ersetzt, während dieser Lauf hineinschrieb: Ein anderer meterdata-Lauf hat den Ordner übernommen (wie es geschieht, wenn ein Lauf länger als 10 Minuten angehalten war: zugeklappter Laptop, pausierte virtuelle Maschine), oder an die Stelle der Sperre wurde etwas anderes gelegt.`,
    outTakenOverHint:
      'Der Ordner gehört jetzt jenem Lauf: Prüfen Sie dort dessen Ergebnis und starten Sie diesen Befehl danach erneut, mit einem anderen Zielordner für --out, wenn beide Exporte gebraucht werden.',
    outLockDeleted: (p) =>
      `Die Sperrdatei ${p.lock} wurde gelöscht, während dieser Lauf in ${p.out} schrieb: Sie wurde offenbar für einen Überrest gehalten, und möglicherweise beginnt dort gerade ein anderer Lauf.`,
    outLockDeletedHint:
      'Löschen Sie die Sperrdatei eines Zielordners nur, wenn auf keinem Rechner ein meterdata-Lauf in ihn schreibt. Prüfen Sie, dass kein anderer Lauf den Ordner nutzt, und starten Sie diesen Befehl danach erneut.',
    scratchGone: (p) => `Die Arbeitsdatei ${p.file} des Exports wurde während des Laufs entfernt.`,
    scratchGoneHint:
      'Ein anderes Programm oder meterdata unter einem anderen Benutzer hat im Zielordner (--out) aufgeräumt oder geschrieben: Stellen Sie sicher, dass das nicht geschieht, und starten Sie denselben Befehl erneut.',
    outBusyHolderHint: (p) =>
      `Es ist Prozess ${p.pid} auf ${p.host}${p.elsewhere ? ' (vielleicht in einem anderen Container oder aus der Zeit vor dem letzten Neustart)' : ''}. Warten Sie, bis er fertig ist, oder wählen Sie einen anderen Zielordner für --out; läuft dort keiner, löschen Sie ${p.lock}.`,
    notPut: (p) => `in ${p.out} wurde keine Datei unter ihrem endgültigen Namen abgelegt.`,
    journalLeft: (p) => `Die Dateien in ${p.out} sind vollständig, aber das Protokoll dieses Laufs ${p.dir} ließ sich nicht entfernen: ${p.why}`,
    journalLeftHint: (p) =>
      `Entfernen Sie den Ordner ${p.dir}, sobald sein Laufwerk wieder beschreibbar ist. Ein späterer Lauf mit denselben Angaben erkennt, dass diese Dateien vollständig sind, und ruft die Daten neu ab, statt die hier abgerufenen zu verwenden.`,
    partlyPut: (p) => `in ${p.out} liegen bereits einige Dateien dieses Laufs unter ihrem endgültigen Namen, aber nicht alle und ohne das Manifest.`,
    stoppedAfter: (p) => `Der Export endete nach ${num(p.done)} von ${count(p.total, 'Liegenschaft', 'Liegenschaften')} (nicht fertig: ${p.missing});`,
    allFetched: 'Alle Liegenschaften wurden abgerufen, aber die Dateien konnten nicht fertiggestellt werden;',
    interrupted: 'Abgebrochen.',
    interruptedWriting: 'Beim Schreiben der Dateien abgebrochen.',
    continueAgain: 'Führen Sie denselben Befehl erneut aus, um fortzusetzen: Bereits Abgerufenes bleibt erhalten.',
    finishAgain: 'Führen Sie denselben Befehl erneut aus: Er setzt mit dem bereits Abgerufenen fort.',
    andMore: (p) => `${p.shown} und ${num(p.n)} weitere`,
    quoted: (p) => `„${p.name}“`,
    periodChanged: (p) =>
      `Der Dienst lieferte für die Nutzeinheit „${p.unit}“ der Liegenschaft „${p.property}“ den Zeitraum ${day(p.from)} bis ${day(p.to)}, zuvor in diesem Export aber ${day(p.firstFrom)} bis ${day(p.firstTo)} (dazwischen ist ein Monat abgeschlossen worden, oder der Dienst liefert den Nutzeinheiten unterschiedliche Zeiträume): Ein Export darf keine zwei Zeiträume mischen.`,
    periodChangedHint:
      'Führen Sie denselben Befehl erneut aus: Er beginnt neu mit dem Zeitraum, den der Dienst jetzt liefert (der Zwischenstand für den früheren wurde verworfen). Bricht er erneut so ab, melden Sie es dem Messdienst.',
    heapInvalid: (p) => `METERDATA_EXPORT_HEAP_MB=${p.raw} ist keine ganze Zahl von Megabyte zwischen 128 und 65536.`,
    heapInvalidHint: (p) => `Setzen Sie den Wert z. B. auf ${p.example}, oder entfernen Sie ihn für den Standardwert ${p.standard}.`,
    memoryFetching: (p) =>
      `Der Export brauchte beim Abrufen der Daten mehr als ${num(p.mb)} MB Arbeitsspeicher; in ${p.out} wurde keine Datei unter ihrem endgültigen Namen abgelegt.`,
    memoryFetchingHint: (p) => `Führen Sie denselben Befehl mit ${p.raise} erneut aus; bereits Abgerufenes bleibt erhalten.`,
    memoryWorkbook: (p) => `Der Export brauchte beim Schreiben von billing.xlsx mehr als ${num(p.mb)} MB Arbeitsspeicher.`,
    memoryWorkbookHint: (p) => `Setzen Sie ${p.raise} für den nächsten Lauf.`,
  },
);
