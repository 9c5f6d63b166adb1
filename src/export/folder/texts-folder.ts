// The --out folder's checks (output.ts) and the --compare folder's (compare-folder.ts).
import { catalogue } from '../../i18n/index.js';

export const outText = catalogue(
  'export-run.out-folder',
  {
    otherArguments: (p: { where: string; changes: string }) =>
      `${p.where} already holds an export made with other arguments${p.changes ? `: ${p.changes}` : ''}.`,
    outFolder: (p: { dir: string }) => `--out ${p.dir}`,
    defaultFolder: (p: { dir: string }) => `The default folder ${p.dir}`,
    otherArgumentsHint: 'Choose another --out folder, or delete that folder first.',
    defaultFolderHint: 'Without --out the export goes to this default folder: choose another one with --out FOLDER, or delete that folder first.',
    foreignFile: (p: { dir: string; file: string }) => `--out ${p.dir} already holds ${p.file}, which is not from a complete meterdata export.`,
    foreignFileHint: 'Choose another --out folder, or move those files away first.',
    manifestUnusable: (p: { dir: string; file: string; problem: string }) =>
      `--out ${p.dir} holds ${p.file}, which cannot be an export's manifest: ${p.problem}.`,
    notAManifest: "it is not a manifest meterdata wrote (damaged, or another program's file)",
    isFile: (p: { dir: string }) => `--out ${p.dir} is a file, not a folder.`,
    parentIsFile: (p: { dir: string; at: string }) => `--out ${p.dir} cannot be created: ${p.at} is a file, not a folder.`,
    danglingLink: (p: { dir: string; at: string; target: string }) =>
      `--out ${p.dir} cannot be created: ${p.at} is a link to ${p.target}, which does not exist.`,
    danglingLinkHint: 'Create the folder the link points to, or choose another --out folder.',
    notWritable: (p: { dir: string; why: string }) => `--out ${p.dir} cannot be written: ${p.why}.`,
    notWritableIn: (p: { dir: string; at: string; why: string }) => `--out ${p.dir} cannot be written (in ${p.at}): ${p.why}.`,
    notWritableHint: 'Choose a folder you may write to for --out (it is created if missing).',
    readOnly: 'it is on a read-only file system',
    denied: 'permission denied',
    tooManyBelow: (p: { dir: string; max: number }) =>
      `--out ${p.dir} holds more than ${p.max.toLocaleString('en')} folders below it, or entries in one folder; whether the other command (export or uvi) has written among them cannot be checked, and the two never share a folder.`,
    tooManyBelowHint: 'Choose an --out folder that holds only this command’s files (or a new, empty one) and run the command again.',
    tooManyAboveMarkHint: (p: { file: string }) =>
      `${p.file} makes that folder count as a portfolio's root. If no meterdata run is writing there, move that file away; otherwise choose an --out folder outside it. Then run the command again.`,
    tooManyAbove: (p: { dir: string; at: string; max: number }) =>
      `Whether the other command (export or uvi) has written around --out ${p.dir} cannot be checked: ${p.at} holds more than ${p.max.toLocaleString('en')} folders, and the two never share a folder.`,
    tooManyPaths: (p: { dir: string; max: number }) =>
      `Whether the other command (export or uvi) has written around --out ${p.dir} cannot be checked: the folder is reached through more than ${p.max} mounts, and the two never share a folder.`,
    tooManyPathsHint: 'Choose an --out folder on a disk that is mounted fewer times, or unmount the bind mounts of it you do not need.',
    holdsExport: (p: { dir: string; found: string }) =>
      `--out ${p.dir} holds an export (${p.found}); the monthly information does not go into an export's folder.`,
    holdsUvi: (p: { dir: string; found: string }) =>
      `--out ${p.dir} holds monthly consumption information (${p.found}); an export does not go into the monthly information's folder.`,
    otherCommandHint: 'Give export and uvi each an --out folder of its own (for example --out exports and --out uvi).',
    inUviMonth: (p: { dir: string; found: string }) =>
      `--out ${p.dir} is (or lies in) the folder of one month's consumption information (${p.found}); only that month's files go there.`,
    inUviMonthHint: 'Give uvi the same --out for every month (for example --out uvi: each month gets its own folder in it), and export an --out of its own.',
    inUviRoot: (p: { dir: string; found: string }) =>
      `--out ${p.dir} lies in the folder of the monthly information (${p.found}); an export does not go into it.`,
    portfolioRoot: (p: { dir: string }) =>
      `--out ${p.dir} is the folder of a portfolio (its portfolio-summary.csv beside the profiles' folders); a run of one profile does not go beside them.`,
    portfolioRootHint: 'Use the same --profiles for that folder, or give this run an --out of its own.',
    inExport: (p: { dir: string; found: string }) =>
      `--out ${p.dir} lies in the folder of an export (${p.found}); the monthly information does not go into an export's folder.`,
    nameIsFolder: (p: { dir: string; file: string }) =>
      `--out ${p.dir} holds a folder named ${p.file}, where meterdata writes its file of that name; it cannot replace a folder.`,
    nameIsFolderHint: "Move or rename that folder (it is not meterdata's), then run the same command again.",
    namedFolderLinked: (p: { dir: string }) =>
      `${p.dir} is a symbolic link, where meterdata keeps a folder of its own; it writes nothing through a link it did not make.`,
    namedFolderLinkedHint: 'Remove the link (its target stays as it is), then run the same command again.',
    namedFolderFile: (p: { dir: string }) => `${p.dir} is a file (or a pipe or device), where meterdata keeps a folder of its own; it is not meterdata's.`,
    namedFolderFileHint: 'Move or rename that file, then run the same command again.',
    leftByOther: (p: { file: string }) =>
      `${p.file}, left by an earlier run of another user, cannot be removed here (in this folder only a file's owner may remove it).`,
    leftByOtherHint: (p: { file: string }) => `Ask its owner to remove ${p.file}, or remove it as root; then run the same command again.`,
    folderReplaced: (p: { dir: string }) =>
      `${p.dir} is no longer the folder this run wrote into: it was moved away or replaced (a link put in its place) while the run worked; nothing was put there.`,
    folderReplacedHint: (p: { parent: string }) =>
      `Find out who else writes into ${p.parent}, put the folder back or remove what stands in its place, then run the same command again.`,
    othersFile: (p: { dir: string; file: string }) =>
      `${p.dir} holds ${p.file}, written by another user's meterdata run; in this shared folder only its owner may replace it, so this run's files could not be put there.`,
    othersFileHint: 'Give this run an --out folder of its own, or ask that user to move their files elsewhere; then run the same command again.',
    lockIsFolder: (p: { lock: string }) =>
      `${p.lock} is a folder, where meterdata keeps a lock file; it is not meterdata's, and meterdata removes no folder it did not make.`,
    lockIsFolderHint: (p: { lock: string }) => `Remove the folder ${p.lock} (or move it elsewhere), then run the same command again.`,
    commitWait: (p: { lock: string }) =>
      `Waiting for another meterdata run of this account to put its files into place (${p.lock}); this run's files follow once it is done.`,
    commitTakenOver: (p: { lock: string }) =>
      `Another run took over this account's commit lock (${p.lock}) while this run was putting its files in place: to that run the lock looked left behind (unchanged for 10 minutes: a very slow disk or share; or dated over an hour back: are the clocks of the computers sharing the state folder right?); nothing of this run was committed.`,
    commitTakenOverHint: 'Run the same command again once the other run has ended.',
    commitBusy: (p: { minutes: number }) =>
      `Another meterdata run of this account has been putting its files into place for over ${p.minutes} minutes; this run committed nothing.`,
    commitBusyHint: (p: { lock: string }) =>
      `Run the same command again once the other run has ended; what this run fetched is kept. If no meterdata run is running, remove ${p.lock} first.`,
  },
  {
    otherArguments: (p) => `${p.where} enthält bereits einen Export mit anderen Einstellungen${p.changes ? `: ${p.changes}` : ''}.`,
    outFolder: (p) => `--out ${p.dir}`,
    defaultFolder: (p) => `Der Standardordner ${p.dir}`,
    otherArgumentsHint: 'Wählen Sie einen anderen Zielordner für --out, oder löschen Sie diesen Ordner zuerst.',
    defaultFolderHint:
      'Ohne --out schreibt meterdata in diesen Standardordner: Wählen Sie mit --out ORDNER einen anderen, oder löschen Sie diesen Ordner zuerst.',
    foreignFile: (p) => `--out ${p.dir} enthält bereits die Datei ${p.file}, die nicht aus einem vollständigen meterdata-Export stammt.`,
    foreignFileHint: 'Wählen Sie einen anderen Zielordner für --out, oder verschieben Sie diese Dateien zuerst.',
    manifestUnusable: (p) => `--out ${p.dir} enthält ${p.file}, und das kann nicht das Manifest eines Exports sein: ${p.problem}.`,
    notAManifest: 'sie ist kein Manifest, das meterdata geschrieben hat (beschädigt oder die Datei eines anderen Programms)',
    isFile: (p) => `--out ${p.dir} ist eine Datei, kein Ordner.`,
    parentIsFile: (p) => `--out ${p.dir} kann nicht angelegt werden: ${p.at} ist eine Datei, kein Ordner.`,
    danglingLink: (p) => `--out ${p.dir} kann nicht angelegt werden: ${p.at} verweist auf ${p.target}, und dieses Ziel gibt es nicht.`,
    danglingLinkHint: 'Legen Sie den Ordner an, auf den der Verweis zeigt, oder wählen Sie einen anderen Zielordner für --out.',
    notWritable: (p) => `In --out ${p.dir} kann nicht geschrieben werden: ${p.why}.`,
    notWritableIn: (p) => `In --out ${p.dir} kann nicht geschrieben werden (geprüft in ${p.at}): ${p.why}.`,
    notWritableHint: 'Wählen Sie für --out einen Ordner, in den Sie schreiben dürfen (er wird angelegt, falls er fehlt).',
    readOnly: 'das Dateisystem ist schreibgeschützt',
    denied: 'keine Berechtigung',
    tooManyBelow: (p) =>
      `--out ${p.dir} enthält mehr als ${p.max.toLocaleString('de')} Ordner darunter oder Einträge in einem Ordner; ob der andere Befehl (Export oder uvi) darin geschrieben hat, lässt sich nicht prüfen, und beide teilen sich nie einen Ordner.`,
    tooManyBelowHint:
      'Bitte wählen Sie einen --out-Ordner, der nur die Dateien dieses Befehls enthält (oder einen neuen, leeren), und führen Sie den Befehl erneut aus.',
    tooManyAboveMarkHint: (p) =>
      `${p.file} lässt diesen Ordner als Ordner eines Portfolio-Exports gelten. Schreibt dort kein meterdata-Lauf, verschieben Sie diese Datei; andernfalls wählen Sie einen --out-Ordner außerhalb davon. Starten Sie den Befehl dann erneut.`,
    tooManyAbove: (p) =>
      `Ob der andere Befehl (Export oder uvi) im Umfeld von --out ${p.dir} geschrieben hat, lässt sich nicht prüfen: ${p.at} enthält mehr als ${p.max.toLocaleString('de')} Ordner, und beide teilen sich nie einen Ordner.`,
    tooManyPaths: (p) =>
      `Ob der andere Befehl (Export oder uvi) im Umfeld von --out ${p.dir} geschrieben hat, lässt sich nicht prüfen: Der Ordner ist über mehr als ${p.max} Einhängepunkte erreichbar, und beide teilen sich nie einen Ordner.`,
    tooManyPathsHint:
      'Wählen Sie für --out einen Ordner auf einem Laufwerk, das seltener eingehängt ist, oder hängen Sie nicht benötigte Bind-Mounts davon aus.',
    holdsExport: (p) => `--out ${p.dir} enthält einen Export (${p.found}); die monatliche Verbrauchsinformation gehört nicht in den Ordner eines Exports.`,
    holdsUvi: (p) => `--out ${p.dir} enthält monatliche Verbrauchsinformationen (${p.found}); ein Export gehört nicht in deren Ordner.`,
    otherCommandHint: 'Geben Sie export und uvi je einen eigenen Zielordner mit --out (etwa --out exporte und --out uvi).',
    inUviMonth: (p) =>
      `--out ${p.dir} ist der Ordner der Verbrauchsinformation eines Monats oder liegt darin (${p.found}); dorthin gehören nur die Dateien dieses Monats.`,
    inUviMonthHint:
      'Geben Sie uvi für jeden Monat denselben Zielordner mit --out (etwa --out uvi: jeder Monat erhält darin einen eigenen Ordner) und export einen eigenen.',
    inUviRoot: (p) => `--out ${p.dir} liegt im Ordner der monatlichen Verbrauchsinformationen (${p.found}); ein Export gehört nicht in diesen Ordner.`,
    portfolioRoot: (p) =>
      `--out ${p.dir} ist der Ordner eines Portfolio-Exports (seine portfolio-summary.csv neben den Ordnern der Profile); der Lauf eines einzelnen Profils gehört nicht daneben.`,
    portfolioRootHint: 'Verwenden Sie für diesen Ordner dieselben --profiles, oder geben Sie diesem Lauf einen eigenen Zielordner mit --out.',
    inExport: (p) =>
      `--out ${p.dir} liegt im Ordner eines Exports (${p.found}); die monatliche Verbrauchsinformation gehört nicht in den Ordner eines Exports.`,
    nameIsFolder: (p) =>
      `--out ${p.dir} enthält einen Ordner mit dem Namen ${p.file}; dort schreibt meterdata seine gleichnamige Datei und kann den Ordner nicht ersetzen.`,
    nameIsFolderHint: 'Verschieben oder benennen Sie diesen Ordner um (er stammt nicht von meterdata) und starten Sie denselben Befehl erneut.',
    namedFolderLinked: (p) =>
      `${p.dir} ist eine symbolische Verknüpfung, wo meterdata einen eigenen Ordner führt; durch eine Verknüpfung, die es nicht selbst angelegt hat, schreibt es nichts.`,
    namedFolderLinkedHint: 'Entfernen Sie die Verknüpfung (ihr Ziel bleibt unverändert) und starten Sie denselben Befehl erneut.',
    namedFolderFile: (p) => `${p.dir} ist eine Datei (oder eine Pipe oder ein Gerät), wo meterdata einen eigenen Ordner führt; sie stammt nicht von meterdata.`,
    namedFolderFileHint: 'Verschieben oder benennen Sie diese Datei um und starten Sie denselben Befehl erneut.',
    leftByOther: (p) =>
      `${p.file}, von einem früheren Lauf eines anderen Benutzers zurückgelassen, kann hier nicht entfernt werden (in diesem Ordner darf nur der Eigentümer einer Datei sie löschen).`,
    leftByOtherHint: (p) => `Bitte den Eigentümer bitten, ${p.file} zu löschen, oder die Datei als root löschen; dann den Befehl erneut ausführen.`,
    folderReplaced: (p) =>
      `${p.dir} ist nicht mehr der Ordner, in den dieser Lauf geschrieben hat: Er wurde während des Laufs verschoben oder ersetzt (eine Verknüpfung an seine Stelle gesetzt); dort wurde nichts abgelegt.`,
    folderReplacedHint: (p) =>
      `Bitte klären, wer außerdem in ${p.parent} schreibt, den Ordner zurücklegen oder entfernen, was an seiner Stelle steht, und denselben Befehl erneut ausführen.`,
    othersFile: (p) =>
      `${p.dir} enthält ${p.file}, geschrieben von einem meterdata-Lauf eines anderen Benutzers; in diesem gemeinsamen Ordner darf nur dessen Eigentümer die Datei ersetzen, daher können die Dateien dieses Laufs dort nicht abgelegt werden.`,
    othersFileHint:
      'Geben Sie diesem Lauf einen eigenen Ordner mit --out, oder bitten Sie den anderen Benutzer, seine Dateien zu verschieben; dann denselben Befehl erneut ausführen.',
    lockIsFolder: (p) =>
      `${p.lock} ist ein Ordner, wo meterdata eine Sperrdatei führt; er stammt nicht von meterdata, und meterdata entfernt keinen Ordner, den es nicht selbst angelegt hat.`,
    lockIsFolderHint: (p) => `Entfernen Sie den Ordner ${p.lock} (oder verschieben Sie ihn an einen anderen Ort) und starten Sie denselben Befehl erneut.`,
    commitWait: (p) =>
      `Warte, bis ein anderer meterdata-Lauf dieses Benutzerkontos seine Dateien abgelegt hat (${p.lock}); die Dateien dieses Laufs folgen danach.`,
    commitTakenOver: (p) =>
      `Ein anderer Lauf hat die Sperre übernommen, unter der dieses Benutzerkonto seine Dateien ablegt (${p.lock}), während dieser Lauf seine Dateien ablegte: Jenem Lauf schien die Sperre verwaist (10 Minuten unverändert: eine sehr langsame Festplatte oder Netzfreigabe; oder über eine Stunde zurückdatiert: Gehen die Uhren der Rechner richtig, die sich den Zustandsordner teilen?); von diesem Lauf wurde nichts abgelegt.`,
    commitTakenOverHint: 'Starten Sie denselben Befehl erneut, sobald der andere Lauf beendet ist.',
    commitBusy: (p) =>
      `Ein anderer meterdata-Lauf dieses Benutzerkontos legt seit über ${p.minutes} Minuten seine Dateien ab; dieser Lauf hat keine Datei abgelegt.`,
    commitBusyHint: (p) =>
      `Starten Sie denselben Befehl erneut, sobald der andere Lauf beendet ist; was dieser Lauf abgerufen hat, bleibt erhalten. Läuft kein meterdata-Lauf mehr, entfernen Sie vorher ${p.lock}.`,
  },
);

