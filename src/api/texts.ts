// What the API helper says to a person: its errors, hints and the reasons of retries, in
// English and German (docs/glossary.md). Codes, endpoints, ids and command lines stay as
// they are; a kind of object is named by its key in `kinds`, never by an English word.
import { catalogue, count, day, num } from '../i18n/index.js';

/** The objects messages name. `Property` keeps the capital the ownership check has always written. */
export const kinds = catalogue(
  'api-kinds',
  { property: 'property', Property: 'Property', unit: 'unit', usageUnit: 'usage unit', point: 'measuring point', resource: 'resource' },
  { property: 'Liegenschaft', Property: 'Liegenschaft', unit: 'Nutzeinheit', usageUnit: 'Nutzeinheit', point: 'Messstelle', resource: 'Ressource' },
);
export type KindWord = keyof typeof kinds;

const LATER = 'Try again later; if it persists, report it to the service';
const SPÄTER = 'Bitte später erneut versuchen; wenn es bestehen bleibt, dem Messdienst melden';
const NOT_BILLED =
  'Nothing was billed from this answer and no files were committed. Try again later; if it persists, report it to the metering service (its answer does not match the request).';
const NICHT_ABGERECHNET =
  'Aus dieser Antwort wurde nichts abgerechnet und keine Datei geschrieben. Bitte später erneut versuchen; wenn es bestehen bleibt, dem Messdienst melden (seine Antwort passt nicht zur Abfrage).';

