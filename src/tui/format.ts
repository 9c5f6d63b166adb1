// Pure text helpers for the screens: fitting text to a width, numbers, addresses
// and the monthly series behind the bar chart. No Ink here, so all of it is
// testable without rendering.
import type { Address, MeasuringPointConsumption, ReadingStatus } from '../api/types.js';
import { segmentBreaks } from '../billing/contract.js';
import { representable } from '../billing/plausible.js';
import { terminalSafe } from '../core/terminal-text.js';
import { day, language, num } from '../i18n/index.js';
import { rangeLabel, shortRangeLabel, type DateRange } from './range.js';
import { t } from './texts.js';
import { s } from './texts-screens.js';

export { statusMark } from './words.js';

/** Cuts text to `width` columns, marking the cut with an ellipsis; control characters from the server are shown escaped. */
export function fit(raw: string, width: number): string {
  if (width <= 0) return '';
  const text = terminalSafe(raw);
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width === 1) return '…';
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** Breaks text into lines of at most `width` columns at spaces (Ink's own wrap keeps a leading space). */
export function wordWrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of terminalSafe(text).split(/\s+/).filter(Boolean)) {
    if (line && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Fits and pads to exactly `width` columns (right-aligned with align 'right'). */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = fit(text, width);
  const pad = ' '.repeat(Math.max(0, width - [...t].length));
  return align === 'left' ? t + pad : pad + t;
}

/** A quantity for people: at most 2 decimals, no trailing zeros, no exponent; German with a decimal comma. */
export function qty(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '–';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  const rounded = Math.round(n * 100) / 100;
  const text = rounded.toFixed(2).replace(/\.?0+$/, '') || '0';
  return language() === 'de' ? num(Number(text)) : text;
}

/** A number as the contract sends it (a factor, a share), in the reader's notation. */
export function plain(value: number | string | null | undefined): string {
  const n = Number(value);
  return value === null || value === undefined || value === '' || !Number.isFinite(n) ? String(value) : num(n);
}

/** A period for people: "2025", "2025-01-01..2025-06-30", "2025 vs 2024"; German dates dd.mm.yyyy. */
export function periodText(r: DateRange): string {
  if (language() !== 'de') return rangeLabel(r);
  const one = (x: { from: string; to: string }) => rangeLabel(x).replace(/\d{4}-\d{2}-\d{2}/g, (d) => day(d));
  return `${one({ from: r.from, to: r.to })}${r.compare ? ` ${t.vs} ${one(r.compare)}` : ''}`;
}

/** The header's short form ("2025", "2025-03..2025-05"); German months mm.yyyy. */
export function shortPeriodText(r: DateRange): string {
  if (language() !== 'de') return shortRangeLabel(r);
  const one = (x: { from: string; to: string }) =>
    shortRangeLabel(x)
      .replace(/\d{4}-\d{2}-\d{2}/g, (d) => day(d))
      .replace(/(\d{4})-(\d{2})(?!\d)/g, '$2.$1');
  return `${one({ from: r.from, to: r.to })}${r.compare ? ` ${t.vs} ${one(r.compare)}` : ''}`;
}

/** "2025-01-01..2025-12-31" as the service answered it; German dd.mm.yyyy. */
export function spanText(r: { from: string; to: string }): string {
  return `${day(r.from)}..${day(r.to)}`;
}

/** At most 4 columns, for the value row under the chart: 412, 1.2k, 12.3, 0.56. */
export function compact(n: number): string {
  const a = Math.abs(n);
  if (a >= 9999.5) return `${Math.round(n / 1000)}k`.slice(0, 4);
  if (a >= 999.5) return `${(n / 1000).toFixed(1)}k`;
  if (a >= 99.5) return String(Math.round(n));
  if (a === 0) return '0';
  // 50.0 → 50, 1.50 → 1.5: no zeros that say nothing
  const text = a >= 9.95 ? n.toFixed(1) : n.toFixed(2);
  return text.replace(/\.?0+$/, '');
}

/** compact() in the reader's notation: "1,2T" in German. */
export function compactText(n: number): string {
  const text = compact(n);
  return language() === 'de' ? text.replace('.', ',').replace(/k$/, s.thousand) : text;
}

export function addressLine(a: Address | undefined): string {
  if (!a) return '';
  return `${a.street} ${a.house_number}${a.house_number_addition ?? ''}, ${a.postal_code} ${a.city}`;
}

export function addressesLine(list: Address[]): string {
  if (list.length === 0) return s.noAddress;
  const first = addressLine(list[0]);
  return list.length > 1 ? `${first} (+${list.length - 1})` : first;
}

export interface MonthPoint {
  /** yyyy-mm */
  month: string;
  status: ReadingStatus | null;
  /** Consumption within the month (value difference x factor), or null when it cannot be told. */
  use: number | null;
}

/** Month keys yyyy-mm from the range's first to its last month. */
export function monthsOf(range: DateRange): string[] {
  const out: string[] = [];
  let y = Number(range.from.slice(0, 4));
  let m = Number(range.from.slice(5, 7));
  const end = range.to.slice(0, 7);
  for (let i = 0; i < 600; i++) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    if (key > end) break;
    out.push(key);
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

const BILLABLE_READING = new Set(['measured', 'calculated', 'substituted']);
const STATUS_WEIGHT: Record<string, number> = { measured: 0, calculated: 1, substituted: 1, missing: 3, calibration_expired: 4 };

/**
 * Monthly consumption of a point, from the month-end readings of its device
 * segments: each month's value minus the one before (the segment's baseline for
 * its first month), times the K-factor. A month after a missing value has no
 * known start, so it shows no bar rather than a catch-up spike. A month with two
 * segments (a replacement) adds both parts and shows the worse status. A point
 * whose segments break the contract charts no month at all.
 */
export function monthlySeries(point: MeasuringPointConsumption, range: DateRange): MonthPoint[] {
  const byMonth = new Map<string, MonthPoint>();
  // Segments billing refuses (a device twice, overlapping windows: src/billing/contract.ts) would add up one register's months.
  const refused = segmentBreaks(point, range).length > 0;
  for (const seg of refused ? [] : (point.segments ?? [])) {
    // A number billing refuses as no meter's (IMPLAUSIBLE_VALUE) draws no bar either, nor the month after it.
    const factor = representable(seg.factor ?? 1) ? (seg.factor ?? 1) : NaN;
    let prev: number | null = representable(seg.baseline_value) ? seg.baseline_value : null;
    for (const r of seg.readings ?? []) {
      const month = r.at.slice(0, 7);
      const shown = representable(r.value);
      const ok = BILLABLE_READING.has(r.status) && shown;
      const use = ok && prev !== null && !Number.isNaN(factor) ? (r.value - prev) * factor : null;
      prev = ok || (shown && r.status === 'calibration_expired') ? r.value : null;
      const had = byMonth.get(month);
      if (!had) {
        byMonth.set(month, { month, status: r.status, use });
        continue;
      }
      const worse = (STATUS_WEIGHT[r.status] ?? 2) > (STATUS_WEIGHT[had.status ?? ''] ?? 2) ? r.status : had.status;
      byMonth.set(month, { month, status: worse, use: had.use === null || use === null ? null : had.use + use });
    }
    // A device removed between month ends: its last stretch (last reading to the
    // removal-day end value) belongs to the removal month, next to its successor's start.
    const last = seg.readings?.at(-1);
    const pc = seg.period_consumption;
    if (seg.deinstalled_at && pc && last && last.at < seg.deinstalled_at) {
      const month = seg.deinstalled_at.slice(0, 7);
      const ok = BILLABLE_READING.has(pc.status) && representable(pc.end_value);
      const use = ok && prev !== null && !Number.isNaN(factor) ? (pc.end_value - prev) * factor : null;
      const had = byMonth.get(month);
      byMonth.set(month, had ? { month, status: had.status, use: had.use === null || use === null ? null : had.use + use } : { month, status: pc.status, use });
    }
  }
  return monthsOf(range).map((month) => byMonth.get(month) ?? { month, status: null, use: null });
}

const BLOCKS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** Two-row vertical bar for `value` out of `max`: [top, bottom], each one block character. */
export function bar(value: number | null, max: number): [string, string] {
  if (value === null || max <= 0 || value <= 0) return [' ', value === 0 ? '▁' : ' '];
  const level = Math.max(1, Math.round((value / max) * 16));
  const bottom = BLOCKS[Math.min(8, level)]!;
  const top = BLOCKS[Math.max(0, level - 8)]!;
  return [top, bottom];
}

/**
 * The breadcrumb fitted to `width`: middle crumbs are cut first (down to "…"),
 * then the first; the last one (where the user is) is cut only when nothing else is left.
 */
export function fitCrumbs(crumbs: string[], width: number, sep = ' › '): string {
  const parts = [...crumbs];
  const len = () => [...parts.join(sep)].length;
  const order = [...parts.keys()].slice(1, -1).concat(parts.length > 1 ? [0] : []);
  for (const i of order) {
    const over = len() - width;
    if (over <= 0) break;
    const chars = [...parts[i]!].length;
    parts[i] = fit(parts[i]!, Math.max(1, chars - over));
  }
  return fit(parts.join(sep), width);
}
