// The plausibility review in the browser: a Property's bundle against the same Property
// over the comparison range, with the export's checks (src/plausibility) and its default threshold.
import type { Flag } from '../billing/types.js';
import { language } from '../i18n/index.js';
import { DEFAULT_THRESHOLD } from '../export/options/index.js';
import { currentFigures, devicesOf, figuresOf, reviewProperty, type PlausibilityRow } from '../plausibility/index.js';
import type { BillResult } from './data.js';
import type { DateRange } from './range.js';
import { s } from './texts-screens.js';

export interface BundleReview {
  /** The comparison range the service answered for. */
  compare: DateRange;
  rows: PlausibilityRow[];
  flags: Flag[];
}

interface Billed {
  property: { id: string; name: string };
  effective: DateRange;
  units: { unit: { id: string; area_heated_m2?: number | null; area_ww_m2?: number | null } }[];
  bill: BillResult;
}

export function reviewBundle(current: Billed, previous: Billed): BundleReview {
  const ids = { id: current.property.id, name: current.property.name };
  const figures = currentFigures(
    current.bill,
    ids,
    current.units.map((u) => u.unit),
    current.effective,
  );
  const comparison = figuresOf(previous.bill, ids);
  const { rows, flags } = reviewProperty(
    { current: figures, devices: devicesOf(current.bill), comparison },
    { threshold: DEFAULT_THRESHOLD, range: current.effective },
  );
  return { compare: previous.effective, rows, flags };
}

/** "+43.7 %", "-3.1 %", or why there is no change. */
export function changeText(r: PlausibilityRow): string {
  if (r.comparison_status === 'not_billed') return s.notBilledThen;
  if (r.comparison_status === 'absent') return s.noDataThen;
  if (r.change_percent === null) return r.comparison_value === '0' ? s.wasZero : '';
  // The review's own digits (one decimal), with the reader's decimal mark.
  const digits = language() === 'de' ? r.change_percent.replace('.', ',') : r.change_percent;
  return `${r.change_percent.startsWith('-') ? '' : '+'}${digits} %`;
}
