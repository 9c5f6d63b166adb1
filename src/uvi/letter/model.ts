// The monthly letter (§ 6a Abs. 2 HeizkostenV) as plain data: every word and figure the
// PDF prints, so the renderer only places them and a test reads them without a PDF.
// Figures follow comparisons() (one computation): kWh where the letter's month has kWh,
// else the unit's own figure (allocator units, m³). A missing month is "–", never 0; an
// estimated one carries "*". Pure.
import { UNIT_TYPES, type Address, type UsageUnit } from '../../api/types.js';
import type { Decimal } from '../../billing/decimal.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { inLanguage, num, type Lang } from '../../i18n/index.js';
import { comparisons, monthWords, reasonWords } from '../compare.js';
import { MAX_SOURCE } from '../benchmark.js';
import { monthNumber, type Month } from '../months.js';
import { uviTexts } from '../texts.js';
import type { Finding, Service, ServiceMonth, UnitService, UnitUvi } from '../types.js';
import { area, figure, type FigureUnit } from './figures.js';
import { letterTexts } from './texts-letter.js';

export const MISSING = '–';
export const ESTIMATED = '*';

export interface LetterInput {
  property: { id: string; name: string };
  /** The unit's address (the API gives each unit its own). */
  address: Address;
  unit: Pick<UsageUnit, 'id' | 'name' | 'floor' | 'position' | 'unit_type' | 'area_heated_m2' | 'area_ww_m2'>;
  /** The ERP's unit number (--unit-refs), so a mail merge can join its tenant. */
  erpRef: string | null;
  month: Month;
  uvi: UnitUvi;
  /** Named on the letter (the benchmark table's `source`). */
  benchmarkSource: string;
  /** t_w of § 9 Abs. 2 HeizkostenV, °C, printed where the formula was used. */
  wwTemperature: number;
  lang: Lang;
}

export interface LetterRow {
  label: string;
  /** "November 2025", or the average user's description. */
  when: string;
  /** "1.234,5 kWh", "1.234,5 kWh *" or "–". */
  figure: string;
  /** The difference in words; empty on the row of the month itself. */
  words: string;
}

export interface ChartBar {
  month: Month;
  /** "N" for November: the axis label. */
  label: string;
  /** null: missing, drawn as an empty place, never as a bar of 0. */
  value: number | null;
  estimated: boolean;
  /** The average user's figure; null where there is none (or the chart is not in kWh). */
  average: number | null;
}

export interface LetterService {
  service: Service;
  heading: string;
  unit: FigureUnit;
  unitLabel: string;
  rows: LetterRow[];
  /** How the figure was found (the method, § 9 Abs. 2 with t_w). */
  method: string;
  /** Why the letter's month has no value, or why there is no average user. */
  notes: string[];
  chart: { title: string; bars: ChartBar[] };
}

export interface LetterModel {
  lang: Lang;
  title: string;
  subtitle: string;
  law: string;
  /** Label and value pairs of the heading block. */
  facts: [string, string][];
  salutation: string;
  intro: string;
  columns: [string, string, string, string];
  services: LetterService[];
  /** Shown where the unit has no service at all. */
  empty: string | null;
  notesTitle: string;
  notes: string[];
  legend: { you: string; average: string; estimated: string; missing: string };
  footer: string;
  /** "Seite {n} von {m}": the renderer puts in the page and the letter's page count (the model stays plain data, for a worker). */
  pageTemplate: string;
}

/**
 * The most characters a letter prints of one text from the server (a name, an address, a floor):
 * a few lines of the heading block. A 20,000-letter name took minutes to lay out, and no reader
 * needs more; uvi.csv keeps the full name.
 */
export const LETTER_TEXT_MAX = 200;

/** `text` cut to `max` characters (never inside one), ending in "…" where it was cut. */
function bounded(text: string, max = LETTER_TEXT_MAX): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Text from the server as sent, on one line: a control or bidi character shown as \u{…}, never acted on (a line break, a reversed name); at most LETTER_TEXT_MAX characters. */
const sent = (text: string | null | undefined): string => bounded(terminalSafe(bounded(String(text ?? ''), 4 * LETTER_TEXT_MAX)).trim());

