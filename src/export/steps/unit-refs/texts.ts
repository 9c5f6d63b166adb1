// What a bad --unit-refs file is told: one line naming the file, the line and the fix.
import { catalogue } from '../../../i18n/index.js';

export const unitRefTexts = catalogue(
  'unit-refs',
  {
    cannotRead: (p: { file: string; error: string }) => `--unit-refs: cannot read ${p.file} (${p.error}).`,
    isFolder: (p: { file: string }) => `--unit-refs ${p.file} is a folder, not a file.`,
    notAFile: (p: { file: string }) => `--unit-refs ${p.file} is not a file (a pipe or a device cannot be read before the run).`,
    cannotReadHint: 'Give the path of a CSV file with the columns usage_unit_id and erp_ref.',
    tooLarge: (p: { file: string; mb: number }) => `--unit-refs ${p.file}: the file is larger than ${p.mb} MB.`,
    tooLargeHint: 'Give a CSV file with one line per unit (usage_unit_id and erp_ref).',
    notUtf8: (p: { file: string }) => `--unit-refs ${p.file}: the file is not UTF-8 text.`,
    notUtf8Hint: 'Save it as "CSV UTF-8" (Excel) or as UTF-8 text, then run the export again.',
    noColumn: (p: { file: string; line: number; column: string }) => `--unit-refs ${p.file} line ${p.line}: no column ${p.column}.`,
    columnTwice: (p: { file: string; line: number; column: string }) => `--unit-refs ${p.file} line ${p.line}: the column ${p.column} is named twice.`,
    noColumnHint: 'The first line that is not empty must name the columns usage_unit_id and erp_ref (separated by a comma or a semicolon).',
    openQuote: (p: { file: string; line: number }) => `--unit-refs ${p.file} line ${p.line}: a quote is opened and never closed.`,
    fields: (p: { file: string; line: number; n: number; column: string; needed: number }) =>
      `--unit-refs ${p.file} line ${p.line}: ${p.n} ${p.n === 1 ? 'field' : 'fields'}, but ${p.column} is field ${p.needed}.`,
    notUnit: (p: { file: string; line: number; id: string }) => `--unit-refs ${p.file} line ${p.line}: "${p.id}" is not a unit id (a UUID such as 3f2a…-…).`,
    badRef: (p: { file: string; line: number }) =>
      `--unit-refs ${p.file} line ${p.line}: the erp_ref holds a line break, a control character or an invisible character.`,
    longRef: (p: { file: string; line: number; max: number }) => `--unit-refs ${p.file} line ${p.line}: the erp_ref is longer than ${p.max} characters.`,
    twice: (p: { file: string; line: number; first: number }) =>
      `--unit-refs ${p.file} line ${p.line}: this unit already has another erp_ref on line ${p.first}.`,
    twiceHint: (p: { first: number; line: number }) => `Keep one of lines ${p.first} and ${p.line}: a unit has one ERP reference.`,
    tooMany: (p: { file: string; max: number }) => `--unit-refs ${p.file}: more than ${p.max} lines.`,
    lineHint: (p: { line: number; file: string }) =>
      `Correct line ${p.line} of ${p.file}: each line needs a usage_unit_id (copy it from billing.csv) and an erp_ref.`,
  },
  {
    cannotRead: (p) => `--unit-refs: ${p.file} kann nicht gelesen werden (${p.error}).`,
    isFolder: (p) => `--unit-refs ${p.file} ist ein Ordner, keine Datei.`,
    notAFile: (p) => `--unit-refs ${p.file} ist keine Datei (eine Pipe oder ein Gerät kann vor dem Lauf nicht gelesen werden).`,
    cannotReadHint: 'Geben Sie den Pfad einer CSV-Datei mit den Spalten usage_unit_id und erp_ref an.',
    tooLarge: (p) => `--unit-refs ${p.file}: Die Datei ist größer als ${p.mb} MB.`,
    tooLargeHint: 'Geben Sie eine CSV-Datei mit einer Zeile je Nutzeinheit an (usage_unit_id und erp_ref).',
    notUtf8: (p) => `--unit-refs ${p.file}: Die Datei ist kein UTF-8-Text.`,
    notUtf8Hint: 'Bitte als „CSV UTF-8“ (Excel) oder als UTF-8-Text speichern und den Export erneut ausführen.',
    noColumn: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Spalte ${p.column} fehlt.`,
    columnTwice: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Die Spalte ${p.column} ist doppelt benannt.`,
    noColumnHint: 'Die erste nicht leere Zeile muss die Spalten usage_unit_id und erp_ref benennen (getrennt durch Komma oder Semikolon).',
    openQuote: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Ein Anführungszeichen wird geöffnet und nicht geschlossen.`,
    fields: (p) => `--unit-refs ${p.file} Zeile ${p.line}: ${p.n} ${p.n === 1 ? 'Feld' : 'Felder'}, ${p.column} steht aber in Feld ${p.needed}.`,
    notUnit: (p) => `--unit-refs ${p.file} Zeile ${p.line}: "${p.id}" ist keine Nutzeinheit-ID (eine UUID wie 3f2a…-…).`,
    badRef: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Die erp_ref enthält einen Zeilenumbruch, ein Steuerzeichen oder ein unsichtbares Zeichen.`,
    longRef: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Die erp_ref ist länger als ${p.max} Zeichen.`,
    twice: (p) => `--unit-refs ${p.file} Zeile ${p.line}: Diese Nutzeinheit hat in Zeile ${p.first} schon eine andere erp_ref.`,
    twiceHint: (p) => `Bitte nur eine der Zeilen ${p.first} und ${p.line} behalten: Eine Nutzeinheit hat eine ERP-Nummer.`,
    tooMany: (p) => `--unit-refs ${p.file}: mehr als ${p.max} Zeilen.`,
    lineHint: (p) => `Bitte Zeile ${p.line} von ${p.file} berichtigen: Jede Zeile braucht eine usage_unit_id (aus billing.csv) und eine erp_ref.`,
  },
);