export const t = catalogue(
  'api',
  {
    // transport and classify: why an attempt is tried again, and when it is given up
    noAnswerWithin: (p: { time: string }) => `no answer within ${p.time}`,
    connectionFailed: (p: { code: string }) => `connection failed (${p.code})`,
    notHttp: 'an answer that does not follow HTTP (perhaps a proxy in between)',
    badJson: 'truncated or invalid JSON body',
    traceId: (p: { id: string }) => ` (trace id ${p.id})`,
    traceIdAfter: (p: { id: string }) => `, trace id ${p.id}`,
    rateLimited: (p: { endpoint: string; attempts: number }) =>
      `The metering service kept rate-limiting ${p.endpoint} (HTTP 429) after ${p.attempts} attempts.`,
    rateLimitedHint: 'Another program may be using the same connection; wait a few minutes and run the command again.',
    noAnswer: (p: { endpoint: string; attempts: number; last: string; trace: string }) =>
      `The metering service did not answer ${p.endpoint} after ${p.attempts} attempts (last: ${p.last}${p.trace}).`,
    unavailableHint: 'Try again later; if it persists, check the service status.',
    retryBudgetSpent: (p: { spent: string; endpoint: string; last: string; max: string }) =>
      `The metering service has had this run wait ${p.spent} within the last hour (pauses it asked for, failed attempts and the waits before retrying them); ${p.endpoint} failed again (${p.last}), and another retry would pass the ${p.max} meterdata waits in any hour; stopped instead of waiting.`,
    // problems.ts: error answers
    permission: (p: { scope: string }) => `the permission "${p.scope}"`,
    somePermission: 'a permission',
    insufficientScope: (p: { needed: string; endpoint: string; trace: string }) =>
      `The sign-in does not include ${p.needed}, which ${p.endpoint} needs${p.trace}.`,
    insufficientScopeHint: (p: { scopes: string }) => `Sign in again with it: meterdata login --scope '${p.scopes}'`,
    invalidRange: (p: { detail: string; trace: string }) => `The service refused the requested range or metric${p.detail}${p.trace}.`,
    invalidRangeHint: 'Check --year/--from/--to (yyyy-MM-dd, a range that ends at or before the last completed month) and --metric.',
    invalidRequest: (p: { endpoint: string; detail: string; trace: string }) => `The service refused the tool's request ${p.endpoint}${p.detail}${p.trace}.`,
    bugHint: 'This is a bug in meterdata; please report it with the trace id.',
    cursorRefused: (p: { endpoint: string; detail: string; trace: string }) =>
      `The service refused the next page of ${p.endpoint} by the page cursor it had given itself${p.detail}${p.trace}; the cursor may have expired or the list changed meanwhile.`,
    cursorRefusedHint: 'Run the same command again: it asks for the list from its first page. If this persists, report it with the trace id.',
    noProblemDetails: 'no problem details',
    unexpectedStatus: (p: { endpoint: string; status: number; what: string; trace: string }) =>
      `The service answered ${p.endpoint} with HTTP ${p.status} (${p.what})${p.trace}.`,
    reportHint: 'If this persists, report it with the trace id.',
    notFound: (p: { kind: string; id: string; trace: string }) => `No such ${p.kind} ${p.id} in the landlord's selection${p.trace}.`,
    notFoundHint: 'Check the id; `meterdata browse` shows what this connection can see.',
    otherProblemType: (p: { code: string }) => `with the problem type "${p.code}" instead of resource-not-found`,
    noProblemBody: 'without the problem details the service sends (perhaps a proxy answered)',
    unexpectedNotFound: (p: { endpoint: string; what: string; trace: string }) =>
      `The service answered ${p.endpoint} with HTTP 404 ${p.what}${p.trace}; this is not read as withdrawn access.`,
    noEndpoint: (p: { endpoint: string; trace: string }) =>
      `The service answered ${p.endpoint} with HTTP 404${p.trace}: the API base URL does not lead to the metering service's API, or a proxy in between does not pass it on.`,
    redirected: (p: { endpoint: string; status: number; to: string; trace: string }) =>
      `The service answered ${p.endpoint} with HTTP ${p.status}, a redirect${p.to ? ` to ${p.to}` : ''}${p.trace}: meterdata follows no redirect of an API request (the sign-in would go along), so the API base URL is probably not the one the metering service uses now.`,
    noEndpointHint:
      'Check the API base URL (`meterdata status` shows it; `meterdata login --base-url …` sets it); if it is right, check the network path (proxy, firewall).',
    networkHint: 'Try again later; if it persists, check the network path to the metering service (proxy, firewall).',
    dpopRejected: (p: { endpoint: string; trace: string }) => `The service rejected the DPoP proof for ${p.endpoint} twice${p.trace}.`,
    signInRejected: (p: { trace: string }) => `The service no longer accepts this sign-in, even after a token refresh${p.trace}.`,
    signInRejectedHint: 'The connection was revoked or has ended: run `meterdata login` to connect again.',
    // limits.ts: the bounds of a wait and of an answer
    seconds: (p: { n: number }) => (p.n === 1 ? '1 second' : `${p.n} seconds`),
    minutes: (p: { n: number }) => (p.n === 1 ? '1 minute' : `${p.n} minutes`),
    hours: (p: { n: number }) => (p.n === 1 ? '1 hour' : `${p.n} hours`),
    days: (p: { n: number }) => (p.n === 1 ? '1 day' : `${p.n} days`),
    bytes: (p: { n: number }) => `${p.n} bytes`,
    retryAfter: (p: { at: string }) => `Run the command again after ${p.at} (UTC).`,
    noUsableTime: 'The service gave no usable time; try again later.',
    waitTooLong: (p: { wait: string; endpoint: string; max: number }) =>
      `The metering service asked to wait ${p.wait} before the next request to ${p.endpoint} (HTTP 429, Retry-After), longer than the ${p.max} minutes meterdata waits; stopped instead of waiting.`,
    waitBudgetSpent: (p: { spent: string; wait: string; endpoint: string; max: string }) =>
      `The metering service has had this run wait ${p.spent} within the last hour (HTTP 429, Retry-After) and now asks for ${p.wait} more before the next request to ${p.endpoint}: more than the ${p.max} meterdata waits in any hour; stopped instead of waiting.`,
    tooLarge: (p: { endpoint: string; size: string }) =>
      `The metering service's answer to ${p.endpoint} is larger than ${p.size}, meterdata's limit for one answer (a full page of 200 items is far smaller); stopped reading it.`,
    tooLargeHint: `${LATER} (no answer of contract 1.0.0-rc.3 is this large).`,
    // paginate.ts: a list that does not end
    endless: (p: { endpoint: string; what: string; pages: number }) =>
      `The metering service's list ${p.endpoint} does not end: it ${p.what}; stopped after ${p.pages} ${p.pages === 1 ? 'page' : 'pages'} instead of looping forever.`,
    listedAgain: (p: { id: string; page: number }) => `listed ${p.id} again on page ${p.page}`,
    listedTwice: (p: { endpoint: string; id: string }) =>
      `The metering service's list ${p.endpoint} names ${p.id} twice; an entry listed twice would be billed twice, so the list was not used.`,
    emptyPage: (p: { page: number }) => `sent page ${p.page} without items but with a cursor to another page`,
    cursorTwice: 'returned the same page cursor twice',
    tooManyPages: (p: { max: number; items: number }) => `still named a next page after ${p.max} pages (${p.items} items, far more than any landlord's data)`,
    paginationHint: `${LATER} (its pagination breaks contract 1.0.0-rc.3).`,
    // not-found.ts: withdrawn access
    withdrawnHint:
      'The landlord changed which properties this connection may read. Ask them to include it again (they reconnect the application in the portal), then run the command again.',
    allProperties: 'all properties',
    selectedProperties: (p: { n: number }) => `${p.n} selected ${p.n === 1 ? 'property' : 'properties'}`,
    ownerWithdrawn: (p: { owner: string; scope: string; kind: string; item: string }) =>
      `Access to property ${p.owner} was withdrawn: the landlord's selection for this connection no longer includes it (it now covers ${p.scope}); its ${p.kind} ${p.item} answered "not found".`,
    ofProperty: (p: { owner: string }) => ` of property ${p.owner}`,
    itemWithdrawn: (p: { kind: string; item: string; of: string; scope: string }) =>
      `Access to ${p.kind} ${p.item}${p.of} was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers ${p.scope}).`,
    scopeLeft: (p: { property: string }) =>
      `Access to property ${p.property} was withdrawn: after the sign-in was refreshed, the connection no longer covers it.`,
    // client.ts, schema.ts: answers that break the contract
    badAnswer: (p: { endpoint: string; problem: string }) => `The metering service sent an answer to ${p.endpoint} that breaks the API contract: ${p.problem}.`,
    badAnswerHint: `${LATER} (the answer does not match contract 1.0.0-rc.3).`,
    badScope: (p: { value: string }) => `property_scope is "${p.value}", expected "all" or a list`,
    deviceTwoProperties: (p: { serial: string; device: string; point: string; property: string; otherProperty: string }) =>
      `device ${p.serial} (${p.device}) is placed at measuring point ${p.point} of Property ${p.property} and at the same time at a measuring point of Property ${p.otherProperty}; one meter cannot be billed in two buildings`,
    badId: (p: { kind: string; id: string }) =>
      `The metering service sent a ${p.kind} id that is not a UUID (${p.id}); meterdata will not put it into a request.`,
    badIdHint: `${LATER} (ids must be UUIDs under contract 1.0.0-rc.3).`,
    apiBaseUrl: 'The API base URL',
    useHttps: "Use the https address of the service (METERDATA_BASE_URL or the profile's base_url), or sign in again with meterdata login.",
    isMissing: 'is missing',
    shouldBe: (p: { want: string; got: string }) => `should be ${p.want} but is ${p.got}`,
    badDate: (p: { value: string }) => `should be a date (yyyy-MM-dd) but is "${p.value}"`,
    aString: 'a string',
    aDate: 'a date (yyyy-MM-dd)',
    aNumber: 'a number',
    anInteger: 'an integer',
    aBoolean: 'true or false',
    anArray: 'an array',
    anObject: (p: { name: string }) => `an object (${p.name})`,
    tooDeep: (p: { max: number }) => `nests deeper than ${p.max} levels`,
    // answers.ts: an answer about another object or another period
    wrongObject: (p: { endpoint: string; kind: string; received: string; requested: string }) =>
      `The metering service answered ${p.endpoint} for ${p.kind} ${p.received} instead of ${p.requested}, the one requested; stopped so that no ${p.kind} is billed with another one's consumption.`,
    notBilledHint: NOT_BILLED,
    otherTenant: (p: { endpoint: string; kind: string; id: string; tenant: string; own: string }) =>
      `The metering service answered ${p.endpoint} with ${p.kind} ${p.id} of another tenant (${p.tenant}), not of this connection's (${p.own}); stopped so that no other landlord's data is billed.`,
    outOfScope: (p: { endpoint: string; kind: string; id: string; property: string }) =>
      `The metering service answered ${p.endpoint} with ${p.id === p.property ? `Property ${p.id}` : `${p.kind} ${p.id} of Property ${p.property}`}, which is not among the Properties this connection may read (the Property scope /whoami names); stopped so that nothing outside the landlord's consent is billed.`,
    range: (p: { from: string; to: string }) => `${p.from} to ${p.to}`,
    wrongRange: (p: { endpoint: string; echoed: string; asked: string; why: string }) =>
      `The metering service answered ${p.endpoint} for ${p.echoed} when ${p.asked} was requested, which the API's range rules cannot produce: ${p.why}; stopped so that no other period is billed.`,
    wrongRangeHint: `${NOT_BILLED} If this computer's clock is wrong, correct it first.`,
    shouldStart: (p: { from: string }) => `it should start on ${p.from} (the first day of the requested month)`,
    notMonthEnd: 'its end is not the last day of a month',
    endsBefore: 'it ends before the requested range begins',
    endsAfter: (p: { end: string }) => `it ends after the requested month (${p.end})`,
    pastCompleted: (p: { end: string }) => `it reaches past the last completed month (${p.end} by this computer's clock), where no billing data can exist yet`,
    mixedRange: (p: { property: string; unit: string; echoed: string; first: string; firstUnit: string; asked: string }) =>
      `The metering service answered ${p.asked} for unit "${p.unit}" of "${p.property}" with ${p.echoed}, but for unit "${p.firstUnit}" with ${p.first}: the range rules give every unit the same period; stopped so that no figure is set beside one of another period.`,
    plantPeriod: (p: { property: string; point: string; echoed: string; period: string }) =>
      `The metering service answered the readings of the plant-room or main meter ${p.point} of "${p.property}" with values of ${p.echoed}, but the period of its units is ${p.period}: a meter's readings are asked for the same period; stopped so that no figure of another period is billed.`,
  },
  {
    noAnswerWithin: (p) => `keine Antwort innerhalb von ${p.time}`,
    connectionFailed: (p) => `Verbindung fehlgeschlagen (${p.code})`,
    notHttp: 'eine Antwort, die nicht dem HTTP-Protokoll folgt (womöglich von einem Proxy dazwischen)',
    badJson: 'abgeschnittene oder ungültige JSON-Antwort',
    traceId: (p) => ` (Trace-ID ${p.id})`,
    traceIdAfter: (p) => `, Trace-ID ${p.id}`,
    rateLimited: (p) =>
      `Der Messdienst hat ${p.endpoint} auch nach ${count(p.attempts, 'Versuch', 'Versuchen')} noch mit dem Abfragelimit abgewiesen (HTTP 429).`,
    rateLimitedHint: 'Möglicherweise nutzt ein anderes Programm dieselbe Verbindung; bitte einige Minuten warten und den Befehl erneut ausführen.',
    noAnswer: (p) => `Der Messdienst hat ${p.endpoint} nach ${count(p.attempts, 'Versuch', 'Versuchen')} nicht beantwortet (zuletzt: ${p.last}${p.trace}).`,
    unavailableHint: 'Bitte später erneut versuchen; wenn es bestehen bleibt, den Status des Messdienstes prüfen.',
    retryBudgetSpent: (p) =>
      `Der Messdienst hat diesen Lauf in der letzten Stunde schon ${p.spent} warten lassen (verlangte Pausen, fehlgeschlagene Versuche und die Wartezeit vor ihrer Wiederholung); ${p.endpoint} ist erneut fehlgeschlagen (${p.last}), und eine weitere Wiederholung ginge über die ${p.max}, die meterdata in einer Stunde höchstens wartet; abgebrochen statt zu warten.`,
    permission: (p) => `die Berechtigung "${p.scope}"`,
    somePermission: 'eine Berechtigung',
    insufficientScope: (p) => `Die Anmeldung enthält ${p.needed} nicht, die ${p.endpoint} benötigt${p.trace}.`,
    insufficientScopeHint: (p) => `Bitte mit dieser Berechtigung neu anmelden: meterdata login --scope '${p.scopes}'`,
    invalidRange: (p) => `Der Messdienst hat den angefragten Zeitraum oder die Verbrauchsart abgelehnt${p.detail}${p.trace}.`,
    invalidRangeHint: 'Bitte --year/--from/--to (yyyy-MM-dd, ein Zeitraum, der spätestens mit dem letzten abgeschlossenen Monat endet) und --metric prüfen.',
    invalidRequest: (p) => `Der Messdienst hat die Abfrage ${p.endpoint} von meterdata abgelehnt${p.detail}${p.trace}.`,
    bugHint: 'Das ist ein Fehler in meterdata; bitte mit der Trace-ID melden.',
    cursorRefused: (p) =>
      `Der Messdienst hat die nächste Seite von ${p.endpoint} mit dem Seiten-Cursor abgelehnt, den er selbst vergeben hatte${p.detail}${p.trace}; der Cursor ist womöglich abgelaufen oder die Liste hat sich inzwischen geändert.`,
    cursorRefusedHint:
      'Führen Sie denselben Befehl erneut aus: Er fragt die Liste ab der ersten Seite ab. Tritt der Fehler wieder auf, bitte mit der Trace-ID melden.',
    noProblemDetails: 'ohne Fehlerbeschreibung',
    unexpectedStatus: (p) => `Der Messdienst hat ${p.endpoint} mit HTTP ${p.status} beantwortet (${p.what})${p.trace}.`,
    reportHint: 'Wenn es bestehen bleibt, bitte mit der Trace-ID melden.',
    notFound: (p) => `Die ${p.kind} ${p.id} ist in der Auswahl des Eigentümers nicht vorhanden${p.trace}.`,
    notFoundHint: 'Bitte die ID prüfen; `meterdata browse` zeigt, was diese Verbindung sehen darf.',
    otherProblemType: (p) => `mit dem Fehlertyp "${p.code}" statt resource-not-found`,
    noProblemBody: 'ohne die Fehlerbeschreibung, die der Messdienst sendet (vielleicht hat ein Proxy geantwortet)',
    unexpectedNotFound: (p) => `Der Messdienst hat ${p.endpoint} mit HTTP 404 ${p.what} beantwortet${p.trace}; das gilt nicht als entzogene Freigabe.`,
    noEndpoint: (p) =>
      `Der Messdienst hat ${p.endpoint} mit HTTP 404 beantwortet${p.trace}: Die Basis-URL der Schnittstelle führt nicht zur Schnittstelle des Messdienstes, oder ein Proxy dazwischen leitet sie nicht weiter.`,
    redirected: (p) =>
      `Der Messdienst hat ${p.endpoint} mit HTTP ${p.status} beantwortet, einer Weiterleitung${p.to ? ` nach ${p.to}` : ''}${p.trace}: meterdata folgt bei Anfragen an die Schnittstelle keiner Weiterleitung (die Anmeldung ginge mit), die Basis-URL der Schnittstelle ist daher vermutlich nicht die, die der Messdienst heute verwendet.`,
    noEndpointHint:
      'Bitte die Basis-URL der Schnittstelle prüfen (`meterdata status` zeigt sie, `meterdata login --base-url …` setzt sie); stimmt sie, den Netzwerkweg prüfen (Proxy, Firewall).',
    networkHint: 'Bitte später erneut versuchen; wenn es bestehen bleibt, den Netzwerkweg zum Messdienst prüfen (Proxy, Firewall).',
    dpopRejected: (p) => `Der Messdienst hat den DPoP-Nachweis für ${p.endpoint} zweimal abgelehnt${p.trace}.`,
    signInRejected: (p) => `Der Messdienst nimmt diese Anmeldung nicht mehr an, auch nicht nach Erneuerung des Tokens${p.trace}.`,
    signInRejectedHint: 'Die Verbindung wurde widerrufen oder ist beendet: Bitte `meterdata login` ausführen, um sie neu herzustellen.',
    seconds: (p) => count(p.n, 'Sekunde', 'Sekunden'),
    minutes: (p) => count(p.n, 'Minute', 'Minuten'),
    hours: (p) => count(p.n, 'Stunde', 'Stunden'),
    days: (p) => count(p.n, 'Tag', 'Tage'),
    bytes: (p) => `${num(p.n)} Byte`,
    retryAfter: (p) => `Bitte den Befehl nach ${p.at} (UTC) erneut ausführen.`,
    noUsableTime: 'Der Messdienst hat keine verwertbare Zeit genannt; bitte später erneut versuchen.',
    waitTooLong: (p) =>
      `Der Messdienst verlangt vor der nächsten Abfrage an ${p.endpoint} eine Wartezeit von ${p.wait} (HTTP 429, Retry-After), länger als die ${p.max} Minuten, die meterdata wartet; abgebrochen statt zu warten.`,
    waitBudgetSpent: (p) =>
      `Der Messdienst hat diesen Lauf in der letzten Stunde schon ${p.spent} warten lassen (HTTP 429, Retry-After) und verlangt vor der nächsten Abfrage an ${p.endpoint} weitere ${p.wait}: mehr als die ${p.max}, die meterdata in einer Stunde höchstens wartet; abgebrochen statt zu warten.`,
    tooLarge: (p) =>
      `Die Antwort des Messdienstes auf ${p.endpoint} ist größer als ${p.size}, die Grenze von meterdata für eine Antwort (eine volle Seite mit 200 Einträgen ist weit kleiner); das Lesen wurde abgebrochen.`,
    tooLargeHint: `${SPÄTER} (keine Antwort nach Vertrag 1.0.0-rc.3 ist so groß).`,
    endless: (p) =>
      `Die Liste ${p.endpoint} des Messdienstes endet nicht: ${p.what}; nach ${count(p.pages, 'Seite', 'Seiten')} abgebrochen statt endlos weiterzulesen.`,
    listedAgain: (p) => `Sie führt ${p.id} auf Seite ${p.page} ein zweites Mal auf`,
    listedTwice: (p) =>
      `Die Liste ${p.endpoint} des Messdienstes führt ${p.id} zweimal auf; ein doppelt aufgeführter Eintrag würde doppelt abgerechnet, daher wurde die Liste nicht verwendet.`,
    emptyPage: (p) => `Seite ${p.page} kommt ohne Einträge, verweist aber auf eine weitere Seite`,
    cursorTwice: 'Sie liefert denselben Seitenverweis zweimal',
    tooManyPages: (p) => `Sie nennt nach ${num(p.max)} Seiten (${num(p.items)} Einträge, weit mehr als die Daten jedes Eigentümers) noch eine weitere Seite`,
    paginationHint: `${SPÄTER} (seine Seitenaufteilung verletzt Vertrag 1.0.0-rc.3).`,
    withdrawnHint:
      'Der Eigentümer hat geändert, welche Liegenschaften diese Verbindung lesen darf. Bitten Sie ihn, sie wieder freizugeben (er verbindet die Anwendung im Portal neu), und führen Sie den Befehl dann erneut aus.',
    allProperties: 'alle Liegenschaften',
    selectedProperties: (p) => count(p.n, 'ausgewählte Liegenschaft', 'ausgewählte Liegenschaften'),
    ownerWithdrawn: (p) =>
      `Die Freigabe für die Liegenschaft ${p.owner} wurde entzogen: Die Auswahl des Eigentümers für diese Verbindung enthält sie nicht mehr (sie umfasst jetzt ${p.scope}); ihre ${p.kind} ${p.item} meldet „nicht gefunden“.`,
    ofProperty: (p) => ` der Liegenschaft ${p.owner}`,
    itemWithdrawn: (p) =>
      `Die Freigabe für die ${p.kind} ${p.item}${p.of} wurde entzogen: Der Messdienst hat sie in diesem Lauf zuvor aufgeführt und meldet jetzt „nicht gefunden“ (die Verbindung umfasst jetzt ${p.scope}).`,
    scopeLeft: (p) =>
      `Die Freigabe für die Liegenschaft ${p.property} wurde entzogen: Nach der Erneuerung der Anmeldung umfasst die Verbindung sie nicht mehr.`,
    badAnswer: (p) => `Der Messdienst hat auf ${p.endpoint} eine Antwort gesendet, die den API-Vertrag verletzt: ${p.problem}.`,
    badAnswerHint: `${SPÄTER} (die Antwort entspricht nicht Vertrag 1.0.0-rc.3).`,
    badScope: (p) => `property_scope ist "${p.value}", erwartet wird "all" oder eine Liste`,
    deviceTwoProperties: (p) =>
      `das Gerät ${p.serial} (${p.device}) hängt an der Messstelle ${p.point} der Liegenschaft ${p.property} und zur selben Zeit an einer Messstelle der Liegenschaft ${p.otherProperty}; ein Zähler kann nicht in zwei Gebäuden abgerechnet werden`,
    badId: (p) => `Der Messdienst hat als ID einer ${p.kind} einen Wert gesendet, der keine UUID ist (${p.id}); meterdata setzt ihn in keine Abfrage ein.`,
    badIdHint: `${SPÄTER} (IDs müssen nach Vertrag 1.0.0-rc.3 UUIDs sein).`,
    apiBaseUrl: 'Die API-Adresse',
    useHttps: 'Bitte die https-Adresse des Messdienstes verwenden (METERDATA_BASE_URL oder base_url des Profils) oder mit meterdata login neu anmelden.',
    isMissing: 'fehlt',
    shouldBe: (p) => `sollte ${p.want} sein, ist aber ${p.got}`,
    badDate: (p) => `sollte ein Datum (yyyy-MM-dd) sein, ist aber "${p.value}"`,
    aString: 'eine Zeichenkette',
    aDate: 'ein Datum (yyyy-MM-dd)',
    aNumber: 'eine Zahl',
    anInteger: 'eine ganze Zahl',
    aBoolean: 'true oder false',
    anArray: 'eine Liste',
    anObject: (p) => `ein Objekt (${p.name})`,
    tooDeep: (p) => `ist tiefer als ${p.max} Ebenen verschachtelt`,
    wrongObject: (p) =>
      `Der Messdienst hat ${p.endpoint} für die ${p.kind} ${p.received} beantwortet statt für die angefragte ${p.requested}; abgebrochen, damit keine ${p.kind} mit dem Verbrauch einer anderen abgerechnet wird.`,
    notBilledHint: NICHT_ABGERECHNET,
    otherTenant: (p) =>
      `Der Messdienst hat ${p.endpoint} mit der ${p.kind} ${p.id} eines anderen Mandanten (${p.tenant}) beantwortet, nicht dieser Verbindung (${p.own}); abgebrochen, damit keine Daten eines anderen Eigentümers abgerechnet werden.`,
    outOfScope: (p) =>
      `Der Messdienst hat ${p.endpoint} mit ${p.id === p.property ? `der Liegenschaft ${p.id}` : `der ${p.kind} ${p.id} der Liegenschaft ${p.property}`} beantwortet, die nicht zu den Liegenschaften gehört, die diese Verbindung lesen darf (laut /whoami); abgebrochen, damit nichts außerhalb der Zustimmung des Eigentümers abgerechnet wird.`,
    range: (p) => `${day(p.from)} bis ${day(p.to)}`,
    wrongRange: (p) =>
      `Der Messdienst hat ${p.endpoint} für ${p.echoed} beantwortet, angefragt war ${p.asked}; das kann nach den Zeitraumregeln der API nicht sein: ${p.why}; abgebrochen, damit kein anderer Zeitraum abgerechnet wird.`,
    wrongRangeHint: `${NICHT_ABGERECHNET} Geht die Uhr dieses Computers falsch, bitte zuerst die Uhr richtig stellen.`,
    shouldStart: (p) => `Er müsste am ${day(p.from)} beginnen (dem ersten Tag des angefragten Monats)`,
    notMonthEnd: 'Sein Ende ist nicht der letzte Tag eines Monats',
    endsBefore: 'Er endet, bevor der angefragte Zeitraum beginnt',
    endsAfter: (p) => `Er endet nach dem angefragten Monat (${day(p.end)})`,
    pastCompleted: (p) =>
      `Er reicht über den letzten abgeschlossenen Monat hinaus (${day(p.end)} nach der Uhr dieses Computers), für den es noch keine Abrechnungsdaten geben kann`,
    mixedRange: (p) =>
      `Der Messdienst lieferte für den Zeitraum ${p.asked} der Nutzeinheit „${p.unit}“ der Liegenschaft „${p.property}“ Werte von ${p.echoed}, der Nutzeinheit „${p.firstUnit}“ aber von ${p.first}: Nach den Zeitraumregeln der API erhält jede Nutzeinheit denselben Zeitraum; abgebrochen, damit kein Verbrauch neben einen aus einem anderen Zeitraum gestellt wird.`,
    plantPeriod: (p) =>
      `Der Messdienst lieferte für den Technikraum- oder Hauptzähler ${p.point} der Liegenschaft „${p.property}“ Werte von ${p.echoed}, der Zeitraum ihrer Nutzeinheiten ist aber ${p.period}: Die Ablesewerte eines Zählers werden für denselben Zeitraum abgefragt; abgebrochen, damit kein Verbrauch aus einem anderen Zeitraum abgerechnet wird.`,
  },
);
