// The one reader of calendar dates, years and ranges typed by a person: export's and
// browse's flags, the browser's `y` prompt and the sandbox's --clock. Same bounds and
// the same one-line messages everywhere; each names the flag it read (UsageError, exit 2).
import { UsageError } from './errors.js';
import { dateTexts as t } from './texts-dates.js';

/** Years meterdata accepts anywhere: wide enough for any billing period, narrow enough to catch typos like 20250. */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2999;

export interface Range {
  from: string;
  to: string;
}

/** The names of a pair of date flags; null at the `y` prompt, where no flag was typed. */
export type PairNames = readonly [from: string, to: string] | null;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

export function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function example(flag: string): string {
  return /to$/.test(flag) ? '2025-12-31' : '2025-01-01';
}

function inBounds(year: number, what: string, value: string): void {
  if (year < FIRST_YEAR || year > LAST_YEAR)
    throw new UsageError(t.outOfBounds({ what, value, first: FIRST_YEAR, last: LAST_YEAR }), t.dateHint, 'USAGE_BAD_DATE');
}

/** A real calendar date yyyy-mm-dd (2025-02-30 is not one) within the years above; `what` is the flag. */
export function parseDate(value: string, what: string): string {
  const m = DATE.exec(value);
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m || mo < 1 || mo > 12 || d < 1 || d > lastDay(y, mo))
    throw new UsageError(t.notADate({ what, value, example: example(what) }), t.dateHint, 'USAGE_BAD_DATE');
  inBounds(y, what, value);
  return value;
}

/** Four digits within the years above; `example` is how a good value is typed ("--year 2025"). */
export function parseYear(value: string, what: string, exampleText = `${what} 2025`): string {
  if (!/^\d{4}$/.test(value)) throw new UsageError(t.notAYear({ what, value, example: exampleText }), t.dateHint, 'USAGE_BAD_DATE');
  inBounds(Number(value), what, value);
  return value;
}

export function yearRange(year: string | number): Range {
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** Two dates, the second not before the first. */
export function datePair(from: string, to: string, names: PairNames): Range {
  parseDate(from, names?.[0] ?? '');
  parseDate(to, names?.[1] ?? '');
  if (to < from)
    throw new UsageError(
      names ? t.endBeforeStart({ to: names[1], toValue: to, from: names[0], fromValue: from }) : t.reversed({ from, to }),
      t.pairHint,
      'USAGE_BAD_DATE',
    );
  return { from, to };
}

/** A checked pair widened to whole months, as the service does (spec, range rule 1). */
export function wholeMonths(from: string, to: string, names: PairNames): Range {
  datePair(from, to, names);
  const [ty, tm] = [Number(to.slice(0, 4)), Number(to.slice(5, 7))];
  return { from: `${from.slice(0, 8)}01`, to: `${to.slice(0, 8)}${pad(lastDay(ty, tm))}` };
}

/**
 * --year, or --from and --to (checked, not yet widened); null when none is given. export and
 * browse read their period here; `flags` renames them (--compare-from/--compare-to).
 */
export function periodFlags(
  opts: { year?: unknown; from?: unknown; to?: unknown },
  flags: { year: string; from: string; to: string } = { year: '--year', from: '--from', to: '--to' },
): Range | null {
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const [year, from, to] = [str(opts.year), str(opts.from), str(opts.to)];
  if (year !== undefined) {
    if (from !== undefined || to !== undefined) throw new UsageError(t.yearWithRange(flags), t.yearWithRangeHint);
    return yearRange(parseYear(year, flags.year));
  }
  if (from === undefined && to === undefined) return null;
  if (from === undefined) throw new UsageError(t.fromMissing(flags), t.pairHint);
  if (to === undefined) throw new UsageError(t.toMissing(flags), t.pairHint);
  return datePair(from, to, [flags.from, flags.to]);
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The sandbox's --clock: a date (midnight UTC), read like every other date, or a full ISO 8601 timestamp. */
export function parseClock(value: string): Date {
  if (!value.includes('T')) return new Date(`${parseDate(value, '--clock')}T00:00:00Z`);
  const date = new Date(value);
  if (!TIMESTAMP.test(value) || Number.isNaN(date.getTime())) throw new UsageError(t.clockNotADate({ value }), t.clockHint);
  parseDate(value.slice(0, 10), '--clock');
  return date;
}

/** Commander parsers (`.argParser`): the value checked as it is read, the error naming the flag. */
export const dateFlag = (flag: string) => (value: string) => parseDate(value, flag);
export const yearFlag = (flag: string) => (value: string) => parseYear(value, flag);

/** Calendar months a range touches: a leap February is one month like any other, so 2024 and 2025 are both 12. */
export function monthsSpanned(r: Range): number {
  const month = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
  return month(r.to) - month(r.from) + 1;
}

/**
 * `--compare YYYY` (and `vs 2024` at browse's prompt): the same whole months, moved by whole
 * years so that they start in `year` (an export of March to September 2025 against 2024 is
 * compared with March to September 2024; October 2024 to March 2025 against 2023 with October
 * 2023 to March 2024). A whole calendar year gives that whole year, as before. Comparing
 * periods of other lengths reports changes that are none (round 16: 489 CONSUMPTION_CHANGE).
 */
export function sameMonthsIn(period: Range, year: string, names: PairNames): Range {
  const shift = Number(year) - Number(period.from.slice(0, 4));
  const moved = (d: string) => `${String(Number(d.slice(0, 4)) + shift).padStart(4, '0')}${d.slice(4, 8)}01`;
  return wholeMonths(moved(period.from), moved(period.to), names);
}

/**
 * The one rule of a comparison's length, wherever it is checked (--compare-from/--compare-to, a folder's
 * manifest, the `y` prompt, each Property's answer): 7 months beside 12 show every figure as changed
 * (round 16). `answered`: before any request, the period the service is expected to answer for `own`
 * (expectedRange: this year's up to its last completed month), whose length is a comparison too.
 * null when the comparison applies, else both lengths for the caller's words (its flag, folder or prompt).
 */
export function otherLength(own: Range, comparison: Range, answered: Range | null = null): { ours: number; theirs: number } | null {
  const [ours, theirs] = [monthsSpanned(own), monthsSpanned(comparison)];
  return ours === theirs || (answered !== null && theirs === monthsSpanned(answered)) ? null : { ours, theirs };
}
