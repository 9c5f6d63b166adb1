// What `meterdata browse --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-browse',
  {
    browse: "browse a landlord's properties, units, meters and readings (interactive)",
    browseYear: 'calendar year to show',
    browseFrom: 'start date (yyyy-mm-dd)',
    browseTo: 'end date (yyyy-mm-dd)',
    benchmark: 'the monthly screen: CSV of the average user, as for meterdata uvi',
    wwTemperature: 'the monthly screen: mean warm-water temperature in °C, as for meterdata uvi (default 60)',
    plantMeters: 'the monthly screen: CSV naming which plant-room heat meter is which, as for meterdata uvi',
  },
  {
    browse: 'Liegenschaften, Nutzeinheiten, Zähler und Ablesewerte eines Eigentümers ansehen (interaktiv)',
    browseYear: 'anzuzeigendes Kalenderjahr',
    browseFrom: 'Anfangsdatum (jjjj-mm-tt)',
    browseTo: 'Enddatum (jjjj-mm-tt)',
    benchmark: 'Monatsansicht: CSV mit den Werten des Durchschnittsnutzers, wie bei meterdata uvi',
    wwTemperature: 'Monatsansicht: mittlere Warmwassertemperatur in °C, wie bei meterdata uvi (Vorgabe 60)',
    plantMeters: 'Monatsansicht: CSV, welcher Wärmezähler der Heizzentrale welche Aufgabe hat, wie bei meterdata uvi',
  },
);
