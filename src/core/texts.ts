// What src/core says to a person: the error family's defaults, config and profile names,
// URLs a token may go to, files in use, and what is wrong with a file meterdata reads back.
import { catalogue } from '../i18n/index.js';

export const coreTexts = catalogue(
  'core',
  {
    unexpected: 'unexpected failure (this is a bug; please report it with the lines below)',
    bug: (p: { message: string }) => `unexpected failure (this is a bug; please report it): ${p.message}`,
    interrupted: 'Interrupted.',
    interruptedHint: 'Nothing was half-written; run the same command again to continue.',
    unavailableHint: 'Try again later; if it persists, check the service status.',
    profileNameInvalid: (p: { name: string }) => `"${p.name}" is not a valid profile name.`,
    profileNameHint:
      'Use letters, digits, ".", "_" or "-" (at most 64 characters, not ending in a dot, not a Windows device name such as con, nul, aux, prn, com1 or lpt1).',
    profileNameReserved: (p: { name: string }) =>
      `"${p.name}" is a name meterdata gives its own files and folders (a month's folder, the portfolio's summary or manifest): every \`--all-profiles\` would refuse a profile so named.`,
    profileNameReservedHint: 'Sign in under another name, e.g. with a letter in front (hv-2026-09).',
    notAUrl: (p: { what: string; value: string }) => `${p.what} "${p.value}" is not a URL.`,
    insecureUrl: (p: { what: string; origin: string }) =>
      `${p.what} ${p.origin} is not https; meterdata sends tokens over plain http only to 127.0.0.1, localhost or [::1].`,
    fileInUse: (p: { file: string }) => `Cannot replace ${p.file}: another program has it open.`,
    fileInUseHint: (p: { name: string }) => `Close ${p.name} (in Excel or wherever it is open) and run the same command again.`,
    staticTokenRejected: 'The access token was rejected (expired or revoked) and cannot be refreshed.',
    staticTokenHint: 'Unset METERDATA_ACCESS_TOKEN to use the stored sign-in, or run `meterdata login`.',
    workerNoAnswer: (p: { name: string; code: number }) => `the worker running ${p.name} exited (code ${p.code}) without an answer`,
  },
  {
    unexpected: 'unerwarteter Fehler (ein Programmfehler; bitte melden Sie ihn mit den folgenden Zeilen)',
    bug: (p) => `unerwarteter Fehler (ein Programmfehler; bitte melden Sie ihn): ${p.message}`,
    interrupted: 'Abgebrochen.',
    interruptedHint: 'Es wurde nichts halb geschrieben; führen Sie denselben Befehl erneut aus, um fortzufahren.',
    unavailableHint: 'Bitte versuchen Sie es später erneut; wenn der Fehler bleibt, prüfen Sie den Status des Dienstes.',
    profileNameInvalid: (p) => `„${p.name}“ ist kein gültiger Profilname.`,
    profileNameHint:
      'Verwenden Sie Buchstaben, Ziffern, „.“, „_“ oder „-“ (höchstens 64 Zeichen, nicht mit einem Punkt am Ende, kein Windows-Gerätename wie con, nul, aux, prn, com1 oder lpt1).',
    profileNameReserved: (p) =>
      `„${p.name}“ ist ein Name, den meterdata eigenen Dateien und Ordnern gibt (dem Ordner eines Monats, der Übersicht oder dem Manifest eines Portfolios): Jeder Aufruf mit \`--all-profiles\` würde ein so benanntes Profil ablehnen.`,
    profileNameReservedHint: 'Melden Sie es unter einem anderen Namen an, z. B. mit einem Buchstaben davor (hv-2026-09).',
    notAUrl: (p) => `${p.what} „${p.value}“ ist keine URL.`,
    insecureUrl: (p) => `${p.what} ${p.origin} nutzt kein https; meterdata sendet Tokens über unverschlüsseltes http nur an 127.0.0.1, localhost oder [::1].`,
    fileInUse: (p) => `${p.file} kann nicht ersetzt werden: ein anderes Programm hat die Datei geöffnet.`,
    fileInUseHint: (p) => `Schließen Sie ${p.name} (in Excel oder wo sie sonst geöffnet ist) und führen Sie denselben Befehl erneut aus.`,
    staticTokenRejected: 'Das Zugriffstoken wurde abgelehnt (abgelaufen oder widerrufen) und kann nicht erneuert werden.',
    staticTokenHint: 'Entfernen Sie METERDATA_ACCESS_TOKEN, um die gespeicherte Anmeldung zu nutzen, oder führen Sie `meterdata login` aus.',
    workerNoAnswer: (p) => `der Worker für ${p.name} wurde ohne Antwort beendet (Code ${p.code})`,
  },
);

