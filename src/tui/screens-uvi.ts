// The monthly consumption information of one unit (§ 6a HeizkostenV, `m` on its screen):
// per service the letter's table (this month, previous month, same month last year, the
// average user, the differences in words), its 13 months with the average user's, how the
// figures were found and the letter's notes. Every figure and word is the letter model's
// (letterModel over propertyUvi), so the screen and the letter cannot disagree.
import type { Lang } from '../i18n/index.js';
import { monthWords, type UnitService } from '../uvi/index.js';
// The model and figures directly, not the letter's index: that loads pdfkit and the fonts.
import { figure } from '../uvi/letter/figures.js';
import { ESTIMATED, MISSING, letterModel, type LetterService } from '../uvi/letter/model.js';
import { wordWrap } from './format.js';
import { heading, row, type Row } from './rows.js';
import type { Screen } from './screens-list.js';
import { uviScreenTexts as u } from './texts-uvi.js';
import type { UviView } from './uvi.js';

// The comparison's words start at column 39 (with the list's cursor column), so the longest fits 80 columns.
const LABEL = 20;
const FIGURE = 15;
const MONTH = 10;
const OWN = 16;
const AVERAGE = 20;

/** Long text as lines of the list, indented, none selectable. */
function wrapped(key: string, text: string, width: number, indent = 2): Row[] {
  // The list draws two columns for the cursor before each row.
  return wordWrap(text, Math.max(20, width - indent - 3)).map((l, i) => row(`${key}:${i}`, [{ text: `${' '.repeat(indent)}${l}` }], { selectable: false }));
}

/** The 13 months as the letter's chart has them: kWh where the letter's month has kWh, else the unit's own figure. */
function monthRows(key: string, sec: LetterService, s: UnitService, lang: Lang): Row[] {
  const inKwh = sec.unit === 'kWh';
  return sec.chart.bars.map((bar, i) => {
    const m = s.months[i]!;
    const value = inKwh ? m.kwh : m.native;
    // The mark stands after the figure, the figures' decimals stay in one column.
    const own = `${value === null ? MISSING : figure(value, sec.unit, lang)}${bar.estimated ? ` ${ESTIMATED}` : '  '}`;
    const average = sec.service === 'COLD_WATER' ? '' : inKwh && m.benchmark_kwh !== null ? figure(m.benchmark_kwh, 'kWh', lang) : MISSING;
    const when = `${bar.label} ${m.month.slice(0, 4)}`;
    return row(`${key}:m${m.month}`, [{ text: `  ${when.padEnd(MONTH)}` }, { text: own.padStart(OWN), bold: true }, { text: average.padStart(AVERAGE) }], {
      filterText: when,
    });
  });
}

/** The unit's letter for the view's month, as lines of the list; null when the unit is not in the answers. */
export function uviScreen(view: UviView, unitId: string, lang: Lang, width: number): Screen | null {
  const entry = view.bundle.units.find((x) => x.unit.id === unitId);
  const unitUvi = view.uvi.units.find((x) => x.usage_unit_id === unitId);
  if (!entry || !unitUvi) return null;
  const { unit } = entry;
  const model = letterModel({
    property: { id: view.bundle.property.id, name: view.bundle.property.name },
    address: unit.address,
    unit,
    erpRef: null,
    month: view.month,
    uvi: unitUvi,
    benchmarkSource: view.benchmark.source,
    wwTemperature: view.wwTemperature,
    lang,
  });
  const first = unitUvi.services[0]?.months[0]?.month ?? view.month;
  const rows: Row[] = [...wrapped('v:head', u.head({ month: monthWords(view.month, lang), from: monthWords(first, lang) }), width, 0)];
  for (const sec of model.services) {
    const s = unitUvi.services.find((x) => x.service === sec.service)!;
    const k = `v:${sec.service}`;
    rows.push(heading(`${k}:h`, `── ${sec.heading} (${sec.unitLabel}) ──`, sec.heading));
    for (const [i, r] of sec.rows.entries()) {
      rows.push(row(`${k}:r${i}`, [{ text: `  ${r.label.padEnd(LABEL)}` }, { text: r.figure.padEnd(FIGURE), bold: true }, { text: r.words || r.when }]));
    }
    const columns = `  ${u.colMonth.padEnd(MONTH)}${u.colUse.padStart(OWN - 2)}  ${sec.service === 'COLD_WATER' ? '' : u.colAverage.padStart(AVERAGE)}`;
    rows.push(row(`${k}:cols`, [{ text: columns, dim: true }], { selectable: false }));
    rows.push(...monthRows(k, sec, s, lang));
    rows.push(...wrapped(`${k}:how`, sec.method, width));
    for (const [i, n] of sec.notes.entries()) rows.push(...wrapped(`${k}:n${i}`, n, width));
  }
  if (model.empty) rows.push(...wrapped('v:empty', model.empty, width, 0));
  rows.push(heading('v:notes', u.notes));
  for (const [i, n] of model.notes.entries()) rows.push(...wrapped(`v:note${i}`, n, width));
  return { title: u.title({ unit: unit.name }), columns: '', rows };
}
