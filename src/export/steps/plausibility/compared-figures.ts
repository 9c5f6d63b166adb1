// Which comparison figures apply to one Property: those of the fetched comparison period or of
// the earlier export folder, or none where the two periods are not of as many months. Pure.
import type { PropertyAnswers } from '../../../api/walk.js';
import { billProperty } from '../../../billing/index.js';
import { idKey } from '../../../billing/contract.js';
import type { Range } from '../../../core/dates.js';
import { figuresOf, type Figure, type OtherLength } from '../../../plausibility/index.js';
import { checkFolderCovers, type FolderComparison } from '../../folder/index.js';
import type { ComparisonAnswers } from './review.js';
import { otherLength } from '../../../core/dates.js';
import { checkSameLength } from './same-length.js';

export interface AppliedComparison {
  /** The comparison's figures; null: none (no comparison, or one of another number of months). */
  comparison: Figure[] | null;
  /** Which figures the comparison speaks of; absent: all. */
  compared?: (f: Figure) => boolean;
  /** Not compared for another number of months (a Property without units): the review says why. */
  otherLength?: OtherLength;
}

/** Whether `metric` is one of the export's (`--metric`; none given: all). */
const covered = (metrics: readonly string[], metric: string): boolean => metrics.length === 0 || metrics.includes(metric);

/**
 * The comparison figures for `answers`' Property billed for `range` (the period the service answered for),
 * from the fetched comparison `c` or the folder. Throws where the comparison cannot be one.
 */
export function comparedFigures(
  answers: PropertyAnswers,
  range: Range,
  c: ComparisonAnswers | undefined,
  folder: FolderComparison | null,
  metrics: readonly string[],
): AppliedComparison {
  const { property } = answers;
  const ids = { id: property.id, name: property.name };
  // a folder narrowed (--property) to other Properties than this one is refused
  if (folder) checkFolderCovers(folder, property);
  // the period the service answered for beside the comparison's: as many months, or no comparison
  // (a Property without units is billed for the period of those before it, which its own comparison,
  // fetched before, may not match: its plant meters are then not compared rather than the export refused)
  const theirs = c ? c.range : (folder?.range ?? null);
  const other = theirs !== null ? otherLength(range, theirs) : null;
  if (other) {
    if (answers.units.length > 0) checkSameLength(range, theirs!);
    return { comparison: null, otherLength: { property_id: property.id, ...other } };
  }
  // a folder written without the plant-room and main meters' table says nothing of them: not compared, not new
  const compared = folder && !folder.plantPoints ? { compared: (f: Figure) => f.kind !== 'plant' } : {};
  // a folder covering more metrics than this export (compare-folder.ts refuses one covering fewer): only what both cover
  if (folder) return { comparison: (folder.byProperty.get(idKey(property.id)) ?? []).filter((f) => covered(metrics, f.metric)), ...compared };
  if (!c) return { comparison: null };
  const bill = billProperty({ property: ids, range: c.range, units: c.units, plantPoints: c.plantPoints, points: answers.points, metrics: [...metrics] });
  return { comparison: figuresOf(bill, ids) };
}
