// The demo's sign-in to its embedded sandbox, as the person running `meterdata demo` reads it
// (the redirects it follows included).
import { catalogue } from '../i18n/index.js';

export const t = catalogue(
  'export-run.sandbox-sign-in',
  {
    failed: (p: { why: string }) => `Sign-in to the sandbox failed: ${p.why}`,
    tooManyRedirects: (p: { url: string }) => `too many redirects from ${p.url}`,
  },
  {
    failed: (p) => `Die Anmeldung an der Sandbox ist fehlgeschlagen: ${p.why}`,
    tooManyRedirects: (p) => `zu viele Weiterleitungen ab ${p.url}`,
  },
);
