// Calendar months of the monthly consumption information (§ 6a HeizkostenV): the 13 months
// ending with the letter's month, so that the previous month and the same month a year
// earlier fall inside one request. Pure.
import { lastDay } from '../core/dates.js';

/** A calendar month, yyyy-mm. */
export type Month = string;

const MONTH = /^(\d{4})-(\d{2})$/;

function parts(month: Month): [number, number] {
  const m = MONTH.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new RangeError(`Not a month: ${month}`);
  return [Number(m[1]), Number(m[2])];
}

const pad = (n: number) => String(n).padStart(2, '0');

export function addMonths(month: Month, n: number): Month {
  const [y, m] = parts(month);
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${pad((i % 12) + 1)}`;
}

/** The last day of the month, yyyy-mm-dd: the date of its month-end reading. */
export function monthEnd(month: Month): string {
  const [y, m] = parts(month);
  return `${month}-${pad(lastDay(y, m))}`;
}

export function daysIn(month: Month): number {
  const [y, m] = parts(month);
  return lastDay(y, m);
}

export function daysInYear(month: Month): number {
  const [y] = parts(month);
  return lastDay(y, 2) === 29 ? 366 : 365;
}

/** 1 for January … 12 for December. */
export function monthNumber(month: Month): number {
  return parts(month)[1];
}

/** The 13 months ending with `month`, oldest first. */
export function thirteenMonths(month: Month): Month[] {
  return Array.from({ length: 13 }, (_, i) => addMonths(month, i - 12));
}

/** The range to ask the consumption endpoint for: the first day of the first month to the last day of the last. */
export function rangeOf(months: readonly Month[]): { from: string; to: string } {
  return { from: `${months[0]}-01`, to: monthEnd(months[months.length - 1]!) };
}
