// What a feature of the export contributes to the run, behind one interface, so the driver
// (stage.ts) names none of them: the list is built in src/export/steps/index.ts. Every part
// is optional; the driver calls the steps in the list's order, and that order is the order of
// their findings in review.csv and of their changes to a row.
import type { ApiClient } from '../../api/contracts.js';
import type { MeasuringPoint, UnitConsumption, UsageUnit } from '../../api/types.js';
import type { PropertyAnswers } from '../../api/walk.js';
import type { FindingPlace } from '../../billing/findings.js';
import type { PropertyBill } from '../../billing/property.js';
import type { BillingRow, Flag, ReadingRow, SegmentRow, Severity } from '../../billing/types.js';
import type { Reporter } from '../progress.js';
import type { TableName } from '../output/index.js';
import type { Template } from '../output/index.js';

/** A Property as the driver has billed it: the answers (with what the steps fetched), its bill and the range. */
export interface BilledProperty {
  answers: PropertyAnswers;
  bill: PropertyBill;
  range: { from: string; to: string };
}

/**
 * Changes to the rows of the tables every export writes. A row keeps its columns and may
 * gain some (unit references add erp_ref, labels the names beside the ids).
 */
export interface RowShape {
  billing?(rows: readonly BillingRow[]): BillingRow[];
  segments?(rows: readonly SegmentRow[]): SegmentRow[];
  /** A reading's change may depend on its point only (stream.ts checks the rows written early by each point's first). */
  readings?(rows: readonly ReadingRow[]): ReadingRow[];
  /** The Overview's units. */
  units?(units: readonly UsageUnit[]): UsageUnit[];
  /** Where a finding is, by name (review.csv, the Overview's marks). */
  place?(f: Flag): FindingPlace;
}

/** The same changes while a Property's units are written as they come (stream.ts), one unit after another. */
export interface EarlyShape extends RowShape {
  /** The unit whose rows are shaped next; `refused`: its copies billing did not accept (refusedCopies). */
  unit?(unit: UsageUnit, consumption: UnitConsumption, refused: (unitId: string | null, pointId: string) => boolean): void;
  /** true: this unit's readings, and all after them, wait for the Property's end. */
  holdsReadings?(consumption: UnitConsumption): boolean;
}

/** A row of a step's own that marks Overview cells when its checks ask for action (overview-marks.ts). */
export interface MarkingRow {
  usage_unit_id: string | null;
  metric: string;
  checks: readonly string[];
}

/** What a step found in one Property. */
export interface StepFindings {
  /** Rows for the step's own tables, written before review.csv. */
  tables?: [TableName, readonly object[]][];
  /** Findings for review.csv, after billing's own. */
  flags?: readonly Flag[];
  marks?: readonly MarkingRow[];
}

/** Lines of the About sheet: `facts` after the run's own (what went into the export), `checks` after all facts. */
export interface AboutLines {
  facts?: [string, string | number][];
  checks?: [string, string | number][];
}

export interface ExportStep {
  /** The template as this export writes it (a table left out, a column added). */
  template?(template: Template): Template;
  /** The units the progress bar counts, given those the Property lists say (null: not known). */
  progressUnits?(units: number | null): number | null;
  /** Says before the walk what the step will cost. */
  announce?(reporter: Reporter, unitsHint: number | null): void;
  /** More requests per Property after its walk; what it adds is journaled with the answers. */
  fetch?(api: ApiClient, answers: PropertyAnswers, progress: { onUnit: () => void; stop: AbortSignal }): Promise<PropertyAnswers>;
  /** Row changes for one Property, at its end. */
  shape?(p: BilledProperty): RowShape;
  /**
   * Row changes for a Property's units written as they come, the same as `shape` gives for
   * those rows; `points`: its point list. A step with `shape` but no `early` writes no unit early.
   */
  early?(property: { id: string; name: string }, points: readonly MeasuringPoint[]): EarlyShape;
  findings?(p: BilledProperty): StepFindings;
  /** Findings known only once every Property is written. */
  finish?(): Flag[];
  /** Findings counted but not listed in review.csv (beyond a cap), so the summary's counts stay true (round 27). */
  unlisted?(): { code: string; severity: Severity; count: number }[];
  about?(): AboutLines;
}

/** The steps' changes as one: each table's rows through every step in order. */
export function composeShapes(shapes: readonly RowShape[]): Shape {
  const pipe =
    <R>(pick: (s: RowShape) => ((rows: readonly R[]) => R[]) | undefined) =>
    (rows: readonly R[]): R[] =>
      shapes.reduce<R[]>((out, s) => pick(s)?.call(s, out) ?? out, rows as R[]);
  const placed = shapes.find((s) => s.place);
  return {
    billing: pipe((s) => s.billing),
    segments: pipe((s) => s.segments),
    readings: pipe((s) => s.readings),
    units: pipe((s) => s.units),
    ...(placed ? { place: (f: Flag) => placed.place!(f) } : {}),
  };
}

/** Every step's row changes as one (composeShapes). */
export type Shape = Required<Omit<RowShape, 'place'>> & Pick<RowShape, 'place'>;
export type Early = Shape & Required<Pick<EarlyShape, 'unit' | 'holdsReadings'>>;

export function composeEarly(shapes: readonly EarlyShape[]): Early {
  return {
    ...composeShapes(shapes),
    unit: (unit, consumption, refused) => shapes.forEach((s) => s.unit?.(unit, consumption, refused)),
    holdsReadings: (consumption) => shapes.some((s) => s.holdsReadings?.(consumption) === true),
  };
}
