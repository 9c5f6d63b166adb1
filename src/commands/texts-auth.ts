// What login, logout and status print, and the errors of login's flags.
import { catalogue } from '../i18n/index.js';

export const loginTexts = catalogue(
  'auth-login',
  {
    connected: (p: { profile: string; tenant: string }) => `Connected profile "${p.profile}" to ${p.tenant}.`,
    theLandlord: 'the landlord',
    scopes: 'Scopes',
    propertyScope: 'Property scope',
    dpop: 'DPoP',
    storedIn: 'Token stored in',
    none: 'none',
    dpopOn: 'on (tokens bound to a key kept with them)',
    dpopOff: 'off',
    previousRevoked: "The profile's previous connection was revoked at the server.",
    previousNotRevoked: (p: { reason: string }) => `The profile's previous connection was not revoked at the server (${p.reason}).`,
    previousPerhapsRevoked: (p: { reason: string }) =>
      `The revocation of the profile's previous connection was sent, but no answer said it was done (${p.reason}): the landlord can see in the portal whether it is still there.`,
    damagedReplaced: (p: { problem: string }) => `${p.problem} This sign-in replaces the profile.`,
    secretStdinEmpty: '--client-secret-stdin was given but standard input was empty.',
    secretStdinHint: 'Pipe the secret in, e.g. `pass show erp-client | meterdata login --client-secret-stdin …`.',
    badTimeout: (p: { value: string }) => `--timeout must be a positive number of seconds, not "${p.value}".`,
    presetMissing: (p: { env: string }) => `No URLs are configured for --env ${p.env}.`,
    presetHint: (p: { env: string; file: string }) =>
      `Add "presets": { "${p.env}": { "auth_url": "https://…", "base_url": "https://…/v1" } } to ${p.file}, or pass --auth-url and --base-url.`,
    noServer: 'meterdata does not know where to sign in.',
    noServerHint: 'Pass --env sandbox or --env production (URLs from the config file), or --auth-url (and --base-url) for another server.',
    noClientId: 'No client id for this server.',
    noClientIdHint: 'Pass --client-id with the client id the operator registered (erp_…).',
    unknownScope: (p: { scopes: string }) => `Unknown scope ${p.scopes}.`,
    noneGiven: '(none given)',
    scopeHint: (p: { known: string }) => `Use some of: ${p.known}.`,
    keyNeeded: 'private_key_jwt needs a private key.',
    keyNeededHint: 'Pass --private-key FILE (PEM or JWK), --kid and --alg.',
    keyOnlyWithJwt: '--private-key is only used with --client-auth private_key_jwt.',
    notAUrl: (p: { flag: string; value: string }) => `${p.flag} "${p.value}" is not a URL.`,
    notAUrlHint: 'Pass a full address such as https://auth.example.com.',
    notHttps: (p: { flag: string; origin: string }) => `${p.flag} must use https (plain http is only allowed for 127.0.0.1/localhost): ${p.origin}.`,
    noQuery: (p: { flag: string }) => `${p.flag} must not carry a query or fragment.`,
  },
  {
    connected: (p) => `Profil „${p.profile}“ ist mit ${p.tenant} verbunden.`,
    theLandlord: 'dem Eigentümer',
    scopes: 'Berechtigungen',
    propertyScope: 'Liegenschaften',
    dpop: 'DPoP',
    storedIn: 'Token gespeichert in',
    none: 'keine',
    dpopOn: 'ein (Tokens an einen mitgespeicherten Schlüssel gebunden)',
    dpopOff: 'aus',
    previousRevoked: 'Die bisherige Verbindung des Profils wurde beim Server widerrufen.',
    previousNotRevoked: (p) => `Die bisherige Verbindung des Profils wurde beim Server nicht widerrufen (${p.reason}).`,
    previousPerhapsRevoked: (p) =>
      `Der Widerruf der bisherigen Verbindung des Profils wurde gesendet, aber keine Antwort hat ihn bestätigt (${p.reason}); der Eigentümer sieht im Portal, ob sie noch besteht.`,
    damagedReplaced: (p) => `${p.problem} Diese Anmeldung ersetzt das Profil.`,
    secretStdinEmpty: '--client-secret-stdin wurde angegeben, aber die Standardeingabe war leer.',
    secretStdinHint: 'Bitte das Secret per Pipe übergeben, z. B. `pass show erp-client | meterdata login --client-secret-stdin …`.',
    badTimeout: (p) => `--timeout muss eine positive Zahl von Sekunden sein, nicht „${p.value}“.`,
    presetMissing: (p) => `Für --env ${p.env} sind keine URLs eingerichtet.`,
    presetHint: (p) =>
      `Tragen Sie "presets": { "${p.env}": { "auth_url": "https://…", "base_url": "https://…/v1" } } in ${p.file} ein, oder geben Sie --auth-url und --base-url an.`,
    noServer: 'meterdata weiß nicht, wo die Anmeldung stattfinden soll.',
    noServerHint:
      'Geben Sie --env sandbox oder --env production an (URLs aus der Konfigurationsdatei), oder --auth-url (und --base-url) für einen anderen Server.',
    noClientId: 'Für diesen Server ist keine Client-ID bekannt.',
    noClientIdHint: 'Geben Sie mit --client-id die Client-ID an, die der Betreiber registriert hat (erp_…).',
    unknownScope: (p) => `Unbekannte Berechtigung ${p.scopes}.`,
    noneGiven: '(keine angegeben)',
    scopeHint: (p) => `Verwenden Sie einige von: ${p.known}.`,
    keyNeeded: 'private_key_jwt braucht einen privaten Schlüssel.',
    keyNeededHint: 'Geben Sie --private-key DATEI (PEM oder JWK), --kid und --alg an.',
    keyOnlyWithJwt: '--private-key wird nur mit --client-auth private_key_jwt verwendet.',
    notAUrl: (p) => `${p.flag} „${p.value}“ ist keine URL.`,
    notAUrlHint: 'Geben Sie eine vollständige Adresse an, z. B. https://auth.example.com.',
    notHttps: (p) => `${p.flag} muss https verwenden (unverschlüsseltes http nur für 127.0.0.1/localhost): ${p.origin}.`,
    noQuery: (p) => `${p.flag} darf keine Query und kein Fragment enthalten.`,
  },
);

