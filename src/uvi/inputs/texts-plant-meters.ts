// What a bad --plant-meters file is told: one line naming the file and the line, and a hint with the
// fix. German as an accountant writes it.
import { catalogue } from '../../i18n/index.js';

type Where = { file: string; line: number };
const at = (p: Where) => `--plant-meters ${p.file} line ${p.line}`;
const de = (p: Where) => `--plant-meters ${p.file} Zeile ${p.line}`;

export const plantMeterTexts = catalogue(
  'uvi-plant-meters',
  {
    fileHint: 'Give the path of a CSV file with the columns property_id, measuring_point_id and role (docs/uvi.md).',
    lineHint: 'Each line names a Property, one of its plant-room heat meters (the ids as in meterdata browse) and its role.',
    openQuote: (p: Where) => `${at(p)}: a quote is opened and never closed.`,
    noColumn: (p: Where & { column: string }) => `${at(p)}: no column ${p.column}, or it is named twice.`,
    columnHint: 'The first line that is not empty names the columns property_id, measuring_point_id and role, separated by commas (or semicolons).',
    fields: (p: Where) => `${at(p)}: fewer fields than the header names.`,
    notAnId: (p: Where & { id: string }) => `${at(p)}: "${p.id}" is not an id of the metering service.`,
    notARole: (p: Where & { role: string }) => `${at(p)}: unknown role "${p.role}".`,
    roleHint: 'role is warm_water_heat (the heat meter that measures the heat for hot water only) or plant_heat (a heat meter of the whole heating plant).',
    twice: (p: Where & { first: number }) => `${at(p)}: this meter is given a different role on line ${p.first}.`,
  },
  {
    fileHint: 'Geben Sie den Pfad einer CSV-Datei mit den Spalten property_id, measuring_point_id und role an (docs/uvi.md).',
    lineHint: 'Jede Zeile nennt eine Liegenschaft, einen Wärmezähler ihrer Heizzentrale (die Kennungen wie in meterdata browse) und seine Aufgabe.',
    openQuote: (p) => `${de(p)}: Ein Anführungszeichen wird geöffnet und nicht geschlossen.`,
    noColumn: (p) => `${de(p)}: Die Spalte ${p.column} fehlt oder ist doppelt benannt.`,
    columnHint: 'Die erste nicht leere Zeile benennt die Spalten property_id, measuring_point_id und role, getrennt durch Komma (oder Semikolon).',
    fields: (p) => `${de(p)}: weniger Felder, als die Kopfzeile nennt.`,
    notAnId: (p) => `${de(p)}: „${p.id}“ ist keine Kennung des Messdienstes.`,
    notARole: (p) => `${de(p)}: unbekannte Aufgabe „${p.role}“.`,
    roleHint: 'role ist warm_water_heat (der Wärmezähler, der nur die Wärme für Warmwasser misst) oder plant_heat (ein Wärmezähler der gesamten Heizanlage).',
    twice: (p) => `${de(p)}: Dieser Zähler hat in Zeile ${p.first} eine andere Aufgabe.`,
  },
);
