// `meterdata demo`'s own lines (the export's are in src/export/texts-*.ts).
import { catalogue, num } from '../i18n/index.js';

export const demoText = catalogue(
  'export-run.demo',
  {
    badUnits: (p: { raw: string }) => `--units: "${p.raw}" is not a number of units from 1 to 50000.`,
    signingIn: (p: { url: string }) => `demo: sandbox running at ${p.url}; signing in as the demo landlord…`,
    exporting: (p: { tenant: string }) => `demo: exporting 2025 for ${p.tenant}…`,
    theLandlord: 'the demo landlord',
    findings: 'findings:',
    open: (p: { file: string }) =>
      `Open ${p.file} or the CSV files next to it; plausibility.csv and the review's findings show the plausibility review (zero consumption, per m², calibration periods, § 9a HeizkostenV).`,
  },
  {
    badUnits: (p) => `--units: „${p.raw}“ ist keine Anzahl von Nutzeinheiten zwischen 1 und ${num(50000)}.`,
    signingIn: (p) => `demo: Sandbox läuft unter ${p.url}; Anmeldung als Demo-Eigentümer …`,
    exporting: (p) => `demo: Export 2025 für ${p.tenant} …`,
    theLandlord: 'den Demo-Eigentümer',
    findings: 'Hinweise nach Art:',
    open: (p) =>
      `Öffnen Sie ${p.file} oder die CSV-Dateien daneben; plausibility.csv und die Prüfhinweise zeigen die Plausibilitätsprüfung (Nullverbrauch, Verbrauch je m², Eichfristen, § 9a HeizkostenV).`,
  },
);
