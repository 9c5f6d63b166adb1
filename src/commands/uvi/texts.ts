// What `meterdata uvi --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-uvi',
  {
    uvi: 'monthly information per unit (§ 6a HeizkostenV)',
    month: 'the letter month (yyyy-mm; default: the last completed month)',
    allProfiles: 'every signed-in profile at once, each into <out>/<profile>/<month>/',
    profiles: 'these profiles at once, e.g. a,b,c, each into <out>/<profile>/<month>/',
    property: 'only this Property (repeatable)',
    out: 'output folder; the files go to <out>/<month>/ (default: ./meterdata-uvi)',
    template: 'layout of uvi.csv and review.csv: generic or de',
    rateLimit: 'requests per minute for this connection',
    json: 'print a machine-readable summary on stdout',
    quiet: 'print nothing but errors',
    benchmark: 'CSV of the average user (unit_type, service, kwh_per_m2_year, source); default: the table in docs/uvi.md',
    wwTemperature: 'mean warm-water temperature in °C for § 9 Abs. 2 HeizkostenV (default 60)',
    unitRefs: 'CSV of usage_unit_id and erp_ref: the ERP number on each letter and in uvi.csv',
    plantMeters:
      'CSV of property_id, measuring_point_id and role (warm_water_heat or plant_heat): which plant-room heat meter is which, instead of reading their names',
  },
  {
    uvi: 'monatliche Verbrauchsinformation je Nutzeinheit (§ 6a HeizkostenV)',
    month: 'Monat der Verbrauchsinformation (jjjj-mm; Vorgabe: der letzte abgeschlossene Monat)',
    allProfiles: 'alle angemeldeten Profile gleichzeitig, jedes nach <out>/<profile>/<month>/',
    profiles: 'diese Profile gleichzeitig, z. B. a,b,c, jedes nach <out>/<profile>/<month>/',
    property: 'nur diese Liegenschaft (mehrfach möglich)',
    out: 'Zielordner; die Dateien kommen nach <out>/<month>/ (Vorgabe: ./meterdata-uvi)',
    template: 'Layout von uvi.csv und review.csv: generic oder de',
    rateLimit: 'Abfragen pro Minute für diese Verbindung',
    json: 'eine maschinenlesbare Zusammenfassung auf stdout ausgeben',
    quiet: 'nur Fehler ausgeben',
    benchmark: 'CSV mit den Werten des Durchschnittsnutzers (unit_type, service, kwh_per_m2_year, source); Vorgabe: die Tabelle in docs/uvi.md',
    wwTemperature: 'mittlere Warmwassertemperatur in °C für § 9 Abs. 2 HeizkostenV (Vorgabe 60)',
    unitRefs: 'CSV mit usage_unit_id und erp_ref: die ERP-Nummer auf jedem Schreiben und in uvi.csv',
    plantMeters:
      'CSV mit property_id, measuring_point_id und role (warm_water_heat oder plant_heat): welcher Wärmezähler der Heizzentrale welche Aufgabe hat, statt ihre Bezeichnung zu lesen',
  },
);
