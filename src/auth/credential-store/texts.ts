// What the credential stores say: where a sign-in is kept, and why it cannot be read or saved.
import { catalogue } from '../../i18n/index.js';

export const storeTexts = catalogue(
  'auth-store',
  {
    fileDamaged: (p: { file: string; problem: string }) => `The stored sign-in in ${p.file} is damaged: ${p.problem}.`,
    fileLinked: (p: { file: string; target: string }) =>
      `The stored sign-in ${p.file} is a symbolic link (to ${p.target}); meterdata does not use a sign-in through a link, since refreshing it would leave two records holding one refresh token.`,
    keychainDamaged: (p: { problem: string }) => `The sign-in stored in the keychain is damaged: ${p.problem}.`,
    damagedHint: (p: { login: string; logout: string }) => `Run \`${p.login}\` to replace it (\`${p.logout}\` deletes it).`,
    fileUnreadable: (p: { file: string; problem: string }) => `The stored sign-in in ${p.file} cannot be used: ${p.problem}.`,
    unreadableHint: (p: { login: string }) =>
      `Give the file back to this user (chown), or sign in again as this user with \`${p.login}\` (it replaces the file).`,
    recordIsFolder: (p: { file: string }) =>
      `${p.file} is a folder, where meterdata keeps this profile's sign-in; it is not meterdata's, and meterdata removes no folder it did not make. Nothing was sent to the sign-in server.`,
    recordIsFolderHint: (p: { file: string }) => `Remove the folder ${p.file} (or move it elsewhere), then sign in again.`,
    storeBlocked: (p: { file: string; problem: string }) => `meterdata cannot keep this profile's sign-in in ${p.file}: ${p.problem}.`,
    describeFile: (p: { file: string }) => `file ${p.file} (mode 0600)`,
    describeKeychain: (p: { backend: string; service: string; account: string }) =>
      `system keychain (${p.backend}), service "${p.service}", account "${p.account}"`,
    keychainUnavailable: (p: { what: string }) => `The system keychain is locked or unavailable (${p.what}).`,
    keychainHint:
      'Unlock the keychain (sign in to the desktop session) and try again, or keep the sign-in in a file instead: ' +
      '`meterdata login --credential-store file` (or METERDATA_CREDENTIAL_STORE=file).',
    noAnswer: (p: { wait: string; what: string }) => `no answer within ${p.wait} while trying to ${p.what}`,
    failed: (p: { what: string; reason: string }) => `${p.what}: ${p.reason}`,
    read: 'read the sign-in',
    save: 'save the sign-in',
    delete: 'delete the sign-in',
    reach: 'reach the keychain',
    unknownStore: (p: { value: string }) => `Unknown credential store "${p.value}".`,
    unknownStoreHint: 'Use --credential-store keychain or --credential-store file.',
  },
  {
    fileDamaged: (p) => `Die gespeicherte Anmeldung in ${p.file} ist beschädigt: ${p.problem}.`,
    fileLinked: (p) =>
      `Die gespeicherte Anmeldung ${p.file} ist eine symbolische Verknüpfung (auf ${p.target}); meterdata verwendet keine Anmeldung über eine Verknüpfung, denn nach einer Erneuerung hielten zwei Dateien dasselbe Refresh-Token.`,
    keychainDamaged: (p) => `Die im Schlüsselbund gespeicherte Anmeldung ist beschädigt: ${p.problem}.`,
    damagedHint: (p) => `Führen Sie \`${p.login}\` aus, um sie zu ersetzen (\`${p.logout}\` löscht sie).`,
    fileUnreadable: (p) => `Die gespeicherte Anmeldung in ${p.file} ist nicht verwendbar: ${p.problem}.`,
    unreadableHint: (p) =>
      `Bitte geben Sie die Datei diesem Benutzer zurück (chown) oder melden Sie sich als dieser Benutzer mit \`${p.login}\` neu an (das ersetzt die Datei).`,
    recordIsFolder: (p) =>
      `${p.file} ist ein Ordner an der Stelle, an der meterdata die Anmeldung dieses Profils ablegt; er stammt nicht von meterdata, und meterdata löscht keinen Ordner, den es nicht angelegt hat. An den Anmeldeserver wurde nichts gesendet.`,
    recordIsFolderHint: (p) => `Bitte den Ordner ${p.file} löschen (oder verschieben) und sich dann erneut anmelden.`,
    storeBlocked: (p) => `meterdata kann die Anmeldung dieses Profils nicht in ${p.file} ablegen: ${p.problem}.`,
    describeFile: (p) => `Datei ${p.file} (Modus 0600)`,
    describeKeychain: (p) => `Schlüsselbund des Systems (${p.backend}), Dienst „${p.service}“, Konto „${p.account}“`,
    keychainUnavailable: (p) => `Der Schlüsselbund des Systems ist gesperrt oder nicht erreichbar (${p.what}).`,
    keychainHint:
      'Entsperren Sie den Schlüsselbund (an der Desktop-Sitzung anmelden) und versuchen Sie es erneut, oder speichern Sie die Anmeldung stattdessen in einer Datei: ' +
      '`meterdata login --credential-store file` (oder METERDATA_CREDENTIAL_STORE=file).',
    noAnswer: (p) => `keine Antwort innerhalb von ${p.wait} beim ${p.what}`,
    failed: (p) => `${p.what}: ${p.reason}`,
    read: 'Lesen der Anmeldung',
    save: 'Speichern der Anmeldung',
    delete: 'Löschen der Anmeldung',
    reach: 'Zugriff auf den Schlüsselbund',
    unknownStore: (p) => `Unbekannter Speicherort für die Anmeldung: „${p.value}“.`,
    unknownStoreHint: 'Verwenden Sie --credential-store keychain oder --credential-store file.',
  },
);
