// What `meterdata sandbox --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-sandbox',
  {
    sandbox: 'run a local emulator of the Partner API and its authorization server',
    port: 'port on 127.0.0.1 (0: any free port)',
    seed: 'seed of the synthetic data',
    units: 'number of usage units to generate (1 to 50000)',
    autoConsent: 'approve every consent as the demo landlord with all Properties',
    autoConsentTenant: 'approve every consent with all Properties of this landlord (id or name, e.g. "Wohnbau Rheinblick eG"); implies --auto-consent',
    clock: 'start the server clock at this date (yyyy-mm-dd, midnight UTC); it then ticks on with real time (default: now)',
    admin: 'enable the operator interface under /admin (for tests)',
    clients: 'JSON file registering confidential and DPoP-bound test clients',
    futureContract: 'add unknown fields and enum values to answers',
    fault: 'inject faults, e.g. 429:0.05, 500@12 (repeatable)',
    sandboxRateLimit: 'API requests per minute per connection (default 300; 0: off)',
    oauthRateLimit: '/oauth/* requests per minute per client and per caller address (default 60; 0: off)',
  },
  {
    sandbox: 'einen lokalen Nachbau der Partner API und ihres Anmeldeservers starten',
    port: 'Port auf 127.0.0.1 (0: ein beliebiger freier Port)',
    seed: 'Startwert der erzeugten Testdaten',
    units: 'Anzahl der zu erzeugenden Nutzeinheiten (1 bis 50000)',
    autoConsent: 'jede Zustimmung als Demo-Eigentümer mit allen Liegenschaften erteilen',
    autoConsentTenant:
      'jede Zustimmung mit allen Liegenschaften dieses Eigentümers erteilen (ID oder Name, z. B. „Wohnbau Rheinblick eG“); schließt --auto-consent ein',
    clock: 'die Serveruhr an diesem Datum starten (jjjj-mm-tt, Mitternacht UTC); danach läuft sie in Echtzeit weiter (Vorgabe: jetzt)',
    admin: 'die Betreiberschnittstelle unter /admin einschalten (für Tests)',
    clients: 'JSON-Datei, die vertrauliche und DPoP-gebundene Test-Clients registriert',
    futureContract: 'Antworten um unbekannte Felder und Aufzählungswerte ergänzen',
    fault: 'Fehler einspeisen, z. B. 429:0.05, 500@12 (mehrfach möglich)',
    sandboxRateLimit: 'API-Abfragen pro Minute und Verbindung (Vorgabe 300; 0: aus)',
    oauthRateLimit: '/oauth/*-Abfragen pro Minute je Client und je Absenderadresse (Vorgabe 60; 0: aus)',
  },
);
