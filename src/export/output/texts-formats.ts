// Words that list the registry's formats (registry.ts) in help texts and messages.
import { catalogue } from '../../i18n/index.js';

export const formatTexts = catalogue(
  'output-formats',
  {
    /** "CSV and XLSX", "CSV, XLSX and PDF". */
    and: (p: { head: string; last: string }) => `${p.head} and ${p.last}`,
  },
  {
    and: (p) => `${p.head} und ${p.last}`,
  },
);
