// What `meterdata logout --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-logout',
  {
    logout: 'revoke the connection and delete the local record',
    localOnly: 'only delete the local record; do not revoke at the server',
  },
  {
    logout: 'Verbindung widerrufen und den lokalen Eintrag löschen',
    localOnly: 'nur den lokalen Eintrag löschen, nicht beim Server widerrufen',
  },
);
