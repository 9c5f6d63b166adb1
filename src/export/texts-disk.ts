// A file of a run (export or uvi) that the disk would not take (full, read-only, refused, failed)
// while the export ran: the --out folder, its scratch files or the saved progress (why:
// core/texts-disk.ts).
import { catalogue } from '../i18n/index.js';

export const diskText = catalogue(
  'export-run.disk',
  {
    notWritten: (p: { file: string; why: string }) => `A file of this run could not be written (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p: { why: string }) => `A file of this run could not be written: ${p.why}.`,
    hint: 'Free space on that disk (or make it writable again).',
  },
  {
    notWritten: (p) => `Eine Datei dieses Laufs konnte nicht geschrieben werden (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p) => `Eine Datei dieses Laufs konnte nicht geschrieben werden: ${p.why}.`,
    hint: 'Bitte schaffen Sie auf diesem Datenträger Platz (bzw. machen Sie ihn wieder beschreibbar).',
  },
);
