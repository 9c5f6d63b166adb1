// What `meterdata status --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-status',
  {
    status: 'show the connection of a profile and check that it works',
    statusJson: 'machine-readable output',
    all: 'list every profile',
  },
  {
    status: 'Verbindung eines Profils anzeigen und prüfen, ob sie funktioniert',
    statusJson: 'maschinenlesbare Ausgabe',
    all: 'alle Profile auflisten',
  },
);
