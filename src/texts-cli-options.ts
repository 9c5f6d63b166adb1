// What `--help` says about meterdata itself and the flags every command shares (--lang, --profile);
// each command's own texts are beside its declaration (src/commands/<verb>/texts.ts).
import { catalogue } from './i18n/index.js';

export const helpTexts = catalogue(
  'cli-help',
  {
    program: 'Billing-ready consumption data from the Metering Data Partner API (contract 1.0.0-rc.3).',
    lang: 'language of messages, help and workbook (default: from LC_ALL, LC_MESSAGES, LANG)',
    profile: 'connection profile (default: $METERDATA_PROFILE or "default")',
  },
  {
    program: 'Abrechnungsfertige Verbrauchswerte aus der Metering Data Partner API (Vertrag 1.0.0-rc.3).',
    lang: 'Sprache der Meldungen, der Hilfe und der Arbeitsmappe (Vorgabe: aus LC_ALL, LC_MESSAGES, LANG)',
    profile: 'Verbindungsprofil (Vorgabe: $METERDATA_PROFILE oder „default“)',
  },
);
