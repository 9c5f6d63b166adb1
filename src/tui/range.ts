// The billing range of the browser: a whole calendar year or a from/to pair.
// Pure and shared by the command's flags and the inline `y` prompt, so both give
// the same one-line messages for the same mistakes.

export interface DateRange {
  from: string;
  to: string;
  /** A comparison period (`y 2025 vs 2024`): the plausibility review runs against it. */
  compare?: { from: string; to: string };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses yyyy-mm-dd into a real calendar date or returns null (2025-02-30 is not a date). */
export function parseIsoDate(text: string): string | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return text.trim();
}

export function yearRange(year: number): DateRange {
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** The last completed calendar year: what a clerk most often bills. */
export function defaultRange(today: Date): DateRange {
  return yearRange(today.getUTCFullYear() - 1);
}

export type RangeResult = { ok: true; range: DateRange } | { ok: false; message: string };

function parseYear(text: string): RangeResult {
  const year = Number(text);
  if (!/^\d{4}$/.test(text) || year < 2000 || year > 2100) {
    return { ok: false, message: `"${text}" is not a year; type a year such as 2025` };
  }
  return { ok: true, range: yearRange(year) };
}

function parsePair(fromText: string, toText: string): RangeResult {
  const from = parseIsoDate(fromText);
  if (!from) return { ok: false, message: `"${fromText}" is not a date; use yyyy-mm-dd, e.g. 2025-01-01` };
  const to = parseIsoDate(toText);
  if (!to) return { ok: false, message: `"${toText}" is not a date; use yyyy-mm-dd, e.g. 2025-12-31` };
  if (to < from) return { ok: false, message: `the end ${to} lies before the start ${from}; swap them` };
  return { ok: true, range: { from, to } };
}

/**
 * Text typed at the `y` prompt: "2025", "2025-01-01..2025-06-30" or
 * "2025-01-01 2025-06-30", optionally followed by "vs" and a comparison range ("2025 vs 2024").
 */
export function parseRangeInput(input: string): RangeResult {
  const [main, compare, ...more] = input.trim().split(/\s+vs\.?\s+/i);
  if (more.length > 0) return { ok: false, message: 'give one comparison, e.g. 2025 vs 2024' };
  const r = parseOne(main ?? '');
  if (!r.ok || compare === undefined) return r;
  const c = parseOne(compare);
  if (!c.ok) return { ok: false, message: `comparison: ${c.message}` };
  return { ok: true, range: { ...r.range, compare: c.range } };
}

/** One range: a year, or from..to. */
function parseOne(input: string): RangeResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'type a year such as 2025, or from..to such as 2025-01-01..2025-06-30' };
  const parts = text.split(/\s*\.\.\s*|\s+/).filter((p) => p !== '');
  if (parts.length === 1) return parseYear(parts[0]!);
  if (parts.length === 2) return parsePair(parts[0]!, parts[1]!);
  return { ok: false, message: `"${text}" is neither a year nor from..to; e.g. 2025 or 2025-01-01..2025-06-30` };
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
  const c = rangeLabel(r.compare);
  return `${flags} ${c.length === 4 ? `--compare ${c}` : `--compare-from ${r.compare.from} --compare-to ${r.compare.to}`}`;
}

export function rangeKey(r: DateRange): string {
  return `${r.from}..${r.to}${r.compare ? ` vs ${r.compare.from}..${r.compare.to}` : ''}`;
}