/** A file meterdata reads back (config, the stored sign-in): what is wrong with it, and the fix. */
export const fileTexts = catalogue(
  'core-files',
  {
    empty: 'it is empty',
    notJson: 'it is not complete JSON (cut off, or edited by hand)',
    notAnObject: 'it does not hold a JSON object',
    tooDeep: (p: { max: number }) => `it is nested deeper than ${p.max} levels (not a file meterdata wrote)`,
    missing: (p: { field: string }) => `"${p.field}" is missing`,
    wrong: (p: { field: string; expected: string; found: string }) => `"${p.field}" must be ${p.expected}, not ${p.found}`,
    wrongSecret: (p: { field: string; expected: string }) => `"${p.field}" must be ${p.expected}`,
    text: 'text',
    textNotEmpty: 'a text that is not empty',
    yesNo: 'true or false',
    number: 'a number',
    wholeNumber: 'a whole number',
    list: 'a list',
    object: 'an object',
    dateTime: 'a date and time (ISO 8601, e.g. 2025-01-31T12:00:00Z)',
    oneOf: (p: { values: string }) => `one of ${p.values}`,
    valid: 'a valid value',
    notPlainFile: 'it is not a plain file (a pipe or a device?)',
    isFolder: 'it is a folder',
    isLink: 'it is a symbolic link',
    otherOwner: 'it belongs to another user',
    otherNames: 'it has other names as well (a hard link)',
    appeared: 'something was put there while this run was writing',
    runFileReplaced: (p: { file: string; why: string }) => `${p.file} is no longer the file this run wrote (${p.why}).`,
    runFileReplacedHint: 'Check that no other program or person writes into the --out folder during the run.',
    fileInPath: (p: { at: string }) => `${p.at} is a file, not a folder`,
    brokenLink: (p: { at: string }) => `${p.at} is a link that leads nowhere (or round in a circle), not a folder`,
    notReadable: 'it cannot be read (permission denied: it may belong to another user, for instance after `sudo meterdata login`)',
    notReadableHint: 'Give the file back to this user (chown), or run meterdata as the user it belongs to.',
    tooLarge: (p: { mib: number }) => `it is larger than ${p.mib} MiB, far more than any such file holds`,
    configDamaged: (p: { file: string; problem: string }) => `The configuration file ${p.file} cannot be used: ${p.problem}.`,
    configHint: 'Correct the file, or move it away and sign in again with `meterdata login`.',
    configFull: (p: { file: string; mib: number }) =>
      `The settings were not changed: ${p.file} would grow beyond ${p.mib} MiB, more than meterdata reads back.`,
    configNoRoom: (p: { file: string; mib: number }) =>
      `Nothing was changed: ${p.file} has too little room left for a sign-in (meterdata reads it up to ${p.mib} MiB).`,
    configFullHint: 'Remove the entries of profiles no longer used from the file (after `meterdata logout --profile …`), then run the command again.',
    configLockHeld: (p: { file: string }) => `Another meterdata process has been changing the settings in ${p.file} for too long.`,
    configLockDamaged: (p: { lock: string; reason: string }) => `The lock ${p.lock} of the settings file cannot be used (${p.reason}).`,
    notLockFolder: 'it is a file, not the folder meterdata locks with',
    configLockHint: (p: { lock: string }) =>
      `Try again in a minute; if it persists and no other meterdata process is running, remove ${p.lock}. The settings were not changed.`,
    fileInPathHint: (p: { at: string }) =>
      `Move or rename ${p.at}: meterdata keeps its files in folders there (METERDATA_HOME, where set, must name a folder). Then run the command again.`,
    kernelFs: (p: { variable: string; dir: string }) =>
      `Cannot keep meterdata's files in ${p.dir} (from ${p.variable}): it lies on /proc or /sys, the kernel's view of the system, not a disk.`,
    kernelFsHint: (p: { variable: string }) => `Set ${p.variable} to a folder on a disk, or unset it, then run the command again.`,
    profileDamaged: (p: { profile: string; file: string; problem: string }) => `The profile "${p.profile}" in ${p.file} cannot be used: ${p.problem}.`,
    profileHint: (p: { profile: string }) =>
      `Correct that field in the file, or replace the profile: \`meterdata login --profile ${p.profile}\` with --env or --auth-url.`,
    nameNotKey: (p: { name: string }) => `its "name" is "${p.name}", not the name it is listed under`,
    nameNotKeyHint: (p: { profile: string }) =>
      `Set "name" in profiles.${p.profile} to "${p.profile}" if it is meant to be its own connection, or remove the entry and sign in with \`meterdata login --profile ${p.profile}\`.`,
    profileKeyInvalid: (p: { profile: string; file: string }) =>
      `The profile entry "${p.profile}" in ${p.file} cannot be used: its name is not a valid profile name.`,
    profileKeyHint: (p: { profile: string }) =>
      `Rename or remove the entry profiles."${p.profile}" in that file (names use letters, digits, ".", "_" or "-", at most 64 characters, not ending in a dot, not a Windows device name such as con or nul).`,
    caseTwin: (p: { name: string; twin: string; file: string }) =>
      `The profile name "${p.name}" differs from the profile "${p.twin}" in ${p.file} only in upper and lower case: on Windows and macOS both would use one sign-in and one folder.`,
    caseTwinHint: (p: { twin: string }) => `Use --profile ${p.twin}, or choose a name that differs in more than case.`,
    caseTwins: (p: { a: string; b: string; file: string }) =>
      `The profiles "${p.a}" and "${p.b}" in ${p.file} differ only in upper and lower case: on Windows and macOS both would use one sign-in and one folder.`,
    caseTwinsHint: 'Remove one of the two entries from that file, or rename it to a name that differs in more than case.',
  },
  {
    empty: 'sie ist leer',
    notJson: 'sie enthält kein vollständiges JSON (abgeschnitten oder von Hand bearbeitet)',
    notAnObject: 'sie enthält kein JSON-Objekt',
    tooDeep: (p) => `sie ist tiefer als ${p.max} Ebenen verschachtelt (keine von meterdata geschriebene Datei)`,
    missing: (p) => `„${p.field}“ fehlt`,
    wrong: (p) => `„${p.field}“ muss ${p.expected} sein, nicht ${p.found}`,
    wrongSecret: (p) => `„${p.field}“ muss ${p.expected} sein`,
    text: 'ein Text',
    textNotEmpty: 'ein nicht leerer Text',
    yesNo: 'true oder false',
    number: 'eine Zahl',
    wholeNumber: 'eine ganze Zahl',
    list: 'eine Liste',
    object: 'ein Objekt',
    dateTime: 'ein Zeitpunkt (ISO 8601, z. B. 2025-01-31T12:00:00Z)',
    oneOf: (p) => `einer der Werte ${p.values}`,
    valid: 'ein gültiger Wert',
    notPlainFile: 'sie ist keine gewöhnliche Datei (eine Pipe oder ein Gerät?)',
    isFolder: 'sie ist ein Ordner',
    isLink: 'sie ist eine symbolische Verknüpfung',
    otherOwner: 'sie gehört einem anderen Benutzer',
    otherNames: 'sie hat weitere Namen (ein harter Link)',
    appeared: 'dort wurde während dieses Laufs etwas abgelegt',
    runFileReplaced: (p) => `${p.file} ist nicht mehr die Datei, die dieser Lauf geschrieben hat (${p.why}).`,
    runFileReplacedHint: 'Bitte prüfen Sie, dass während des Laufs kein anderes Programm und keine andere Person in den Zielordner (--out) schreibt.',
    fileInPath: (p) => `${p.at} ist eine Datei, kein Ordner`,
    brokenLink: (p) => `${p.at} ist eine Verknüpfung, die ins Leere (oder im Kreis) führt, kein Ordner`,
    notReadable: 'sie ist nicht lesbar (keine Berechtigung: sie gehört womöglich einem anderen Benutzer, etwa nach `sudo meterdata login`)',
    notReadableHint: 'Bitte geben Sie die Datei diesem Benutzer zurück (chown) oder führen Sie meterdata als der Benutzer aus, dem sie gehört.',
    tooLarge: (p) => `sie ist größer als ${p.mib} MiB, weit mehr, als eine solche Datei enthält`,
    configDamaged: (p) => `Die Konfigurationsdatei ${p.file} ist nicht verwendbar: ${p.problem}.`,
    configHint: 'Bitte korrigieren Sie die Datei, oder verschieben Sie sie und melden Sie sich mit `meterdata login` neu an.',
    configFull: (p) => `Die Einstellungen wurden nicht geändert: ${p.file} würde größer als ${p.mib} MiB, mehr als meterdata wieder einliest.`,
    configNoRoom: (p) => `Es wurde nichts geändert: ${p.file} hat zu wenig Platz für eine Anmeldung (meterdata liest die Datei nur bis ${p.mib} MiB ein).`,
    configFullHint:
      'Bitte entfernen Sie die Einträge nicht mehr genutzter Profile aus der Datei (nach `meterdata logout --profile …`) und führen Sie den Befehl erneut aus.',
    configLockHeld: (p) => `Ein anderer meterdata-Prozess ändert die Einstellungen in ${p.file} schon zu lange.`,
    configLockDamaged: (p) => `Die Sperre ${p.lock} der Einstellungsdatei ist nicht verwendbar (${p.reason}).`,
    notLockFolder: 'sie ist eine Datei, nicht der Ordner, mit dem meterdata sperrt',
    configLockHint: (p) =>
      `Bitte in einer Minute erneut versuchen; wenn es anhält und kein anderer meterdata-Prozess läuft, entfernen Sie ${p.lock}. Die Einstellungen wurden nicht geändert.`,
    fileInPathHint: (p) =>
      `Bitte verschieben oder benennen Sie ${p.at} um: meterdata legt dort seine Dateien in Ordnern ab (METERDATA_HOME muss, wo gesetzt, einen Ordner nennen). Rufen Sie den Befehl danach erneut auf.`,
    kernelFs: (p) =>
      `Die Dateien von meterdata lassen sich nicht in ${p.dir} ablegen (aus ${p.variable}): der Ordner liegt unter /proc oder /sys, der Systemsicht des Kernels, nicht auf einem Datenträger.`,
    kernelFsHint: (p) =>
      `Bitte setzen Sie ${p.variable} auf einen Ordner auf einem Datenträger oder entfernen Sie die Variable; rufen Sie den Befehl danach erneut auf.`,
    profileDamaged: (p) => `Das Profil „${p.profile}“ in ${p.file} ist nicht verwendbar: ${p.problem}.`,
    profileHint: (p) =>
      `Bitte korrigieren Sie das Feld in der Datei, oder ersetzen Sie das Profil: \`meterdata login --profile ${p.profile}\` mit --env oder --auth-url.`,
    nameNotKey: (p) => `sein „name“ ist „${p.name}“, nicht der Name, unter dem es eingetragen ist`,
    nameNotKeyHint: (p) =>
      `Bitte setzen Sie „name“ in profiles.${p.profile} auf „${p.profile}“, wenn es eine eigene Verbindung sein soll, oder entfernen Sie den Eintrag und melden Sie sich mit \`meterdata login --profile ${p.profile}\` an.`,
    profileKeyInvalid: (p) => `Der Profileintrag „${p.profile}“ in ${p.file} ist nicht verwendbar: sein Name ist kein gültiger Profilname.`,
    profileKeyHint: (p) =>
      `Bitte benennen Sie den Eintrag profiles.„${p.profile}“ in dieser Datei um oder entfernen Sie ihn (Namen aus Buchstaben, Ziffern, „.“, „_“ oder „-“, höchstens 64 Zeichen, nicht mit einem Punkt am Ende, kein Windows-Gerätename wie con oder nul).`,
    caseTwin: (p) =>
      `Der Profilname „${p.name}“ unterscheidet sich vom Profil „${p.twin}“ in ${p.file} nur in Groß- und Kleinschreibung: unter Windows und macOS würden beide dieselbe Anmeldung und denselben Ordner verwenden.`,
    caseTwinHint: (p) => `Bitte verwenden Sie --profile ${p.twin}, oder wählen Sie einen Namen, der sich nicht nur in der Schreibweise unterscheidet.`,
    caseTwins: (p) =>
      `Die Profile „${p.a}“ und „${p.b}“ in ${p.file} unterscheiden sich nur in Groß- und Kleinschreibung: unter Windows und macOS würden beide dieselbe Anmeldung und denselben Ordner verwenden.`,
    caseTwinsHint:
      'Bitte entfernen Sie einen der beiden Einträge aus der Datei, oder benennen Sie ihn so um, dass sich die Namen nicht nur in der Schreibweise unterscheiden.',
  },
);