/**
 * The benchmark's sources are printed whole: ours, or a --benchmark file's, checked there (one citation of at most
 * MAX_SOURCE per row, joined by "; "). Cut at LETTER_TEXT_MAX, the shipped table's two sources lost the hot-water
 * figure, and a file's second source (often the other service's) vanished from every letter.
 */
const SOURCES_MAX = UNIT_TYPES.length * 2 * (MAX_SOURCE + 2);

function addressLine(a: Address): string {
  const house = [a.house_number, a.house_number_addition].map(sent).filter(Boolean).join(' ');
  return bounded(`${sent(a.street)} ${house}, ${sent(a.postal_code)} ${sent(a.city)}`.replace(/ +/g, ' ').trim());
}

function facts(input: LetterInput, t: typeof letterTexts): [string, string][] {
  const u = input.unit;
  const out: [string, string][] = [
    [t.property, sent(input.property.name)],
    [t.address, addressLine(input.address)],
    [t.unit, sent(u.name)],
  ];
  const where = [sent(u.floor) ? t.floor({ floor: sent(u.floor) }) : '', sent(u.position)].filter(Boolean).join(', ');
  if (where) out.push([t.location, where]);
  const a = (v: number | null) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? `${area(v, input.lang)} m²` : t.areaUnknown);
  out.push([t.area, t.areas({ heated: a(u.area_heated_m2), ww: a(u.area_ww_m2) })]);
  if (sent(input.erpRef)) out.push([t.erpRef, sent(input.erpRef)]);
  out.push([t.period, monthWords(input.month, input.lang)]);
  return out;
}

function shown(value: Decimal | null, estimated: boolean, unit: FigureUnit, label: string, lang: Lang): string {
  if (value === null) return MISSING;
  return `${figure(value, unit, lang)} ${label}${estimated ? ` ${ESTIMATED}` : ''}`;
}

function method(s: UnitService, current: ServiceMonth | undefined, inKwh: boolean, input: LetterInput, t: typeof letterTexts): string {
  const nativeUnit: FigureUnit = s.native_unit;
  const native = current?.native != null ? figure(current.native, nativeUnit, input.lang) : MISSING;
  // Without kWh this month no conversion was made: only the unit's own figure is named (the notes say why).
  if (!inKwh && current?.native != null && s.method !== 'heat_meter' && s.method !== 'volume_only') {
    return s.service === 'HEATING' ? t.methodUnitsOnly({ native }) : t.methodM3Only({ native });
  }
  switch (s.method) {
    case 'heat_meter':
      return t.methodHeatMeter;
    case 'allocators':
      return t.methodAllocators({ native });
    case 'heat_meter_and_allocators':
      return t.methodBoth({ native });
    case 'ww_heat_meter_share':
      return t.methodWwShare({ native });
    case 'formula_9_2':
      return t.methodFormula({ native, formula: inLanguage(uviTexts, input.lang).formula92({ tw: num(input.wwTemperature, input.lang) }) });
    case 'volume_only':
      return t.methodVolume;
  }
}

function serviceNotes(
  s: UnitService,
  current: ServiceMonth | undefined,
  findings: readonly Finding[],
  inKwh: boolean,
  lang: Lang,
  t: typeof letterTexts,
): string[] {
  const out: string[] = [];
  if (s.service === 'HEATING' && !inKwh && s.method !== 'heat_meter' && current?.native != null) out.push(t.noKwhAllocators);
  const reasons = current ? reasonWords(current.reasons, lang) : [];
  if (current && reasons.length > 0) {
    if (current.native === null) out.push(t.whyMissing({ reasons: reasons.join('; ') }));
    else if (current.kwh === null && s.method !== 'volume_only') out.push(t.whyNoKwh({ reasons: reasons.join('; ') }));
  }
  const own = findings.filter((f) => f.service === s.service);
  if (own.some((f) => f.code === 'NO_FLOOR_AREA')) out.push(t.noArea);
  if (own.some((f) => f.code === 'NO_BENCHMARK_FOR_TYPE')) out.push(t.noBenchmarkForType);
  return out;
}

/** The mark of the figure shown: the kWh's where the letter is in kWh, else the unit's own readings' (never the kWh's for a figure in units). */
const marked = (m: ServiceMonth | undefined, inKwh: boolean): boolean => (m ? (inKwh ? m.kwh !== null && m.estimated : m.native_estimated) : false);

