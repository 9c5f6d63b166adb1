// What the token calls say: redeeming the code, refreshing (and why a refresh token is not
// sent again), and the lock that serialises refreshes.
import { catalogue } from '../i18n/index.js';

export const tokenTexts = catalogue(
  'auth-tokens',
  {
    // `what` is one of these two, put into the sentences below.
    redeem: 'redeem the sign-in code',
    refresh: 'refresh the access token',
    connectAgain: (p: { login: string }) => `Run \`${p.login}\` to connect again.`,
    dpopRequired: (p: { reason: string }) => `The sign-in server requires DPoP-bound tokens for this client (${p.reason}).`,
    dpopRequiredHint: 'Run `meterdata login --dpop` (with the same other options).',
    connectionEnded: 'The connection was revoked or expired (the landlord disconnected it, its access ended, or it was unused for 90 days).',
    codeRefused: (p: { reason: string }) => `The sign-in code was refused (${p.reason}).`,
    addDpop: (p: { relogin: string }) => `${p.relogin} If the client is registered as DPoP-bound, add --dpop.`,
    clientRefused: (p: { what: string }) => `The server refused the client's authentication while trying to ${p.what} (invalid_client).`,
    clientRefusedHint: 'Check the client id, secret or private key (and --kid/--alg) registered for this client, then run `meterdata login` again.',
    serverUnavailable: (p: { what: string; reason: string }) => `The sign-in server could not ${p.what} right now (${p.reason}).`,
    refused: (p: { what: string; reason: string }) => `The sign-in server refused to ${p.what}: ${p.reason}.`,
    rateLimited: (p: { what: string }) => `The sign-in server is rate-limiting requests (HTTP 429) and could not ${p.what}.`,
    rateLimitedHint: 'Wait a minute and try again; the stored sign-in was not changed.',
    waitTooLong: (p: { wait: string; max: number }) =>
      `The sign-in server asked to wait ${p.wait} before the next token request (HTTP 429, Retry-After), longer than the ${p.max} seconds meterdata waits; the stored sign-in was not changed.`,
    unreachable: (p: { what: string; reason: string }) => `Cannot reach the sign-in server to ${p.what} (${p.reason}).`,
    badAnswer: (p: { what: string; reason: string }) => `The sign-in server's answer could not be used while trying to ${p.what} (${p.reason}).`,
    badAnswerHint: 'Try again later; if it persists, report it with `meterdata status --json`.',
    answerLost: (p: { what: string; reason: string }) => `The answer of the sign-in server was lost while trying to ${p.what} (${p.reason}).`,
    answerLostHint: (p: { login: string }) =>
      `The server may already have replaced the stored refresh token, and sending the old one again would end the connection, so meterdata will not send it again. Run \`${p.login}\` to sign in again.`,
    loginAgain: 'Run `meterdata login` again.',
    noAnswerInTime: 'no answer in time',
    cutOff: (p: { status: number; reason: string }) => `the answer (HTTP ${p.status}) arrived cut off or unreadable: ${p.reason}`,
    answerTooLarge: (p: { status: number; size: string }) =>
      `the answer (HTTP ${p.status}) is larger than ${p.size}, far more than any answer of a sign-in server, so meterdata stopped reading it`,
    noNewRefreshToken: (p: { status: number }) => `the answer (HTTP ${p.status}) carried no new refresh token`,
    spentGivenBack: (p: { at: string }) =>
      `it gave back as the new refresh token one that was already sent for a refresh (at ${p.at}), though every refresh issues a new one, and sending a spent token again ends the connection`,
    heldByOther: (p: { profile: string }) =>
      `it gave as the new refresh token the one the profile "${p.profile}" holds now, another connection's: sending it would end that profile's sign-in`,
    notRotated:
      'it gave back the refresh token it had just been sent instead of a new one, though by the contract every refresh retires the token sent, and sending a retired token again ends the connection',
    failedAfterSending: (p: { status: number }) =>
      `the server failed with HTTP ${p.status} after the request reached it, possibly after it had already replaced the refresh token`,
    noTokenAnswer: (p: { status: number }) =>
      `the answer was HTTP ${p.status}, not a token answer (meterdata follows no redirect of a token request), and the server may already have replaced the refresh token`,
    answerUnusable: (p: { status: number; reason: string }) =>
      `The sign-in server answered the refresh of the access token (HTTP ${p.status}), but its answer cannot be used: ${p.reason}.`,
    unsupportedTokenType: (p: { type: string }) => `it issued a token of type ${p.type}, which meterdata does not support: only Bearer and DPoP`,
    badLifetime: (p: { value: string }) => `the token's lifetime (expires_in) is ${p.value}, not a positive number of seconds`,
    tooLong: (p: { what: string; kib: number; max: number }) => `its ${p.what} is ${p.kib} KiB long, more than the ${p.max} KiB meterdata keeps`,
    accessToken: 'access token',
    notSendable: 'its access token contains a space, a control character or a character outside ASCII, which an Authorization header cannot carry',
    refreshToken: 'refresh token',
    scope: 'scope',
    tokenType: 'token type',
    field: (p: { name: string }) => `field "${p.name}"`,
    fieldEmpty: (p: { what: string }) => `its ${p.what} is empty`,
    fieldNotText: (p: { what: string }) => `its ${p.what} is missing or not text`,
    invalidAnswer: (p: { reason: string }) => `it is not a valid token answer (${p.reason})`,
    notKept: (p: { reason: string }) => `the new tokens could not be kept (${p.reason})`,
    noRefreshToken: 'The sign-in server issued no refresh token.',
    noRefreshTokenHint: 'meterdata needs a refresh token to keep the connection; check the client registration.',
    inFlight: (p: { pid: number; at: string; elsewhere: boolean }) =>
      `Another meterdata process (${p.elsewhere ? `pid ${p.pid}, perhaps in another container on this host or from before its last restart` : `pid ${p.pid}`}) started a refresh of this sign-in at ${p.at} and has not saved its answer; sending the same refresh token again would end the connection, so this run does not.`,
    inFlightHint: (p: { relogin: string }) =>
      `Run the command again once that process has finished (it may be suspended or stopped). If it was killed, the next run says whether you must sign in again: ${p.relogin}`,
    uncertainLost: (p: { since: string }) =>
      `The answer to an earlier refresh of this connection (${p.since}) was lost or could not be used; the server may have replaced the refresh token, and sending the old one again would end the connection.`,
    uncertainAbandoned: (p: { since: string }) =>
      `An earlier refresh of this connection (${p.since}) was sent by a process that ended before saving its answer; the server may have replaced the refresh token, and sending the old one again would end the connection.`,
    uncertainTakenOver: (p: { since: string }) =>
      `This process stalled while starting a refresh (${p.since}), and another meterdata process took over meanwhile; what that process saved in the meantime (a new sign-in) may have been written over and cannot be told from nothing, so this sign-in is no longer used. No refresh was sent.`,
    spentByOther: (p: { at: string; by: string }) =>
      `The refresh token stored for this profile was already sent at ${p.at} by the profile "${p.by}": this sign-in is a copy of that profile's (or restored from a backup), and sending the token again would end the landlord's connection, so this run does not.`,
    spentBySelf: (p: { at: string }) =>
      `The refresh token stored for this profile was already taken for a refresh at ${p.at} by this profile itself: an earlier run of this profile sent it and its answer was lost (or the run could not record that its request never left), or this sign-in is an older copy of itself, put back from a backup or an earlier copy. Whether the server has replaced the token cannot be told, and sending a replaced one would end the landlord's connection, so this run does not send it; sign in again for a new one.`,
    spentListDamaged: (p: { file: string; problem: string }) =>
      `The list of refresh tokens already sent, ${p.file}, is damaged: ${p.problem}. No refresh is sent while it cannot be read.`,
    spentListUnreadable: (p: { file: string; problem: string }) =>
      `The list of refresh tokens already sent, ${p.file}, cannot be used: ${p.problem}. No refresh is sent while it cannot be read.`,
    spentListDamagedHint:
      'Correct the file, or move it away and run the command again: the sign-ins stay valid, but copies of a sign-in made earlier are then no longer recognised.',
    spentListNotWritten: (p: { file: string; reason: string }) =>
      `The sign-in could not be refreshed: the list of refresh tokens already sent, ${p.file}, could not be written (${p.reason}); no refresh was sent.`,
    gateDamaged: (p: { file: string; problem: string }) =>
      `The note of a claimed refresh token, ${p.file}, is damaged: ${p.problem}. No refresh is sent while it cannot be read.`,
    gateUnreadable: (p: { file: string; problem: string }) =>
      `The note of a claimed refresh token, ${p.file}, cannot be used: ${p.problem}. No refresh is sent while it cannot be read.`,
    changeUnderWay: (p: { file: string; pid?: string }) =>
      `${p.pid === undefined ? 'A takeover or give-back of this profile’s unused claim of its refresh token is under way, or was stopped half-way' : `Another meterdata process (pid ${p.pid}) is taking over or giving back this profile’s unused claim of its refresh token`} (${p.file}); nothing was sent.`,
    pidElsewhere: (p: { pid: number }) => `${p.pid}, perhaps in another container on this host or from before its last restart`,
    changeUnderWayHint: (p: { file: string }) =>
      `Run the command again in a minute. If no meterdata process is running and this stays for more than two hours, remove ${p.file} and run the command again.`,
    readOnlyHint:
      'The file system there is read-only: make it writable again, or set METERDATA_HOME to a folder on a writable disk, then run the command again.',
    spentClaimNotWritten: (p: { folder: string; reason: string }) =>
      `The sign-in could not be refreshed: the note that this run is sending its refresh token could not be made in ${p.folder} (${p.reason}); no refresh was sent.`,
    spentListBusy:
      'While this process noted the refresh token it was about to send, the list’s lock was taken over or removed (a stall, or a clean-up); nothing was sent.',
    spentGateDamagedHint: (p: { file: string }) =>
      `If no meterdata process is running, look at ${p.file}: a claim of a refresh token that a process killed at that moment left unfinished. Remove it only if you then sign in again, as the token may have been sent.`,
    spentListBusyHint:
      'Run the command again. If it then says the refresh token was already taken, sign in again: whether another run sent it meanwhile cannot be told.',
    revocationNotAwaited: 'its answer was not awaited after the command was interrupted',
    revocationNotSent:
      'the command was interrupted before the revocation was sent; unless another profile uses this connection, the landlord can disconnect it in the portal, or it expires after 90 days unused',
    sharedConnection: (p: { profile: string }) =>
      p.profile === '?'
        ? 'the list of refresh tokens already sent cannot be read, so it cannot be told whether another profile uses this connection'
        : `it is the connection of the profile "${p.profile}" too (a copied sign-in), and revoking it would end that profile's`,
    lockNotFolder: (p: { file: string }) => `${p.file} is a file or a link, where meterdata keeps a lock folder: no meterdata process holds it.`,
    lockNotFolderHint: (p: { file: string }) => `Remove ${p.file}, then run the command again.`,
    lockNotEmpty: (p: { file: string }) => `${p.file} holds files, where meterdata keeps an empty lock folder: no meterdata process holds it.`,
    lockNotEmptyHint: (p: { file: string }) => `Look at what ${p.file} holds, remove the folder, then run the command again.`,
    lockUnusable: (p: { file: string; reason: string }) => `The lock ${p.file} cannot be taken (${p.reason}).`,
    lockFolderGone: (p: { folder: string }) => `The folder ${p.folder} was removed while meterdata was using it, by hand or by a clean-up.`,
    lockFolderGoneHint: 'Nothing was sent to the sign-in server. Run the command again; do not remove meterdata’s state folder while meterdata runs.',
    lockTimeout: 'Another meterdata process has been refreshing this sign-in for too long.',
    lockTimeoutHint: (p: { file: string }) =>
      `Try again in a minute; if it persists and no other meterdata process is running (one may be waiting out the sign-in server's 429s), remove ${p.file}.`,
  },
  {
    redeem: 'Einlösen des Anmeldecodes',
    refresh: 'Erneuern des Zugriffstokens',
    connectAgain: (p) => `Führen Sie \`${p.login}\` aus, um die Verbindung neu herzustellen.`,
    dpopRequired: (p) => `Der Anmeldeserver verlangt für diesen Client DPoP-gebundene Tokens (${p.reason}).`,
    dpopRequiredHint: 'Führen Sie `meterdata login --dpop` aus (mit denselben übrigen Optionen).',
    connectionEnded:
      'Die Verbindung wurde widerrufen oder ist abgelaufen (der Eigentümer hat sie getrennt, die Freigabe ist beendet, oder sie wurde 90 Tage nicht genutzt).',
    codeRefused: (p) => `Der Anmeldecode wurde abgelehnt (${p.reason}).`,
    addDpop: (p) => `${p.relogin} Wenn der Client als DPoP-gebunden registriert ist, ergänzen Sie --dpop.`,
    clientRefused: (p) => `Der Server hat die Authentifizierung des Clients beim ${p.what} abgelehnt (invalid_client).`,
    clientRefusedHint:
      'Prüfen Sie Client-ID, Secret oder privaten Schlüssel (und --kid/--alg) dieses Clients und führen Sie dann `meterdata login` erneut aus.',
    serverUnavailable: (p) => `Das ${p.what} ist beim Anmeldeserver gerade nicht möglich (${p.reason}).`,
    refused: (p) => `Der Anmeldeserver hat das ${p.what} abgelehnt: ${p.reason}.`,
    rateLimited: (p) => `Der Anmeldeserver begrenzt die Anfragen (HTTP 429); das ${p.what} war nicht möglich.`,
    rateLimitedHint: 'Bitte eine Minute warten und erneut versuchen; die gespeicherte Anmeldung wurde nicht geändert.',
    waitTooLong: (p) =>
      `Der Anmeldeserver verlangt ${p.wait} Wartezeit bis zur nächsten Token-Anfrage (HTTP 429, Retry-After), länger als die ${p.max} Sekunden, die meterdata wartet; die gespeicherte Anmeldung wurde nicht geändert.`,
    unreachable: (p) => `Der Anmeldeserver ist für das ${p.what} nicht erreichbar (${p.reason}).`,
    badAnswer: (p) => `Die Antwort des Anmeldeservers beim ${p.what} war nicht verwendbar (${p.reason}).`,
    badAnswerHint: 'Bitte später erneut versuchen; wenn der Fehler bleibt, melden Sie ihn mit der Ausgabe von `meterdata status --json`.',
    answerLost: (p) => `Die Antwort des Anmeldeservers beim ${p.what} ist verloren gegangen (${p.reason}).`,
    answerLostHint: (p) =>
      `Der Server hat das gespeicherte Refresh-Token möglicherweise schon ersetzt, und das alte erneut zu senden würde die Verbindung beenden; daher sendet meterdata es nicht noch einmal. Führen Sie \`${p.login}\` aus, um sich neu anzumelden.`,
    loginAgain: 'Führen Sie `meterdata login` erneut aus.',
    noAnswerInTime: 'keine Antwort in der vorgesehenen Zeit',
    cutOff: (p) => `die Antwort (HTTP ${p.status}) kam abgeschnitten oder unlesbar an: ${p.reason}`,
    answerTooLarge: (p) =>
      `die Antwort (HTTP ${p.status}) ist größer als ${p.size}, weit mehr als jede Antwort eines Anmeldeservers; meterdata hat sie nicht weiter gelesen`,
    noNewRefreshToken: (p) => `die Antwort (HTTP ${p.status}) enthielt kein neues Refresh-Token`,
    spentGivenBack: (p) =>
      `er hat als neues Refresh-Token eines zurückgegeben, das bereits für eine Erneuerung gesendet wurde (am ${p.at}), obwohl jede Erneuerung ein neues ausgibt und ein verbrauchtes Token erneut zu senden die Verbindung beendet`,
    heldByOther: (p) =>
      `er hat als neues Refresh-Token das des Profils „${p.profile}“ ausgegeben, das zu einer anderen Verbindung gehört: es zu senden würde die Anmeldung dieses Profils beenden`,
    notRotated:
      'er hat das eben gesendete Refresh-Token zurückgegeben statt eines neuen, obwohl laut Schnittstellenvertrag jede Erneuerung das gesendete Token entwertet und ein entwertetes Token erneut zu senden die Verbindung beendet',
    failedAfterSending: (p) =>
      `der Server ist mit HTTP ${p.status} gescheitert, nachdem die Anfrage ihn erreicht hatte, womöglich erst nach dem Ersetzen des Refresh-Tokens`,
    noTokenAnswer: (p) =>
      `statt einer Token-Antwort kam HTTP ${p.status} (einer Weiterleitung bei der Token-Anfrage folgt meterdata nicht), und der Server hat das Refresh-Token womöglich schon ersetzt`,
    answerUnusable: (p) =>
      `Der Anmeldeserver hat die Erneuerung des Zugriffstokens beantwortet (HTTP ${p.status}), die Antwort ist aber nicht verwendbar: ${p.reason}.`,
    unsupportedTokenType: (p) => `es wurde ein Token vom Typ ${p.type} ausgestellt, den meterdata nicht unterstützt (nur Bearer und DPoP)`,
    badLifetime: (p) => `die Gültigkeitsdauer des Tokens ist ${p.value} statt einer positiven Zahl von Sekunden`,
    tooLong: (p) => `${p.what} ist ${p.kib} KiB lang, mehr als die ${p.max} KiB, die meterdata speichert`,
    accessToken: 'das Zugriffstoken',
    notSendable:
      'das Zugriffstoken enthält ein Leerzeichen, ein Steuerzeichen oder ein Zeichen außerhalb von ASCII und lässt sich daher nicht im Authorization-Header senden',
    refreshToken: 'das Refresh-Token',
    scope: 'die Angabe der Berechtigungen',
    tokenType: 'der Tokentyp',
    field: (p) => `das Feld „${p.name}“`,
    fieldEmpty: (p) => `${p.what} ist leer`,
    fieldNotText: (p) => `${p.what} fehlt oder ist kein Text`,
    invalidAnswer: (p) => `sie ist keine gültige Token-Antwort (${p.reason})`,
    notKept: (p) => `die neuen Tokens ließen sich nicht übernehmen (${p.reason})`,
    noRefreshToken: 'Der Anmeldeserver hat kein Refresh-Token ausgestellt.',
    noRefreshTokenHint: 'meterdata braucht ein Refresh-Token, um die Verbindung zu halten; prüfen Sie die Registrierung des Clients.',
    inFlight: (p) =>
      `Ein anderer meterdata-Prozess (${p.elsewhere ? `PID ${p.pid}, vielleicht in einem anderen Container dieses Rechners oder aus der Zeit vor seinem letzten Neustart` : `PID ${p.pid}`}) hat um ${p.at} eine Erneuerung dieser Anmeldung begonnen und seine Antwort nicht gespeichert; dasselbe Refresh-Token erneut zu senden würde die Verbindung beenden, daher tut dieser Aufruf es nicht.`,
    inFlightHint: (p) =>
      `Führen Sie den Befehl erneut aus, sobald dieser Prozess beendet ist (er kann angehalten oder gestoppt sein). Wurde er abgebrochen, sagt der nächste Aufruf, ob Sie sich neu anmelden müssen: ${p.relogin}`,
    uncertainLost: (p) =>
      `Die Antwort auf eine frühere Erneuerung dieser Verbindung (${p.since}) ging verloren oder war nicht verwendbar; der Server hat das Refresh-Token möglicherweise ersetzt, und das alte erneut zu senden würde die Verbindung beenden.`,
    uncertainAbandoned: (p) =>
      `Eine frühere Erneuerung dieser Verbindung (${p.since}) kam von einem Prozess, der vor dem Speichern der Antwort beendet wurde; der Server hat das Refresh-Token möglicherweise ersetzt, und das alte erneut zu senden würde die Verbindung beenden.`,
    uncertainTakenOver: (p) =>
      `Dieser Prozess stockte beim Start einer Erneuerung (${p.since}), und ein anderer meterdata-Prozess hat inzwischen übernommen; was jener Prozess in der Zwischenzeit gespeichert hat (eine neue Anmeldung), wurde möglicherweise überschrieben und lässt sich nicht von nichts unterscheiden, daher wird diese Anmeldung nicht mehr verwendet. Es wurde keine Erneuerung gesendet.`,
    spentByOther: (p) =>
      `Das für dieses Profil gespeicherte Refresh-Token wurde bereits am ${p.at} vom Profil „${p.by}“ gesendet: Diese Anmeldung ist eine Kopie der Anmeldung jenes Profils (oder aus einer Sicherung zurückgespielt). Das Token erneut zu senden würde die Verbindung zum Eigentümer beenden, daher tut dieser Aufruf es nicht.`,
    spentBySelf: (p) =>
      `Das für dieses Profil gespeicherte Refresh-Token wurde bereits am ${p.at} von diesem Profil selbst für eine Erneuerung verwendet: Ein früherer Lauf dieses Profils hat es gesendet, und die Antwort ging verloren (oder der Lauf konnte nicht festhalten, dass seine Anfrage nie abging), oder diese Anmeldung ist ein älterer Stand ihrer selbst, aus einer Sicherung oder einer früheren Kopie zurückgespielt. Ob der Server das Token bereits ersetzt hat, lässt sich nicht feststellen; ein ersetztes Token erneut zu senden würde die Verbindung zum Eigentümer beenden, daher sendet dieser Aufruf es nicht. Bitte melden Sie sich neu an, um ein neues Token zu erhalten.`,
    spentListDamaged: (p) =>
      `Die Liste der bereits gesendeten Refresh-Tokens, ${p.file}, ist beschädigt: ${p.problem}. Solange sie nicht lesbar ist, wird keine Anmeldung erneuert.`,
    spentListUnreadable: (p) =>
      `Die Liste der bereits gesendeten Refresh-Tokens, ${p.file}, ist nicht verwendbar: ${p.problem}. Solange sie nicht lesbar ist, wird keine Anmeldung erneuert.`,
    spentListDamagedHint:
      'Berichtigen Sie die Datei oder verschieben Sie sie und führen Sie den Befehl erneut aus: Die Anmeldungen bleiben gültig, früher angelegte Kopien einer Anmeldung werden dann aber nicht mehr erkannt.',
    spentListNotWritten: (p) =>
      `Die Anmeldung konnte nicht erneuert werden: Die Liste der bereits gesendeten Refresh-Tokens, ${p.file}, ließ sich nicht schreiben (${p.reason}); es wurde keine Erneuerung gesendet.`,
    gateDamaged: (p) =>
      `Der Vermerk eines beanspruchten Refresh-Tokens, ${p.file}, ist beschädigt: ${p.problem}. Solange er nicht lesbar ist, wird keine Anmeldung erneuert.`,
    gateUnreadable: (p) =>
      `Der Vermerk eines beanspruchten Refresh-Tokens, ${p.file}, ist nicht verwendbar: ${p.problem}. Solange er nicht lesbar ist, wird keine Anmeldung erneuert.`,
    changeUnderWay: (p) =>
      `${p.pid === undefined ? 'Der nicht verwendete Anspruch dieses Profils auf sein Refresh-Token wird gerade übernommen oder zurückgegeben, oder das wurde mittendrin abgebrochen' : `Ein anderer meterdata-Prozess (PID ${p.pid}) übernimmt den nicht verwendeten Anspruch dieses Profils auf sein Refresh-Token oder gibt ihn zurück`} (${p.file}); es wurde nichts gesendet.`,
    pidElsewhere: (p) => `${p.pid}, vielleicht in einem anderen Container dieses Rechners oder aus der Zeit vor seinem letzten Neustart`,
    changeUnderWayHint: (p) =>
      `Führen Sie den Befehl in einer Minute erneut aus. Läuft kein meterdata-Prozess und bleibt dies länger als zwei Stunden so, entfernen Sie ${p.file} und führen Sie den Befehl erneut aus.`,
    readOnlyHint:
      'Das Dateisystem dort ist schreibgeschützt: Bitte machen Sie es wieder beschreibbar oder setzen Sie METERDATA_HOME auf einen Ordner auf einem beschreibbaren Datenträger und führen Sie den Befehl erneut aus.',
    spentClaimNotWritten: (p) =>
      `Die Anmeldung konnte nicht erneuert werden: Der Vermerk, dass dieser Aufruf sein Refresh-Token sendet, ließ sich in ${p.folder} nicht anlegen (${p.reason}); es wurde keine Erneuerung gesendet.`,
    spentListBusy:
      'Während dieser Prozess das zu sendende Refresh-Token vermerkte, wurde die Sperre der Liste übernommen oder entfernt (ein Stocken oder ein Aufräumprogramm); es wurde nichts gesendet.',
    spentGateDamagedHint: (p) =>
      `Läuft kein meterdata-Prozess, sehen Sie sich ${p.file} an: den unvollendeten Vermerk eines Refresh-Tokens von einem Prozess, der in diesem Moment abgebrochen wurde. Entfernen Sie ihn nur, wenn Sie sich danach neu anmelden, denn das Token kann gesendet worden sein.`,
    spentListBusyHint:
      'Führen Sie den Befehl erneut aus. Meldet er dann, das Refresh-Token sei bereits verwendet worden, melden Sie sich neu an: ob ein anderer Aufruf es inzwischen gesendet hat, lässt sich nicht feststellen.',
    revocationNotAwaited: 'die Antwort wurde nach dem Abbruch des Befehls nicht mehr abgewartet',
    revocationNotSent:
      'der Befehl wurde abgebrochen, bevor der Widerruf gesendet wurde; nutzt kein anderes Profil diese Verbindung, kann der Eigentümer sie im Portal trennen, sonst läuft sie nach 90 Tagen ohne Nutzung ab',
    sharedConnection: (p) =>
      p.profile === '?'
        ? 'die Liste der bereits gesendeten Refresh-Tokens ist nicht lesbar, daher lässt sich nicht feststellen, ob ein anderes Profil diese Verbindung nutzt'
        : `sie ist auch die Verbindung des Profils „${p.profile}“ (eine kopierte Anmeldung), und ein Widerruf würde die Verbindung jenes Profils beenden`,
    lockNotFolder: (p) =>
      `${p.file} ist eine Datei oder Verknüpfung an der Stelle, an der meterdata einen Sperrordner anlegt: Kein meterdata-Prozess hält sie.`,
    lockNotFolderHint: (p) => `Bitte ${p.file} entfernen und den Befehl dann erneut ausführen.`,
    lockNotEmpty: (p) => `${p.file} enthält Dateien, an der Stelle, an der meterdata einen leeren Sperrordner anlegt: Kein meterdata-Prozess hält ihn.`,
    lockNotEmptyHint: (p) => `Bitte prüfen, was ${p.file} enthält, den Ordner entfernen und den Befehl dann erneut ausführen.`,
    lockUnusable: (p) => `Die Sperre ${p.file} lässt sich nicht setzen (${p.reason}).`,
    lockFolderGone: (p) => `Der Ordner ${p.folder} wurde entfernt, während meterdata ihn verwendete, von Hand oder durch ein Aufräumprogramm.`,
    lockFolderGoneHint:
      'An den Anmeldeserver wurde nichts gesendet. Bitte führen Sie den Befehl erneut aus und entfernen Sie den Zustandsordner von meterdata nicht, während meterdata läuft.',
    lockTimeout: 'Ein anderer meterdata-Prozess erneuert diese Anmeldung schon zu lange.',
    lockTimeoutHint: (p) =>
      `Bitte in einer Minute erneut versuchen; wenn es anhält und kein anderer meterdata-Prozess läuft (einer wartet womöglich die 429-Antworten des Anmeldeservers ab), entfernen Sie ${p.file}.`,
  },
);
