// The export's own scratch files (spools, rendered rows) found damaged or unwritable while
// the workbook is made: the disk failed, or something else changed the --out folder.
import { catalogue } from '../../../../i18n/index.js';

export const scratchText = catalogue(
  'export-run.scratch',
  {
    damaged: (p: { file: string; why: string }) => `The export's scratch file ${p.file} is damaged: ${p.why}.`,
    shorter: (p: { bytes: number }) => `it is shorter than the ${p.bytes} bytes the export wrote to it`,
    lastRowIncomplete: 'its last row is incomplete',
    rowCount: (p: { rows: number; wrote: number }) => `it holds ${p.rows} rows, the export wrote ${p.wrote}`,
    notJson: (p: { row: number }) => `row ${p.row} is not JSON`,
    notWritten: (p: { file: string; bytes: number }) => `The export's scratch file ${p.file} could not be written: the disk took none of ${p.bytes} bytes.`,
    hint: 'Check the disk, and that no other program writes into the --out folder during the export.',
  },
  {
    damaged: (p) => `Die Arbeitsdatei ${p.file} des Exports ist beschädigt: ${p.why}.`,
    shorter: (p) => `sie ist kürzer als die ${p.bytes} Bytes, die der Export hineingeschrieben hat`,
    lastRowIncomplete: 'ihre letzte Zeile ist unvollständig',
    rowCount: (p) => `sie enthält ${p.rows} Zeilen, der Export hat ${p.wrote} geschrieben`,
    notJson: (p) => `Zeile ${p.row} ist kein JSON`,
    notWritten: (p) => `Die Arbeitsdatei ${p.file} des Exports konnte nicht geschrieben werden: Der Datenträger hat keines der ${p.bytes} Bytes angenommen.`,
    hint: 'Bitte prüfen Sie den Datenträger und ob ein anderes Programm während des Exports in den Zielordner (--out) schreibt.',
  },
);
