// Why the disk would not take a file (full, quota, read-only, refused, failed), and the
// message for a file of meterdata's own (config, sign-in, state) that any command writes.
import { catalogue } from '../i18n/index.js';

export const diskWords = catalogue(
  'core.disk',
  {
    full: 'the disk is full',
    quota: 'the disk quota is used up',
    readOnly: 'the file system is read-only',
    denied: 'permission denied (it or its folder may belong to another user, for instance after `sudo meterdata …`)',
    failed: 'the disk reported an input/output error',
    nameTooLong: 'its path is longer than the file system allows',
    notWritten: (p: { file: string; why: string }) => `A file meterdata keeps could not be written (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p: { why: string }) => `A file meterdata keeps could not be written: ${p.why}.`,
    hint: 'Free space on that disk (or make it writable again), then run the command again.',
    deniedHint: 'Give the file or folder back to this user (chown -R), or run meterdata as the user it belongs to.',
    nameTooLongHint: 'Choose a folder with a shorter path (--out), then run the command again.',
  },
  {
    full: 'der Datenträger ist voll',
    quota: 'das Speicherkontingent (Quota) ist ausgeschöpft',
    readOnly: 'das Dateisystem ist schreibgeschützt',
    denied: 'keine Berechtigung (die Datei oder ihr Ordner gehört womöglich einem anderen Benutzer, etwa nach `sudo meterdata …`)',
    failed: 'der Datenträger hat einen Lese- oder Schreibfehler gemeldet',
    nameTooLong: 'sein Pfad ist länger, als das Dateisystem erlaubt',
    notWritten: (p) => `Eine Datei von meterdata konnte nicht geschrieben werden (${p.file}): ${p.why}.`,
    notWrittenAnywhere: (p) => `Eine Datei von meterdata konnte nicht geschrieben werden: ${p.why}.`,
    hint: 'Bitte schaffen Sie auf diesem Datenträger Platz (bzw. machen Sie ihn wieder beschreibbar) und führen Sie den Befehl erneut aus.',
    deniedHint: 'Bitte geben Sie die Datei oder den Ordner diesem Benutzer zurück (chown -R) oder führen Sie meterdata als der Benutzer aus, dem sie gehören.',
    nameTooLongHint: 'Bitte wählen Sie einen Ordner mit kürzerem Pfad (--out) und führen Sie den Befehl erneut aus.',
  },
);