function chartBars(s: UnitService, inKwh: boolean, lang: Lang): ChartBar[] {
  const names = inLanguage(uviTexts, lang).monthNames.split('|');
  return s.months.map((m) => {
    const value = inKwh ? m.kwh : m.native;
    return {
      month: m.month,
      label: names[monthNumber(m.month) - 1]!.slice(0, 3),
      value: value === null ? null : value.toNumber(),
      estimated: value !== null && marked(m, inKwh),
      average: inKwh && m.benchmark_kwh !== null ? m.benchmark_kwh.toNumber() : null,
    };
  });
}

function serviceSection(s: UnitService, input: LetterInput, t: typeof letterTexts): LetterService {
  const { lang, month } = input;
  const u = inLanguage(uviTexts, lang);
  const at = (m: Month | null) => s.months.find((x) => x.month === m);
  const current = at(month);
  // Without kWh for the month, every figure of the table is the unit's own (as comparisons() compares).
  const inKwh = current?.kwh != null;
  const unit: FigureUnit = inKwh ? 'kWh' : s.native_unit;
  const unitLabel = unit === 'kWh' ? t.unitKwh : unit === 'unit' ? t.unitAllocator : t.unitM3;
  const [previous, lastYear, average] = comparisons(s, month, lang);
  const row = (label: string, c: { month: Month | null; other: Decimal | null; words: string }): LetterRow => ({
    label,
    when: monthWords(c.month!, lang),
    figure: shown(c.other, marked(at(c.month), inKwh), unit, unitLabel, lang),
    words: c.words,
  });
  const rows: LetterRow[] = [
    { label: t.rowThisMonth, when: monthWords(month, lang), figure: shown(previous!.value, marked(current, inKwh), unit, unitLabel, lang), words: '' },
    row(t.rowPreviousMonth, previous!),
    row(t.rowLastYear, lastYear!),
  ];
  // Cold water has no average user (docs/uvi.md): no row rather than a row saying so.
  if (s.service !== 'COLD_WATER') {
    rows.push({
      label: t.rowAverage,
      when: t.averageWhen,
      figure: inKwh ? shown(average!.other, false, 'kWh', t.unitKwh, lang) : MISSING,
      words: average!.words,
    });
  }
  const heading = s.service === 'HEATING' ? u.heating : s.service === 'HOT_WATER' ? u.hotWater : u.coldWater;
  return {
    service: s.service,
    heading,
    unit,
    unitLabel,
    rows,
    method: method(s, current, inKwh, input, t),
    notes: serviceNotes(s, current, input.uvi.findings, inKwh, lang, t),
    chart: { title: t.chartTitle({ unit: unitLabel }), bars: chartBars(s, inKwh, lang) },
  };
}

/** The letter of one unit for one month, in `lang`. */
export function letterModel(input: LetterInput): LetterModel {
  const t = inLanguage(letterTexts, input.lang);
  const monthName = monthWords(input.month, input.lang);
  const order: Service[] = ['HEATING', 'HOT_WATER', 'COLD_WATER'];
  const services = [...input.uvi.services].sort((a, b) => order.indexOf(a.service) - order.indexOf(b.service)).map((s) => serviceSection(s, input, t));
  const metered = services.some((s) => s.service !== 'COLD_WATER');
  const notes = [t.noteNotABill, t.noteMarks, t.noteTenant, t.noteSeason];
  if (metered) notes.push(t.noteBenchmark({ source: bounded(terminalSafe(bounded(input.benchmarkSource, SOURCES_MAX)).trim(), SOURCES_MAX) }));
  return {
    lang: input.lang,
    title: t.title,
    subtitle: t.subtitle({ month: monthName }),
    law: t.law,
    facts: facts(input, t),
    salutation: t.salutation,
    intro: t.intro({ month: monthName }),
    columns: [t.columnPeriod, t.columnMonth, t.columnConsumption, t.columnComparison],
    services,
    empty: metered ? null : t.noServices,
    notesTitle: t.notesTitle,
    notes,
    legend: { you: t.chartYou, average: t.chartAverage, estimated: t.chartEstimated, missing: t.chartMissing },
    footer: t.footer({ property: sent(input.property.name), unit: sent(input.unit.name), month: monthName }),
    pageTemplate: t.page({ n: '{n}', of: '{m}' }),
  };
}