export const logoutTexts = catalogue(
  'auth-logout',
  {
    noProfile: (p: { profile: string }) => `Profile "${p.profile}" does not exist; nothing to do.`,
    notSignedIn: (p: { profile: string }) => `Profile "${p.profile}" is not signed in; nothing to revoke or delete.`,
    damaged: (p: { profile: string; where: string }) =>
      `Signed out profile "${p.profile}": the stored sign-in was damaged, so nothing could be revoked at the server (the landlord can disconnect it in the portal, or it expires after 90 days unused); the damaged record was deleted from the ${p.where}.`,
    unreadable: (p: { profile: string; problem: string }) =>
      `Profile "${p.profile}" was not signed out: ${p.problem} Its connection may still be live, so the record is kept until it can be revoked.`,
    unreadableDeleted: (p: { profile: string; where: string }) =>
      `Signed out profile "${p.profile}" (--local-only): its stored sign-in could not be read, so nothing was revoked at the server (the landlord can disconnect it in the portal, or it expires after 90 days unused); the record was deleted from the ${p.where}.`,
    unreadableHint: (p: { logout: string }) =>
      `Give the file back to this user (chown) and run \`${p.logout}\` again, or run it as the user the file belongs to; \`${p.logout} --local-only\` deletes it without revoking.`,
    factsKept: (p: { reason: string }) =>
      `Warning: the connection's tenant and Properties could not be removed from config.json: ${p.reason} \`meterdata status\` does not show them while the profile is signed out.`,
    factsStopped:
      "Stopped while waiting for config.json: the connection's tenant and Properties are still noted there (the sign-out itself is done). `meterdata status` does not show them while the profile is signed out.",
    signedOut: (p: { profile: string; revoked: string; where: string }) =>
      `Signed out profile "${p.profile}": connection ${p.revoked}; local sign-in deleted from the ${p.where}.`,
    file: 'credential file',
    keychain: 'keychain',
    localOnly: 'not revoked at the server (--local-only); the landlord can still see the connection in the portal until it expires or is disconnected',
    revoked: 'revoked at the server',
    notRevoked: (p: { reason: string }) =>
      `NOT revoked at the server (${p.reason}); the landlord can disconnect it in the portal, or it expires after 90 days unused`,
    perhapsRevoked: (p: { reason: string }) =>
      `perhaps not revoked at the server: the request was sent, but no answer said it was done (${p.reason}); the landlord can see in the portal whether it is still there and disconnect it, or it expires after 90 days unused`,
    stopped: (p: { profile: string }) =>
      `Sign-out of profile "${p.profile}" stopped while waiting for the server: the connection may already be revoked there; the local sign-in is kept.`,
    stoppedBeforeSending: (p: { profile: string }) =>
      `Sign-out of profile "${p.profile}" stopped before the revocation was sent: the connection is still there, and so is the local sign-in.`,
    stoppedBeforeSendingHint: (p: { logout: string }) =>
      `Run \`${p.logout}\` again to sign out, or \`${p.logout} --local-only\` to delete only the local sign-in.`,
    stoppedHint: (p: { logout: string }) =>
      `Run \`${p.logout}\` again to finish (a second revocation does no harm), or \`${p.logout} --local-only\` to delete only the local sign-in.`,
  },
  {
    noProfile: (p) => `Das Profil „${p.profile}“ gibt es nicht; nichts zu tun.`,
    notSignedIn: (p) => `Das Profil „${p.profile}“ ist nicht angemeldet; nichts zu widerrufen oder zu löschen.`,
    damaged: (p) =>
      `Profil „${p.profile}“ abgemeldet: die gespeicherte Anmeldung war beschädigt, daher konnte beim Server nichts widerrufen werden (der Eigentümer kann die Verbindung im Portal trennen, sonst läuft sie nach 90 Tagen ohne Nutzung ab); der beschädigte Eintrag wurde aus ${p.where} gelöscht.`,
    unreadable: (p) =>
      `Das Profil „${p.profile}“ wurde nicht abgemeldet: ${p.problem} Die Verbindung kann noch bestehen; der Eintrag bleibt daher, bis sie widerrufen werden kann.`,
    unreadableDeleted: (p) =>
      `Profil „${p.profile}“ abgemeldet (--local-only): die gespeicherte Anmeldung war nicht lesbar, daher wurde beim Server nichts widerrufen (der Eigentümer kann die Verbindung im Portal trennen, sonst läuft sie nach 90 Tagen ohne Nutzung ab); der Eintrag wurde aus ${p.where} gelöscht.`,
    unreadableHint: (p) =>
      `Bitte geben Sie die Datei diesem Benutzer zurück (chown) und führen Sie \`${p.logout}\` erneut aus, oder führen Sie es als der Benutzer aus, dem die Datei gehört; \`${p.logout} --local-only\` löscht sie ohne Widerruf.`,
    factsKept: (p) =>
      `Warnung: Mandant und Liegenschaften der Verbindung ließen sich nicht aus config.json entfernen: ${p.reason} \`meterdata status\` zeigt sie nicht, solange das Profil abgemeldet ist.`,
    factsStopped:
      'Beim Warten auf config.json abgebrochen: Mandant und Liegenschaften der Verbindung stehen dort noch (die Abmeldung selbst ist erfolgt). `meterdata status` zeigt sie nicht, solange das Profil abgemeldet ist.',
    signedOut: (p) => `Profil „${p.profile}“ abgemeldet: Verbindung ${p.revoked}; die lokale Anmeldung wurde aus ${p.where} gelöscht.`,
    file: 'der Anmeldedatei',
    keychain: 'dem Schlüsselbund',
    localOnly: 'beim Server nicht widerrufen (--local-only); der Eigentümer sieht die Verbindung im Portal, bis sie abläuft oder getrennt wird',
    revoked: 'beim Server widerrufen',
    notRevoked: (p) => `beim Server NICHT widerrufen (${p.reason}); der Eigentümer kann sie im Portal trennen, sonst läuft sie nach 90 Tagen ohne Nutzung ab`,
    perhapsRevoked: (p) =>
      `beim Server womöglich nicht widerrufen: Die Anfrage wurde gesendet, aber keine Antwort hat den Widerruf bestätigt (${p.reason}); der Eigentümer sieht im Portal, ob die Verbindung noch besteht, und kann sie dort trennen, sonst läuft sie nach 90 Tagen ohne Nutzung ab`,
    stopped: (p) =>
      `Abmeldung des Profils „${p.profile}“ beim Warten auf den Server abgebrochen: Die Verbindung ist dort womöglich schon widerrufen; die lokale Anmeldung bleibt erhalten.`,
    stoppedBeforeSending: (p) =>
      `Abmeldung des Profils „${p.profile}“ abgebrochen, bevor der Widerruf gesendet wurde: Die Verbindung besteht weiter, die lokale Anmeldung ebenso.`,
    stoppedBeforeSendingHint: (p) =>
      `Führen Sie \`${p.logout}\` erneut aus, um sich abzumelden, oder \`${p.logout} --local-only\`, um nur die lokale Anmeldung zu löschen.`,
    stoppedHint: (p) =>
      `Führen Sie \`${p.logout}\` erneut aus, um die Abmeldung abzuschließen (ein zweiter Widerruf schadet nicht), oder \`${p.logout} --local-only\`, um nur die lokale Anmeldung zu löschen.`,
  },
);

