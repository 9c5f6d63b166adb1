// What `meterdata token --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-token',
  {
    token: 'print a valid access token for scripts (refreshing it if needed)',
  },
  {
    token: 'ein gültiges Zugriffstoken für Skripte ausgeben (bei Bedarf erneuert)',
  },
);
