// Which cells of the workbook's Overview a finding marks. The Overview is where an
// accountant reads a unit's figures, so every finding that asks for action (not billed,
// review) shows there: a finding about a unit and a metric marks that figure's cell, one
// about the unit as a whole (a new unit, a missing ERP reference) the unit's name. The
// billing rows' own flags already mark their cells (output.ts); these are the findings
// known only at a Property's end: the plausibility review's, the ERP references', and the
// Property-wide ones that name their rows in plausibility.csv (ESTIMATED_AREA_HIGH).
// Information (info) marks nothing: it needs no action, and would colour most cells.
import type { FindingPlace } from '../billing/findings.js';
import { BILLING_SEVERITY, type Flag, type Severity } from '../billing/types.js';
import { RULE_SEVERITY } from '../plausibility/index.js';

/** A unit's marked metrics; null: the unit as a whole (its name cell). */
export type OverviewMarks = [unit: string, metric: string | null][];

/** One line of the marks spool: a Property's marks, written at its end. */
export interface PropertyMarks {
  property_id: string;
  marks: OverviewMarks;
}

// A table's findings column (review_flags, checks) holds billing's codes and the plausibility
// rules'; a step's own codes are review.csv's alone, and the catalogue (src/findings) sits above.
const COLUMN_SEVERITY: Readonly<Record<string, Severity>> = { ...BILLING_SEVERITY, ...RULE_SEVERITY };

/** A code whose findings ask for action: not billed or review (a code this version does not know: no). */
export const asksAction = (code: string): boolean => Object.hasOwn(COLUMN_SEVERITY, code) && COLUMN_SEVERITY[code] !== 'info';

/**
 * The marks of one Property: each finding with a unit (its metric from where it is, see
^ * steps/places/), and each plausibility row of a unit whose checks ask for action.
 */
export function overviewMarks(
  flags: readonly Flag[],
  place: (f: Flag) => Pick<FindingPlace, 'metric'>,
  rows: readonly { usage_unit_id: string | null; metric: string; checks: readonly string[] }[] = [],
): OverviewMarks {
  const seen = new Set<string>();
  const out: OverviewMarks = [];
  const add = (unit: string, metric: string | null) => {
    const k = JSON.stringify([unit, metric]);
    if (!seen.has(k)) (out.push([unit, metric]), seen.add(k));
  };
  for (const f of flags) if (f.usage_unit_id !== null && f.severity !== 'info') add(f.usage_unit_id, place(f).metric);
  for (const r of rows) if (r.usage_unit_id !== null && r.checks.some(asksAction)) add(r.usage_unit_id, r.metric);
  return out;
}

/**
 * Reads the marks spool alongside the Overview's rows: both are in Property order, one
 * marks line per Property, so only the current Property's marks are held.
 */
export class MarksReader {
  private current: { property_id: string; byUnit: Map<string, Set<string | null>> } | null = null;
  private done = false;

  constructor(private readonly lines: AsyncIterator<unknown> | null) {}

  /** The marks of `unit` in `property` (empty when none). */
  async of(property: string, unit: string): Promise<ReadonlySet<string | null>> {
    while (this.current?.property_id !== property && !this.done && this.lines) {
      const next = await this.lines.next();
      if (next.done) {
        this.done = true;
        this.current = null;
        break;
      }
      const p = next.value as PropertyMarks;
      const byUnit = new Map<string, Set<string | null>>();
      for (const [u, m] of p.marks) byUnit.set(u, (byUnit.get(u) ?? new Set()).add(m));
      this.current = { property_id: p.property_id, byUnit };
    }
    return (this.current?.property_id === property ? this.current.byUnit.get(unit) : undefined) ?? new Set();
  }
}