export const statusTexts = catalogue(
  'auth-status',
  {
    profile: (p: { profile: string; state: string }) => `Profile "${p.profile}": ${p.state}`,
    working: 'connected, working',
    notWorking: 'signed in, NOT working',
    notSignedIn: 'not signed in',
    authServer: 'Auth server',
    api: 'API',
    client: 'Client',
    tenant: 'Tenant',
    scopes: 'Scopes',
    propertyScope: 'Property scope',
    accessToken: 'Access token',
    expires: (p: { at: string }) => `expires ${p.at}`,
    lastRefresh: 'Last refresh',
    storedIn: 'Stored in',
    problem: 'Problem',
    noProfiles: 'status --all: no profile is signed in yet.',
    noProfilesHint: 'Sign in first: meterdata login (or meterdata login --profile <name> for each landlord connection).',
    staticToken: 'METERDATA_ACCESS_TOKEN (environment; never refreshed)',
  },
  {
    profile: (p) => `Profil „${p.profile}“: ${p.state}`,
    working: 'verbunden, funktioniert',
    notWorking: 'angemeldet, funktioniert NICHT',
    notSignedIn: 'nicht angemeldet',
    authServer: 'Anmeldeserver',
    api: 'API',
    client: 'Client',
    tenant: 'Eigentümer',
    scopes: 'Berechtigungen',
    propertyScope: 'Liegenschaften',
    accessToken: 'Zugriffstoken',
    expires: (p) => `läuft ab ${p.at}`,
    lastRefresh: 'Zuletzt erneuert',
    storedIn: 'Gespeichert in',
    problem: 'Problem',
    noProfiles: 'status --all: Es ist noch kein Profil angemeldet.',
    noProfilesHint: 'Melden Sie sich zuerst an: meterdata login (oder meterdata login --profile <name> für jede Verbindung zu einem Eigentümer).',
    staticToken: 'METERDATA_ACCESS_TOKEN (Umgebungsvariable; wird nie erneuert)',
  },
);

/** "  Label:   value" rows whose values line up, in the run's language. */
export function aligned(labels: readonly string[], minWidth = 0): { row: (label: string, value: string) => string; indent: string } {
  const width = Math.max(minWidth, ...labels.map((l) => l.length + 2));
  return { row: (label, value) => `  ${`${label}:`.padEnd(width)}${value}`, indent: ' '.repeat(width + 2) };
}
