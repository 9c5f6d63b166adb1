// What `meterdata demo --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-demo',
  {
    demo: 'run the whole job against an embedded sandbox: sign in and export 2025',
    demoOut: 'output folder',
    demoUnits: 'units in the embedded sandbox',
  },
  {
    demo: 'den ganzen Ablauf gegen eine eingebaute Sandbox ausführen: anmelden und 2025 exportieren',
    demoOut: 'Zielordner',
    demoUnits: 'Nutzeinheiten in der eingebauten Sandbox',
  },
);
