// The monthly consumption information in browse (§ 6a HeizkostenV, `m` on a unit's screen):
// the screen's own words. The figures, comparisons and notes are the letter's (src/uvi/letter).
import { catalogue } from '../i18n/index.js';

export const uviScreenTexts = catalogue(
  'browse-uvi',
  {
    title: (p: { unit: string }) => `${p.unit} › monthly information`,
    head: (p: { month: string; from: string }) => `What the monthly letter for ${p.month} says (§ 6a HeizkostenV), 13 months from ${p.from}`,
    colMonth: 'Month',
    colUse: 'Consumption',
    colAverage: 'Average user',
    notes: 'Notes of the letter',
    loading: (p: { property: string; period: string }) => `the monthly information of ${p.property} (${p.period})`,
    key: 'on a unit: its monthly information (§ 6a HeizkostenV), 13 months in kWh',
    onlyOnUnit: 'm shows the monthly information on a unit’s screen; open a unit first.',
    legend: '* estimated  – no value (never 0)',
    unitFooterWide: '↑↓/jk move  Enter open  Esc back  / filter  y range  i explain  e export  m monthly  ? help  q quit',
    unitFooter: '↑↓jk ⏎ open Esc back / filter y range i why e export m monthly ? help q quit',
    uviFooterWide: '↑↓/jk scroll  Esc back  / filter  y range  e export  ? help  q quit',
    uviFooter: '↑↓jk scroll Esc back / filter y range e export ? help q quit',
  },
  {
    title: (p) => `${p.unit} › Monatsinformation`,
    head: (p) => `Was die Verbrauchsinformation für ${p.month} zeigt (§ 6a HeizkostenV), 13 Monate ab ${p.from}`,
    colMonth: 'Monat',
    colUse: 'Verbrauch',
    colAverage: 'Durchschnittsnutzer',
    notes: 'Hinweise der Verbrauchsinformation',
    loading: (p) => `Monatsinformation für ${p.property} (${p.period})`,
    key: 'auf einer Nutzeinheit: ihre Monatsinformation (§ 6a HeizkostenV), 13 Monate in kWh',
    onlyOnUnit: 'm zeigt die Monatsinformation auf der Seite einer Nutzeinheit; bitte zuerst eine Nutzeinheit öffnen.',
    legend: '* geschätzt  – kein Wert (nie 0)',
    unitFooterWide: '↑↓jk bewegen  ⏎ öffnen  Esc zurück  / Filter  y Zeitraum  i erklären  e Export  m Monat  ? Hilfe  q Ende',
    unitFooter: '↑↓jk ⏎ Esc zurück / Filter y Zeitraum i warum e Export m Monat ? Hilfe q Ende',
    uviFooterWide: '↑↓jk blättern  Esc zurück  / Filter  y Zeitraum  e Export  ? Hilfe  q Ende',
    uviFooter: '↑↓jk blättern Esc zurück / Filter y Zeitraum e Export ? Hilfe q Ende',
  },
);
