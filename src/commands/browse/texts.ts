// What `meterdata browse --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-browse',
  {
    browse: "browse a landlord's properties, units, meters and readings (interactive)",
    browseYear: 'calendar year to show',
    browseFrom: 'start date (yyyy-mm-dd)',
    browseTo: 'end date (yyyy-mm-dd)',
  },
  {
    browse: 'Liegenschaften, Nutzeinheiten, Zähler und Ablesewerte eines Eigentümers ansehen (interaktiv)',
    browseYear: 'anzuzeigendes Kalenderjahr',
    browseFrom: 'Anfangsdatum (jjjj-mm-tt)',
    browseTo: 'Enddatum (jjjj-mm-tt)',
  },
);
