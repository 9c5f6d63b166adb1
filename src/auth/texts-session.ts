// What the signed-in session and the connection say: not signed in, a refresh that could
// not be saved, the /whoami after a refresh, an ended connection. German per docs/glossary.md.
import { catalogue } from '../i18n/index.js';

export const ts = catalogue(
  'auth-session',
  {
    runLogin: (p: { login: string }) => `Run \`${p.login}\`.`,
    connectAgain: (p: { login: string }) => `Run \`${p.login}\` to connect again.`,
    notSignedIn: (p: { profile: string }) => `Profile "${p.profile}" is not signed in.`,
    lockLost: 'Another meterdata process took over the refresh of this sign-in twice while this one was stalled.',
    lockLostHint: 'Try again; if it repeats, check for a suspended or overloaded meterdata process.',
    keptRejecting: (p: { n: number; minutes: number }) =>
      `The API rejected ${p.n} access tokens within ${p.minutes} minutes, each right after a refresh; no further refresh is sent.`,
    keptRejectingHint: (p: { status: string }) => `Try again later; if it repeats, run \`${p.status}\` and check the computer's clock.`,
    refreshingTooOften: (p: { n: number; lifetime: string }) =>
      `This run has refreshed the sign-in ${p.n} times within a minute: the sign-in server's access tokens last only ${p.lifetime} s (the contract's last an hour). No further refresh is sent, since each one replaces the refresh token.`,
    profileRefreshedTooOften: (p: { n: number; lifetime: string }) =>
      `This sign-in has been refreshed ${p.n} times within a minute, by this and other meterdata runs: the sign-in server's access tokens last only ${p.lifetime} s (the contract's last an hour). No further refresh is sent, since each one replaces the refresh token.`,
    refreshingTooOftenHint: 'Try again later; if it repeats, tell the service provider how short-lived its access tokens are.',
    intentNotWritten: (p: { reason: string }) =>
      `The sign-in could not be refreshed: the credential store could not be written (${p.reason}); no refresh was sent.`,
    fixStore: 'Fix the credential store (free disk space, unlock the keychain), then run the command again.',
    tokensNotSaved: (p: { reason: string }) =>
      `The sign-in server issued new tokens, but they could not be saved (${p.reason}); they were not used. The server has replaced the stored refresh token, so this connection probably has to be signed in again.`,
    fixStoreThenStatus: (p: { status: string; login: string }) =>
      `Fix the credential store (free disk space, unlock the keychain), then run \`${p.status}\`; unless it says the connection is working, run \`${p.login}\`.`,
    connectionEnded: 'The API no longer accepts this connection (the landlord disconnected it or their API access ended).',
    otherTenant: (p: { now: string; before: string }) =>
      `After the token refresh the API names another tenant ("${p.now}", before "${p.before}"); the run stops so no other landlord's data is mixed into it.`,
    otherTenantHint: (p: { login: string }) => `Check which landlord this profile should read, then run \`${p.login}\`.`,
    loginIncomplete: (p: { profile: string }) =>
      `The sign-in of profile ${p.profile} was never completed: the landlord (tenant) it belongs to is not on record (the service did not answer when it was made, or config.json could not take it). Nothing is read with it, so no other landlord's data can go into this profile's files.`,
    loginIncompleteHint: (p: { login: string }) => `Run \`${p.login}\` again.`,
    otherTenantStored: (p: { now: string; before: string; profile: string }) =>
      `The API names another tenant ("${p.now}") than the one profile ${p.profile} was signed in to ("${p.before}"); nothing is read, so no other landlord's data goes into this profile's files.`,
    whoamiFailed: (p: { reason: string }) =>
      `Warning: the access token was refreshed, but checking the connection (/whoami) failed: ${p.reason} It is not kept for the next command, which refreshes and checks again. The tenant and property scope shown by \`meterdata status\` may be out of date.\n`,
    tokenUnchecked: (p: { reason: string }) =>
      `The access token was refreshed, but whether it belongs to this profile's landlord could not be checked (/whoami failed: ${p.reason}); it is not printed.`,
    tokenUncheckedHint: 'Run the same command again in a few minutes: it refreshes and checks again.',
    newTokenRefused:
      'The sign-in server issued a new access token, but the API refused it at once (HTTP 401 on /whoami); it is not kept, and nothing was read with it.',
    newTokenRefusedHint: (p: { login: string }) =>
      `Run the same command again: it refreshes and checks again. If the API refuses the new token again, run \`${p.login}\`.`,
    connectionNotNoted: (p: { reason: string }) =>
      `Warning: the sign-in was refreshed and the connection checked (/whoami), but its tenant and property scope could not be noted in config.json: ${p.reason} \`meterdata status\` may show them out of date; the next run notes them again.\n`,
    checkNotNoted: (p: { reason: string }) =>
      `Warning: the connection was checked (/whoami), but its tenant and property scope could not be noted in config.json: ${p.reason} \`meterdata status\` may show them out of date; the next run notes them again.\n`,
    refreshNotNoted: (p: { reason: string }) =>
      `Warning: the sign-in was refreshed and the new tokens are saved, but the time of the refresh could not be noted in config.json: ${p.reason} \`meterdata status\` may show an earlier refresh.\n`,
    scopeUnknown: 'unknown',
    scopeAll: 'all Properties (including future ones)',
    noBaseUrl: 'METERDATA_ACCESS_TOKEN is set but the API base URL is unknown.',
    noBaseUrlHint: (p: { profile: string }) => `Set METERDATA_BASE_URL (including /v1) or sign in the profile "${p.profile}" once.`,
    apiBaseUrl: 'The API base URL',
    setBaseUrl: 'Set METERDATA_BASE_URL to the https address of the service, including /v1.',
  },
  {
    runLogin: (p) => `Bitte \`${p.login}\` ausführen.`,
    connectAgain: (p) => `Bitte \`${p.login}\` ausführen, um die Verbindung neu herzustellen.`,
    notSignedIn: (p) => `Das Profil "${p.profile}" ist nicht angemeldet.`,
    lockLost: 'Ein anderer meterdata-Prozess hat die Erneuerung dieser Anmeldung zweimal übernommen, während dieser Prozess hing.',
    lockLostHint: 'Bitte erneut versuchen; wenn es wieder auftritt, nach einem angehaltenen oder überlasteten meterdata-Prozess suchen.',
    keptRejecting: (p) =>
      `Die Schnittstelle hat innerhalb von ${p.minutes} Minuten ${p.n} Zugriffstoken abgelehnt, jedes gleich nach einer Erneuerung; es wird keine weitere Erneuerung gesendet.`,
    keptRejectingHint: (p) => `Bitte später erneut versuchen; wenn es wieder auftritt, \`${p.status}\` ausführen und die Uhrzeit des Rechners prüfen.`,
    refreshingTooOften: (p) =>
      `Dieser Aufruf hat die Anmeldung innerhalb einer Minute schon ${p.n}-mal erneuert: Die Zugriffstoken des Anmeldeservers gelten nur ${p.lifetime} s (laut Schnittstellenvertrag eine Stunde). Es wird keine weitere Erneuerung gesendet, da jede das Refresh-Token ersetzt.`,
    profileRefreshedTooOften: (p) =>
      `Diese Anmeldung wurde innerhalb einer Minute schon ${p.n}-mal erneuert, von diesem und anderen meterdata-Aufrufen: Die Zugriffstoken des Anmeldeservers gelten nur ${p.lifetime} s (laut Schnittstellenvertrag eine Stunde). Es wird keine weitere Erneuerung gesendet, da jede das Refresh-Token ersetzt.`,
    refreshingTooOftenHint: 'Bitte später erneut versuchen; wenn es wieder auftritt, den Messdienst auf die kurze Gültigkeit seiner Zugriffstoken hinweisen.',
    intentNotWritten: (p) =>
      `Die Anmeldung konnte nicht erneuert werden: Der Anmeldespeicher ließ sich nicht schreiben (${p.reason}); es wurde keine Erneuerung gesendet.`,
    fixStore: 'Bitte den Anmeldespeicher in Ordnung bringen (Speicherplatz freigeben, Schlüsselbund entsperren) und den Befehl erneut ausführen.',
    tokensNotSaved: (p) =>
      `Der Anmeldeserver hat neue Tokens ausgestellt, sie konnten aber nicht gespeichert werden (${p.reason}); sie wurden nicht verwendet. Der Server hat das gespeicherte Refresh-Token ersetzt, die Verbindung muss daher vermutlich neu angemeldet werden.`,
    fixStoreThenStatus: (p) =>
      `Bitte den Anmeldespeicher in Ordnung bringen (Speicherplatz freigeben, Schlüsselbund entsperren) und dann \`${p.status}\` ausführen; meldet er die Verbindung nicht als funktionierend, \`${p.login}\` ausführen.`,
    connectionEnded: 'Die Schnittstelle nimmt diese Verbindung nicht mehr an (der Eigentümer hat sie getrennt oder sein API-Zugang ist beendet).',
    otherTenant: (p) =>
      `Nach der Erneuerung des Tokens nennt die Schnittstelle einen anderen Mandanten („${p.now}“, vorher „${p.before}“); der Lauf bricht ab, damit keine Daten eines anderen Eigentümers hineingeraten.`,
    otherTenantHint: (p) => `Bitte prüfen Sie, welchen Eigentümer dieses Profil lesen soll, und führen Sie dann \`${p.login}\` aus.`,
    loginIncomplete: (p) =>
      `Die Anmeldung des Profils ${p.profile} wurde nie abgeschlossen: Der Eigentümer (Mandant), zu dem sie gehört, ist nicht vermerkt (der Messdienst hat bei der Anmeldung nicht geantwortet, oder config.json konnte ihn nicht aufnehmen). Mit ihr wird nichts gelesen, damit keine Daten eines anderen Eigentümers in die Dateien dieses Profils gelangen.`,
    loginIncompleteHint: (p) => `Bitte \`${p.login}\` erneut ausführen.`,
    otherTenantStored: (p) =>
      `Die Schnittstelle nennt einen anderen Mandanten („${p.now}“) als den, bei dem das Profil ${p.profile} angemeldet wurde („${p.before}“); es wird nichts gelesen, damit keine Daten eines anderen Eigentümers in die Dateien dieses Profils gelangen.`,
    whoamiFailed: (p) =>
      `Warnung: Das Zugriffstoken wurde erneuert, die Prüfung der Verbindung (/whoami) ist aber fehlgeschlagen: ${p.reason} Für den nächsten Befehl wird es nicht aufbewahrt; er erneuert es und prüft erneut. Mandant und Liegenschaften, die \`meterdata status\` zeigt, sind womöglich nicht aktuell.\n`,
    tokenUnchecked: (p) =>
      `Das Zugriffstoken wurde erneuert, es konnte aber nicht geprüft werden, ob es zum Vermieter dieses Profils gehört (/whoami fehlgeschlagen: ${p.reason}); es wird nicht ausgegeben.`,
    tokenUncheckedHint: 'Führen Sie denselben Befehl in einigen Minuten erneut aus: Er erneuert das Token und prüft erneut.',
    newTokenRefused:
      'Der Anmeldeserver hat ein neues Zugriffstoken ausgestellt, die Schnittstelle hat es aber sofort abgelehnt (HTTP 401 bei /whoami); es wird nicht aufbewahrt, und es wurde nichts damit gelesen.',
    newTokenRefusedHint: (p) =>
      `Führen Sie denselben Befehl erneut aus: Er erneuert das Token und prüft erneut. Lehnt die Schnittstelle auch das neue Token ab, führen Sie \`${p.login}\` aus.`,
    connectionNotNoted: (p) =>
      `Warnung: Die Anmeldung wurde erneuert und die Verbindung geprüft (/whoami), Mandant und Liegenschaften ließen sich aber nicht in config.json vermerken: ${p.reason} \`meterdata status\` zeigt sie womöglich veraltet; der nächste Lauf vermerkt sie erneut.\n`,
    checkNotNoted: (p) =>
      `Warnung: Die Verbindung wurde geprüft (/whoami), Mandant und Liegenschaften ließen sich aber nicht in config.json vermerken: ${p.reason} \`meterdata status\` zeigt sie womöglich veraltet; der nächste Lauf vermerkt sie erneut.\n`,
    refreshNotNoted: (p) =>
      `Warnung: Die Anmeldung wurde erneuert und die neuen Tokens sind gespeichert, der Zeitpunkt der Erneuerung ließ sich aber nicht in config.json vermerken: ${p.reason} \`meterdata status\` zeigt womöglich eine frühere Erneuerung.\n`,
    scopeUnknown: 'unbekannt',
    scopeAll: 'alle Liegenschaften (auch künftige)',
    noBaseUrl: 'METERDATA_ACCESS_TOKEN ist gesetzt, die API-Adresse ist aber unbekannt.',
    noBaseUrlHint: (p) => `Bitte METERDATA_BASE_URL setzen (einschließlich /v1) oder das Profil "${p.profile}" einmal anmelden.`,
    apiBaseUrl: 'Die API-Adresse',
    setBaseUrl: 'Bitte METERDATA_BASE_URL auf die https-Adresse des Messdienstes setzen, einschließlich /v1.',
  },
);
