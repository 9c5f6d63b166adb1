// The billing range of the browser: a whole calendar year or a from/to pair.
// The `y` prompt reads it with src/core/dates.ts, like export's and browse's flags:
// the same bounds and the same messages for the same mistakes.
import { FIRST_YEAR, datePair, otherLength, parseDate, parseYear, sameMonthsIn, yearRange as fromYear } from '../core/dates.js';
import { UsageError } from '../core/errors.js';
import { rangeTexts as t } from './texts-range.js';
import { expectedRange } from '../export/options/index.js';

export interface DateRange {
  from: string;
  to: string;
  /** A comparison period (`y 2025 vs 2024`): the plausibility review runs against it. */
  compare?: { from: string; to: string };
}

export function yearRange(year: number): DateRange {
  return fromYear(year);
}

/** The last completed calendar year: what a clerk most often bills. */
export function defaultRange(today: Date): DateRange {
  return yearRange(today.getUTCFullYear() - 1);
}

export type RangeResult = { ok: true; range: DateRange } | { ok: false; message: string };

/** A refusal of src/core/dates.ts as the prompt's one-line message; anything else is a bug and thrown on. */
function checked(read: () => DateRange): RangeResult {
  try {
    return { ok: true, range: read() };
  } catch (e) {
    if (e instanceof UsageError) return { ok: false, message: e.message };
    throw e;
  }
}

/**
 * Text typed at the `y` prompt: "2025", "2025-01-01..2025-06-30" or
 * "2025-01-01 2025-06-30", optionally followed by "vs" and a comparison range ("2025 vs 2024").
 */
export function parseRangeInput(input: string): RangeResult {
  const [main, compare, ...more] = input.trim().split(/\s+vs\.?\s+/i);
  if (more.length > 0) return { ok: false, message: t.oneComparison };
  const r = parseOne(main ?? '');
  if (!r.ok || compare === undefined) return r;
  // A year is the range's months in that year, as `export --compare 2024` takes them (src/core/dates.ts).
  const c = /^\d{4}$/.test(compare.trim()) ? checked(() => sameMonthsIn(r.range, parseYear(compare.trim(), '', '2024'), null)) : parseOne(compare);
  if (!c.ok) return { ok: false, message: t.comparison({ message: c.message }) };
  // the same months a year earlier, a year later where that would be before FIRST_YEAR (as review-options.ts)
  const year = Number(r.range.from.slice(0, 4));
  const example = `${main?.trim()} vs ${year > FIRST_YEAR ? year - 1 : year + 1}`;
  // The same period twice shows no change, and export (`e`) refuses it as --compare with its own period.
  const [own, other] = [sameMonthsIn(r.range, r.range.from.slice(0, 4), null), sameMonthsIn(c.range, c.range.from.slice(0, 4), null)];
  if (other.from === own.from && other.to === own.to) return { ok: false, message: t.sameComparison({ example }) };
  // 7 months beside 12 show every figure as changed; export (`e`) refuses it too.
  // as many months as the service will answer for the range (this year's up to its last completed month) are a comparison too
  const lengths = otherLength(r.range, c.range, expectedRange(r.range.from, r.range.to, new Date()));
  if (lengths) return { ok: false, message: t.otherLength({ ...lengths, example }) };
  return { ok: true, range: { ...r.range, compare: c.range } };
}

/** One range: a year, or from..to. */
function parseOne(input: string): RangeResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: t.empty };
  const parts = text.split(/\s*\.\.\s*|\s+/).filter((p) => p !== '');
  // No flag at the prompt: the messages name the typed value (and the year example is just "2025").
  // A date typed alone is read as a date, so a wrong one is "not a date", never "not a year".
  if (parts.length === 1 && /^\d+-/.test(parts[0]!)) return oneDate(parts[0]!);
  if (parts.length === 1) return checked(() => fromYear(parseYear(parts[0]!, '', '2025')));
  if (parts.length === 2) return checked(() => datePair(parts[0]!, parts[1]!, null));
  return { ok: false, message: t.neither({ text }) };
}

function oneDate(text: string): RangeResult {
  const read = checked(() => ({ from: parseDate(text, ''), to: text }));
  return read.ok ? { ok: false, message: t.oneDate({ date: text, example: `${text}..${text.slice(0, 4)}-12-31` }) } : read;
}

export function rangeLabel(r: DateRange): string {
  const y = r.from.slice(0, 4);
  const vs = r.compare ? ` vs ${rangeLabel(r.compare)}` : '';
  if (r.from === `${y}-01-01` && r.to === `${y}-12-31`) return `${y}${vs}`;
  return `${r.from}..${r.to}${vs}`;
}

function lastDayOfMonth(ym: string): string {
  const [y, m] = [Number(ym.slice(0, 4)), Number(ym.slice(5, 7))];
  return `${ym}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** For the header: "2025", "2025-03..2025-05" for whole months, else the dates. */
export function shortRangeLabel(r: DateRange): string {
  const vs = r.compare ? ` vs ${shortRangeLabel(r.compare)}` : '';
  const whole = rangeLabel({ from: r.from, to: r.to });
  if (whole.length === 4) return `${whole}${vs}`;
  if (r.from.endsWith('-01') && r.to === lastDayOfMonth(r.to.slice(0, 7))) {
    const [a, b] = [r.from.slice(0, 7), r.to.slice(0, 7)];
    return `${a === b ? a : `${a}..${b}`}${vs}`;
  }
  return `${whole}${vs}`;
}

/** The flags that select this range on the command line, for hints. */
export function rangeFlags(r: DateRange): string {
  const whole = rangeLabel({ from: r.from, to: r.to });
  const flags = whole.length === 4 ? `--year ${whole}` : `--from ${r.from} --to ${r.to}`;
  if (!r.compare) return flags;
  // --compare YYYY names the range's own months in that year (src/core/dates.ts), not always the whole year
  const year = r.compare.from.slice(0, 4);
  const same = sameMonthsIn(r, year, null);
  const byYear = same.from === r.compare.from && same.to === r.compare.to;
  return `${flags} ${byYear ? `--compare ${year}` : `--compare-from ${r.compare.from} --compare-to ${r.compare.to}`}`;
}

export function rangeKey(r: DateRange): string {
  return `${r.from}..${r.to}${r.compare ? ` vs ${r.compare.from}..${r.compare.to}` : ''}`;
}
