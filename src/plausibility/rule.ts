// The one interface every plausibility rule implements. A rule reads the Property's figures
// and devices and says what it found; the review (property.ts) runs the list in rules.ts and
// knows no rule by name. A rule declares its codes and their severity itself (`codes`). Pure: no fs, network or process in a rule.
import type { CodeDeclaration, Flag, FlagCode } from '../billing/types.js';
import type { CurrentFigure, DeviceFact, Figure, OtherLength, PlausibilityRow, ReviewOptions } from './types.js';

/** What the rules read: one Property in the period being billed and, where given, the comparison period. */
export interface RuleContext {
  /** The period being billed, as billing gave it. */
  figures: readonly CurrentFigure[];
  /** The same by figureKey. */
  current: ReadonlyMap<string, CurrentFigure>;
  /** The comparison period by figureKey; null without a comparison. */
  comparison: ReadonlyMap<string, Figure> | null;
  /** Every figure of either period: the rows of plausibility.csv, in their order. */
  keys: readonly string[];
  devices: readonly DeviceFact[];
  opts: ReviewOptions;
  /** Whether the comparison speaks of this figure (a folder written without plant-points.csv does not of the plant's). */
  compared: (f: Figure) => boolean;
  /** The comparison was of another number of months than the billed period: none (`comparison` null). */
  otherLength: OtherLength | null;
}

export interface Finding {
  code: FlagCode;
  /** The finding review.csv lists; null where one finding stands for several rows (a unit new with all its figures). */
  flag: Flag | null;
  /** figureKeys of the plausibility.csv rows whose checks name the code (a figure rule: exactly one). */
  marks: readonly string[];
}

/** The plausibility.csv columns a rule may fill for a row (the others are the figure's own). */
export type RuleColumns = Partial<Pick<PlausibilityRow, 'comparison_value' | 'comparison_status' | 'change_percent' | 'value_per_m2' | 'median_per_m2'>>;

export interface RuleResult {
  findings: Finding[];
  columns?: ReadonlyMap<string, RuleColumns>;
}

export interface PlausibilityRule<C extends CodeDeclaration = CodeDeclaration> {
  /** The codes the rule raises and their severity: rules.ts adds them to the catalogue of findings. */
  codes: C;
  /**
   * What a finding is about: one figure (a unit's metric or a plant point), the whole Property,
   * or one device. review.csv lists the figure findings row by row, then the others rule by rule.
   */
  scope: 'figure' | 'property' | 'device';
  check(ctx: RuleContext): RuleResult;
}