export const compareText = catalogue(
  'export-run.compare-folder',
  {
    refused: (p: { dir: string; what: string }) => `--compare ${p.dir}: ${p.what}`,
    another: 'Give the folder of an earlier, unchanged meterdata export of this connection, or --compare with a year.',
    noExport: (p: { manifest: string }) => `no meterdata export there (no readable ${p.manifest}).`,
    portfolioThere: "this is the folder of a portfolio export (its portfolio-summary.csv); each profile's export is in a folder of its own below it.",
    portfolioThereHint: (p: { example: string }) => `Give the folder of the profile's export, e.g. --compare ${p.example}.`,
    uviThere: 'this is a folder of the monthly consumption information (meterdata uvi), not an export.',
    notManifest: (p: { manifest: string }) => `${p.manifest} is not a meterdata manifest.`,
    manifestUnusable: (p: { manifest: string; problem: string }) => `${p.manifest} cannot be a meterdata manifest: ${p.problem}.`,
    noTemplate: 'its manifest names no template.',
    templateUnreadable: (p: { name: string }) => `the template "${p.name}" it was written with cannot be read.`,
    templateUnreadableHint: 'Run meterdata from the folder the template path is relative to, or compare with a year.',
    otherTenant: (p: { theirs: string; ours: string }) => `that export belongs to "${p.theirs}", not to this connection's "${p.ours}".`,
    anotherTenant: 'another tenant',
    otherTenantHint: 'Compare only with exports of the same connection.',
    noRange: 'its manifest has no range.',
    samePeriod: (p: { from: string; to: string }) =>
      `that export covers ${p.from} to ${p.to}, the period of this export itself: a comparison with itself shows no change.`,
    notPlain: 'its manifest lists a file name that is not plain.',
    notFileList: (p: { manifest: string }) => `${p.manifest}'s list of files is not the list meterdata writes (an entry without a file name, or no list).`,
    listedTwice: (p: { manifest: string; file: string }) => `${p.manifest} lists ${p.file} more than once.`,
    changed: (p: { file: string }) => `${p.file} does not match the manifest (missing or changed after the export).`,
    tooLarge: (p: { file: string; mib: number }) => `${p.file} is larger than the ${p.mib} MiB meterdata reads back from an export.`,
    noBilling: 'it has no billing CSV to compare with (exported without csv, or its template leaves billing out).',
    narrowerUnit: "that export is browse's export of one unit: every other unit would show as having no data in the comparison period.",
    narrowerProperties: 'that export covers fewer Properties (--property) than this one: the others would show as having no data in the comparison period.',
    narrowerMetrics: 'that export covers fewer metrics (--metric) than this one: the others would show as having no data in the comparison period.',
    propertyLeftOut: (p: { name: string }) =>
      `that export was narrowed to other Properties (--property) and leaves out "${p.name}": its units would show as having no data in the comparison period.`,
    otherLength: (p: { n: number; from: string; to: string; own: number }) =>
      `that export covers ${p.n} ${p.n === 1 ? 'month' : 'months'} (${p.from} to ${p.to}), this one ${p.own}: periods of different length would show changes where there are none.`,
    otherLengthHint: (p: { year: string }) =>
      `Compare with the folder of an export of as many months, or with --compare ${p.year} for the same months of ${p.year}.`,
    narrowerHint: "Compare with the folder of the full export (at least this export's Properties and metrics), or --compare with a year.",
  },
  {
    refused: (p) => `--compare ${p.dir}: ${p.what}`,
    another: 'Geben Sie den Ordner eines früheren, unveränderten meterdata-Exports dieser Verbindung an, oder --compare mit einem Jahr.',
    noExport: (p) => `Dort liegt kein meterdata-Export (keine lesbare ${p.manifest}).`,
    portfolioThere: 'Das ist der Ordner eines Portfolio-Exports (mit portfolio-summary.csv); der Export jedes Profils liegt in einem eigenen Ordner darunter.',
    portfolioThereHint: (p) => `Geben Sie den Ordner des Exports des Profils an, z. B. --compare ${p.example}.`,
    uviThere: 'Das ist ein Ordner der monatlichen Verbrauchsinformation (meterdata uvi), kein Export.',
    notManifest: (p) => `${p.manifest} ist kein meterdata-Manifest.`,
    manifestUnusable: (p) => `${p.manifest} kann kein meterdata-Manifest sein: ${p.problem}.`,
    noTemplate: 'Sein Manifest nennt keine Vorlage.',
    templateUnreadable: (p) => `Die Vorlage „${p.name}“, mit der er geschrieben wurde, kann nicht gelesen werden.`,
    templateUnreadableHint: 'Starten Sie meterdata in dem Ordner, auf den sich der Pfad der Vorlage bezieht, oder vergleichen Sie mit einem Jahr.',
    otherTenant: (p) => `Dieser Export gehört zu „${p.theirs}“, nicht zu „${p.ours}“ dieser Verbindung.`,
    anotherTenant: 'einem anderen Mandanten',
    otherTenantHint: 'Vergleichen Sie nur mit Exporten derselben Verbindung.',
    noRange: 'Sein Manifest nennt keinen Zeitraum.',
    samePeriod: (p) =>
      `Dieser Export umfasst ${p.from} bis ${p.to}, den Zeitraum dieses Exports selbst: Ein Vergleich mit sich selbst zeigt keine Veränderung.`,
    notPlain: 'Sein Manifest nennt einen Dateinamen mit Ordnerangabe.',
    notFileList: (p) => `Die Dateiliste in ${p.manifest} ist nicht die, die meterdata schreibt (ein Eintrag ohne Dateinamen oder gar keine Liste).`,
    listedTwice: (p) => `${p.manifest} nennt ${p.file} mehrfach.`,
    changed: (p) => `${p.file} passt nicht zum Manifest (fehlt oder wurde nach dem Export geändert).`,
    tooLarge: (p) => `${p.file} ist größer als die ${p.mib} MiB, die meterdata aus einem Export zurückliest.`,
    noBilling: 'Er enthält keine Abrechnungs-CSV zum Vergleich (ohne csv exportiert, oder seine Vorlage lässt billing aus).',
    narrowerUnit: 'Jener Export aus browse umfasst nur eine Nutzeinheit: Alle anderen stünden ohne Daten im Vergleichszeitraum da.',
    narrowerProperties: 'Jener Export umfasst weniger Liegenschaften (--property) als dieser: Die übrigen stünden ohne Daten im Vergleichszeitraum da.',
    narrowerMetrics: 'Jener Export umfasst weniger Verbrauchsarten (--metric) als dieser: Die übrigen stünden ohne Daten im Vergleichszeitraum da.',
    propertyLeftOut: (p) =>
      `Jener Export war auf andere Liegenschaften beschränkt (--property) und enthält „${p.name}“ nicht: Deren Nutzeinheiten stünden ohne Daten im Vergleichszeitraum da.`,
    otherLength: (p) =>
      `Jener Export umfasst ${p.n} ${p.n === 1 ? 'Monat' : 'Monate'} (${p.from} bis ${p.to}), dieser ${p.own}: Zeiträume unterschiedlicher Länge zeigten Veränderungen, wo keine sind.`,
    otherLengthHint: (p) =>
      `Vergleichen Sie mit dem Ordner eines Exports gleich vieler Monate oder mit denselben Monaten des Jahres ${p.year}: --compare ${p.year}.`,
    narrowerHint:
      'Vergleichen Sie mit dem Ordner des vollständigen Exports (mindestens die Liegenschaften und Verbrauchsarten dieses Exports), oder --compare mit einem Jahr.',
  },
);
