// What the portfolio export (portfolio.ts, pipeline/held.ts) says to a person, in English and German.
import { count, num, catalogue } from '../../i18n/index.js';
import { plural, pluralWord } from '../../core/plural.js';

export const t = catalogue(
  'export-portfolio',
  {
    heldInvalid: (p: { raw: string }) => `METERDATA_PORTFOLIO_PROPERTIES=${p.raw} is not a number of Properties between 1 and 4096.`,
    heldInvalidHint: (p: { cap: number }) => `Set it to e.g. ${p.cap}, or unset it.`,
    allAndList: '--all-profiles cannot be combined with --profiles.',
    allAndListHint: 'Give --all-profiles for every signed-in profile, or --profiles a,b,c for some.',
    withProfile: (p: { flag: string }) => `${p.flag} cannot be combined with --profile.`,
    withProfileHint: 'Drop --profile: each listed profile is exported into <out>/<profile>/.',
    staticToken: 'METERDATA_ACCESS_TOKEN is set: it stands for one connection and cannot be used for several profiles.',
    staticTokenHint: 'Unset it for --all-profiles / --profiles.',
    noneSignedIn: '--all-profiles: no profile is signed in.',
    noneSignedInHint: 'Sign in each landlord connection first: meterdata login --profile <name>.',
    emptyList: '--profiles: the list is empty.',
    emptyListHint: 'e.g. --profiles hausverwaltung-a,hausverwaltung-b, or --all-profiles.',
    caseTwins: (p: { a: string; b: string }) =>
      `--profiles names ${p.a} and ${p.b}, which differ only in case: on Windows and macOS both would write into one folder of --out.`,
    caseTwinsHint: 'Name each profile once, as `meterdata status --all` lists it.',
    summaryName: (p: { name: string }) => `The profile "${p.name}" has the name of the portfolio summary file.`,
    summaryNameHint: 'Export it on its own with --profile.',
    reservedName: (p: { name: string }) =>
      `The profile "${p.name}" has a name meterdata gives its own files and folders (the manifest, a month's folder); its folder in the portfolio's --out would be taken for one.`,
    singleInOut: (p: { out: string; found: string }) =>
      `--out ${p.out} holds a single-profile export (${p.found}); the portfolio export writes one folder per profile below --out.`,
    singleInOutHint: 'Choose another --out folder.',
    strict: (p: { n: number }) => `--strict: ${plural(p.n, 'finding')} ${pluralWord(p.n, 'needs', 'need')} attention; the files were written.`,
    strictHint: (p: { place: string; out: string }) => `See ${p.place} in ${p.out}.`,
    theFiles: 'the files',
    notNoted: (p: { why: string }) => `could not note that this profile is finished (${p.why}); a re-run of a failed portfolio exports it again.`,
    stateFailed: (p: { code: number }) => `failed (exit ${p.code})`,
    stateKept: 'kept from the earlier run',
    stateDone: 'done',
    notCleared: (p: { why: string; file: string }) =>
      `warning: could not remove the note of finished profiles (${p.why}); delete ${p.file} so that the next run exports every profile again.\n`,
    finished: (p: { done: number; total: number; failed: string; summary: string }) =>
      `portfolio: ${p.done} of ${plural(p.total, 'profile')} exported${p.failed ? ` (failed: ${p.failed}; do what each one's line above says, then run the same command again to continue them)` : ''}; summary in ${p.summary}\n`,
    stoppedWaiting: 'the export stopped while this Property waited for memory',
    outOfMemory: (p: { mb: number }) =>
      `The portfolio export needed more than ${p.mb} MB of memory; profiles it finished keep their files, no other files were put under their final names.`,
    outOfMemoryHint: (p: { mb: number }) => `Run the same command again with METERDATA_EXPORT_HEAP_MB=${p.mb} set; it continues the unfinished profiles.`,
    workbookOutOfMemory: (p: { mb: number }) => `The export needed more than ${p.mb} MB of memory while writing billing.xlsx.`,
    workbookOutOfMemoryHint: (p: { mb: number }) => `Set METERDATA_EXPORT_HEAP_MB=${p.mb} for the next run.`,
  },
  {
    heldInvalid: (p) => `METERDATA_PORTFOLIO_PROPERTIES=${p.raw} ist keine Anzahl von Liegenschaften zwischen 1 und 4096.`,
    heldInvalidHint: (p) => `Setzen Sie den Wert z. B. auf ${p.cap}, oder entfernen Sie die Variable.`,
    allAndList: '--all-profiles und --profiles können nicht zusammen angegeben werden.',
    allAndListHint: 'Geben Sie --all-profiles für alle angemeldeten Profile an, oder --profiles a,b,c für einzelne.',
    withProfile: (p) => `${p.flag} und --profile können nicht zusammen angegeben werden.`,
    withProfileHint: 'Lassen Sie --profile weg: Jedes angegebene Profil wird in <out>/<profile>/ exportiert.',
    staticToken: 'METERDATA_ACCESS_TOKEN ist gesetzt: Das Token gilt für eine einzige Verbindung und nicht für mehrere Profile.',
    staticTokenHint: 'Entfernen Sie die Variable für --all-profiles / --profiles.',
    noneSignedIn: '--all-profiles: Es ist kein Profil angemeldet.',
    noneSignedInHint: 'Melden Sie zuerst jede Verbindung zu einem Eigentümer an: meterdata login --profile <name>.',
    emptyList: '--profiles: Die Liste ist leer.',
    emptyListHint: 'z. B. --profiles hausverwaltung-a,hausverwaltung-b, oder --all-profiles.',
    caseTwins: (p) =>
      `--profiles nennt ${p.a} und ${p.b}, die sich nur in der Groß- und Kleinschreibung unterscheiden: Unter Windows und macOS schrieben beide in denselben Ordner von --out.`,
    caseTwinsHint: 'Bitte jedes Profil einmal nennen, so wie `meterdata status --all` es aufführt.',
    summaryName: (p) => `Das Profil "${p.name}" trägt den Namen der Übersichtsdatei des Portfolio-Exports.`,
    summaryNameHint: 'Exportieren Sie es einzeln mit --profile.',
    reservedName: (p) =>
      `Das Profil "${p.name}" trägt einen Namen, den meterdata eigenen Dateien und Ordnern gibt (dem Manifest, dem Ordner eines Monats); sein Ordner im Zielordner des Portfolios würde dafür gehalten.`,
    singleInOut: (p) =>
      `Der Zielordner --out ${p.out} enthält den Export eines einzelnen Profils (${p.found}); der Portfolio-Export legt darin einen Ordner je Profil an.`,
    singleInOutHint: 'Wählen Sie einen anderen Zielordner für --out.',
    strict: (p) => `--strict: ${count(p.n, 'Hinweis muss', 'Hinweise müssen')} geprüft werden; die Dateien wurden geschrieben.`,
    strictHint: (p) => `Details: ${p.place} im Zielordner ${p.out}.`,
    theFiles: 'die Dateien',
    notNoted: (p) =>
      `Es konnte nicht vermerkt werden, dass dieses Profil fertig ist (${p.why}); ein erneuter Lauf nach einem Fehler exportiert es dann noch einmal.`,
    stateFailed: (p) => `fehlgeschlagen (Exit-Code ${p.code})`,
    stateKept: 'aus dem früheren Lauf übernommen',
    stateDone: 'fertig',
    notCleared: (p) =>
      `Warnung: Der Vermerk über fertige Profile konnte nicht entfernt werden (${p.why}); löschen Sie ${p.file}, damit der nächste Lauf wieder alle Profile exportiert.\n`,
    finished: (p) =>
      `Portfolio: ${num(p.done)} von ${count(p.total, 'Profil', 'Profilen')} exportiert${p.failed ? ` (fehlgeschlagen: ${p.failed}; beheben Sie, was die Zeile des jeweiligen Profils oben nennt, und führen Sie dann denselben Befehl erneut aus, um diese fortzusetzen)` : ''}; Übersicht in ${p.summary}\n`,
    stoppedWaiting: 'Der Export wurde beendet, während diese Liegenschaft auf Arbeitsspeicher wartete.',
    outOfMemory: (p) =>
      `Der Portfolio-Export brauchte mehr als ${num(p.mb)} MB Arbeitsspeicher; fertige Profile behalten ihre Dateien, weitere Dateien wurden nicht unter ihren endgültigen Namen abgelegt.`,
    outOfMemoryHint: (p) => `Führen Sie denselben Befehl mit METERDATA_EXPORT_HEAP_MB=${p.mb} erneut aus; er setzt die nicht fertigen Profile fort.`,
    workbookOutOfMemory: (p) => `Beim Schreiben von billing.xlsx brauchte der Export mehr als ${num(p.mb)} MB Arbeitsspeicher.`,
    workbookOutOfMemoryHint: (p) => `Setzen Sie für den nächsten Lauf METERDATA_EXPORT_HEAP_MB=${p.mb}.`,
  },
);
