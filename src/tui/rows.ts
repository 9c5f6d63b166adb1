// The lines a screen shows, as plain data: a row is a list of styled spans plus
// what Enter opens and which flags `i` explains. Screens build rows with the
// functions in screens-*.ts; the list component only draws and scrolls them.
import type { Flag, Severity } from '../billing/types.js';
import { FLAG_SEVERITY } from '../findings/index.js';
import { h } from './texts-screens.js';

export interface Span {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

export type Target =
  | { kind: 'property'; propertyId: string }
  | { kind: 'unit'; propertyId: string; unitId: string }
  | { kind: 'plant'; propertyId: string; pointId: string }
  /** The unit's monthly consumption information (`m` on its screen). */
  | { kind: 'uvi'; propertyId: string; unitId: string };

export interface Row {
  key: string;
  spans: Span[];
  /** What `/` matches against (a whole point block for the lines of a unit). */
  filterText: string;
  /** Headings and chart lines are skipped by the cursor. */
  selectable: boolean;
  open?: Target;
  flags: Flag[];
}

export function row(key: string, spans: Span[], opts: Partial<Omit<Row, 'key' | 'spans'>> = {}): Row {
  return {
    key,
    spans,
    filterText: opts.filterText ?? spans.map((s) => s.text).join(''),
    selectable: opts.selectable ?? true,
    ...(opts.open ? { open: opts.open } : {}),
    flags: opts.flags ?? [],
  };
}

export function heading(key: string, text: string, filterText = ''): Row {
  return row(key, [{ text, bold: true }], { selectable: false, filterText });
}

/** Keeps rows whose filter text contains the query as typed (case-insensitive), so "WE 03" finds just that unit. */
export function filterRows(rows: Row[], query: string): Row[] {
  const q = query.trim().toLowerCase();
  if (q === '') return rows;
  return rows.filter((r) => r.filterText.toLowerCase().includes(q));
}

const SEVERITY_ORDER: Severity[] = ['not_billed', 'review', 'info'];
export const SEVERITY_MARK: Record<Severity, { mark: string; color: string; readonly label: string }> = {
  not_billed: {
    mark: '!',
    color: 'red',
    get label() {
      return h.notBilled;
    },
  },
  review: {
    mark: '?',
    color: 'yellow',
    get label() {
      return h.review;
    },
  },
  info: {
    mark: 'i',
    color: 'cyan',
    get label() {
      return h.info;
    },
  },
};

export function severityOf(f: Flag): Severity {
  return f.severity ?? FLAG_SEVERITY[f.code] ?? 'review';
}

export function worstSeverity(flags: Flag[]): Severity | null {
  for (const s of SEVERITY_ORDER) if (flags.some((f) => severityOf(f) === s)) return s;
  return null;
}

/** "3!" — the count and the worst severity's mark, so it reads without colour. */
export function flagCountSpan(flags: Flag[] | null): Span {
  if (flags === null) return { text: '…', dim: true };
  const worst = worstSeverity(flags);
  if (!worst) return { text: '0', dim: true };
  const m = SEVERITY_MARK[worst];
  return { text: `${flags.length}${m.mark}`, color: m.color };
}
