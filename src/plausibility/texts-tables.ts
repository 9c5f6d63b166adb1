// What is wrong with an earlier export's tables read back for --compare DIR (the export
// names the folder around it). Pure: no fs, network or process.
import { catalogue } from '../i18n/index.js';

export const tableTexts = catalogue(
  'review-tables',
  {
    billingTable: 'billing table',
    plantTable: 'plant-point table',
    tableLine: (p: { table: string; line: number }) => `${p.table} line ${p.line}`,
    noColumn: (p: { table: string; header: string; key: string }) => `${p.table} has no column ${p.header} (${p.key})`,
    fields: (p: { table: string; line: number; n: number; header: number }) => `${p.table} line ${p.line} has ${p.n} fields, the header ${p.header}`,
    notNumber: (p: { where: string; value: string }) => `${p.where}: "${p.value}" is not a number`,
  },
  {
    billingTable: 'Abrechnungstabelle',
    plantTable: 'Tabelle der Hauptzähler',
    tableLine: (p) => `${p.table} Zeile ${p.line}`,
    noColumn: (p) => `${p.table} hat keine Spalte ${p.header} (${p.key})`,
    fields: (p) => `${p.table} Zeile ${p.line} hat ${p.n} Felder, die Kopfzeile ${p.header}`,
    notNumber: (p) => `${p.where}: "${p.value}" ist keine Zahl`,
  },
);
