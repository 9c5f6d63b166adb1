// A file of the export that the disk would not take (full, read-only, refused, failed)
// while the export ran: the --out folder, its scratch files or the saved progress.
import { catalogue } from '../i18n/index.js';

export const diskText = catalogue(
  'export-run.disk',
  {
    notWritten: (p: { file: string; why: string }) => `A file of the export could not be written (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p: { why: string }) => `A file of the export could not be written: ${p.why}.`,
    full: 'the disk is full',
    quota: 'the disk quota is used up',
    readOnly: 'the file system is read-only',
    denied: 'permission denied',
    failed: 'the disk reported an input/output error',
    hint: 'Free space on that disk (or make it writable again).',
  },
  {
    notWritten: (p) => `Eine Datei des Exports konnte nicht geschrieben werden (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p) => `Eine Datei des Exports konnte nicht geschrieben werden: ${p.why}.`,
    full: 'der Datenträger ist voll',
    quota: 'das Speicherkontingent (Quota) ist ausgeschöpft',
    readOnly: 'das Dateisystem ist schreibgeschützt',
    denied: 'keine Berechtigung',
    failed: 'der Datenträger hat einen Lese- oder Schreibfehler gemeldet',
    hint: 'Bitte schaffen Sie auf diesem Datenträger Platz (bzw. machen Sie ihn wieder beschreibbar).',
  },
);
