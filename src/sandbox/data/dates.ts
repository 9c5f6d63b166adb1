// Calendar arithmetic on ISO dates (yyyy-MM-dd strings, which also sort correctly).
// A "month index" is year * 12 + (month - 1).

export type IsoDate = string;

export const mi = (y: number, m: number): number => y * 12 + (m - 1);
export const miOf = (d: IsoDate): number => mi(Number(d.slice(0, 4)), Number(d.slice(5, 7)));
export const dayOf = (d: IsoDate): number => Number(d.slice(8, 10));
export const daysIn = (m: number): number => new Date(Date.UTC(Math.floor(m / 12), (m % 12) + 1, 0)).getUTCDate();
export const monthEnd = (m: number): IsoDate => iso(Math.floor(m / 12), (m % 12) + 1, daysIn(m));
export const monthStart = (m: number): IsoDate => iso(Math.floor(m / 12), (m % 12) + 1, 1);
export const calendarMonth = (m: number): number => (m % 12) + 1;

function iso(y: number, m: number, d: number): IsoDate {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Parses a strict yyyy-MM-dd calendar date; undefined when malformed or not a real day. */
export function parseIsoDate(s: string): IsoDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(mi(y, mo))) return undefined;
  return s;
}

/** The month index of the last completed month at `now` (UTC). */
export function lastCompletedMonth(now: Date): number {
  return mi(now.getUTCFullYear(), now.getUTCMonth() + 1) - 1;
}
