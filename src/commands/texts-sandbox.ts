// What `meterdata sandbox` prints and refuses. The stdout line "listening on <url>" is
// read by scripts and tests and stays as it is in every language.
import { catalogue } from '../i18n/index.js';

export const sandboxTexts = catalogue(
  'sandbox-command',
  {
    started: (p: { issuer: string; apiBase: string; client: string; extras: string }) =>
      `auth_url ${p.issuer}  base_url ${p.apiBase}  client ${p.client}${p.extras}`,
    autoConsent: '  (auto-consent)',
    autoConsentTenant: (p: { tenant: string }) => `  (auto-consent: ${p.tenant})`,
    tenantHint: 'Give a landlord\'s id or name as listed, e.g. --auto-consent-tenant "Wohnbau Rheinblick eG"; docs/sandbox-data.md describes them.',
    admin: '  admin on /admin',
    stopped: 'sandbox stopped',
    portInUse: (p: { port: number }) => `Port ${p.port} on 127.0.0.1 is already in use.`,
    portInUseHint: 'Choose another --port, or --port 0 for any free port.',
    clientsHint: 'See docs/sandbox.md for the clients file format.',
  },
  {
    started: (p) => `auth_url ${p.issuer}  base_url ${p.apiBase}  Client ${p.client}${p.extras}`,
    autoConsent: '  (Zustimmung automatisch)',
    autoConsentTenant: (p) => `  (Zustimmung automatisch: ${p.tenant})`,
    tenantHint:
      'Geben Sie die ID oder den Namen eines der genannten Eigentümer an, z. B. --auto-consent-tenant "Wohnbau Rheinblick eG"; docs/sandbox-data.md beschreibt sie.',
    admin: '  Betreiberschnittstelle unter /admin',
    stopped: 'Sandbox beendet',
    portInUse: (p) => `Port ${p.port} auf 127.0.0.1 ist schon belegt.`,
    portInUseHint: 'Wählen Sie einen anderen --port oder --port 0 für einen beliebigen freien Port.',
    clientsHint: 'Das Format der Client-Datei beschreibt docs/sandbox.md.',
  },
);
