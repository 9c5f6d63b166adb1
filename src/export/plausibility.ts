// The plausibility review inside an export: the comparison period fetched with each
// Property (and journaled with it, so a resumed run fetches nothing twice) or read from
// an earlier export folder, then src/plausibility's checks on every billed Property.
import type { ApiClient } from '../api/contracts.js';
import type { MeasuringPointConsumption, MeasuringPoint, UnitConsumption, UsageUnit, WhoAmI } from '../api/types.js';
import { billProperty, type PropertyBill } from '../billing/index.js';
import { ExitCode, MeterdataError, isMeterdataError } from '../core/errors.js';
import { currentFigures, devicesOf, figuresOf, reviewProperty, type Figure, type PlausibilityRow, type ReviewResult } from '../plausibility/index.js';
import { flagTitles } from '../billing/texts-findings.js';
import { loadComparisonFolder, type FolderComparison } from './compare-folder.js';
import type { PropertyAnswers } from '../api/walk.js';
import { expectedRange, type ExportArgs } from './options.js';
import type { Reporter } from './progress.js';
import { mapPool } from '../api/walk.js';
import { day, inLanguage, type Lang } from '../i18n/index.js';
import { aboutTexts } from './output/index.js';
import { plausibilityTexts as pt } from './texts-plausibility.js';

/** The comparison period's answers for the same units and plant points. */
export interface ComparisonAnswers {
  range: { from: string; to: string };
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  plantPoints: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

/** What the journal stores per Property when a comparison period is fetched. */
export type AnswersWithComparison = PropertyAnswers & { comparison?: ComparisonAnswers };

export interface Plausibility {
  /** Units the progress bar counts: each unit twice when the comparison is fetched. */
  progressUnits(hint: number | null): number | null;
  /** Says before the walk what the comparison costs. */
  announce(reporter: Reporter, unitsHint: number | null): void;
  /** The answers plus the comparison period's, when it is fetched. */
  fetch(api: ApiClient, answers: PropertyAnswers, onUnit: () => void, stop?: AbortSignal): Promise<AnswersWithComparison>;
  review(answers: AnswersWithComparison, bill: PropertyBill, range: { from: string; to: string }): ReviewResult;
  /** Rows of the About sheet, in the run's language. */
  about(): [string, string][];
}


/** A range the service refuses for the comparison period names the comparison flags, not --year/--from/--to. */
async function comparisonRequests<T>(range: { from: string; to: string }, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!isMeterdataError(e) || e.exitCode !== ExitCode.USAGE) throw e;
    throw new MeterdataError(pt.refused({ from: range.from, to: range.to, message: e.message }), {
      code: e.code,
      exitCode: e.exitCode,
      hint: pt.refusedHint,
      cause: e,
    });
  }
}

/**
 * plausibility.csv's `findings`: the title of each code in `checks`, in the run's language,
 * so the file reads without a list of codes beside it (review.csv has its messages). A code
 * this version has no title for stays as it is.
 */
export function withFindings(rows: readonly PlausibilityRow[], lang: Lang): (PlausibilityRow & { findings: string })[] {
  const titles = inLanguage(flagTitles, lang) as Record<string, string>;
  return rows.map((r) => ({ ...r, findings: r.checks.map((c) => (Object.hasOwn(titles, c) ? titles[c]! : c)).join('; ') }));
}

/** null without a review; loads (and checks) a comparison folder before anything is fetched. */
export async function startPlausibility(args: ExportArgs, who: WhoAmI): Promise<Plausibility | null> {
  const review = args.review;
  if (!review) return null;
  const compare = review.compare;
  const folder: FolderComparison | null = compare && 'dir' in compare ? await loadComparisonFolder(compare.dir, who, expectedRange(args.from, args.to, new Date())) : null;
  const fetched = compare && 'from' in compare ? compare : null;
  const query = fetched ? { from: fetched.from, to: fetched.to, ...(args.metrics.length ? { metrics: args.metrics } : {}) } : null;

  return {
    progressUnits: (hint) => (hint !== null && fetched ? hint * 2 : hint),
    announce(reporter, hint) {
      if (!fetched) return;
      const more = hint === null ? pt.perUnit : pt.requests({ n: hint });
      const minutes = hint === null ? '' : pt.minutes({ minutes: Math.max(1, Math.ceil(hint / args.rateLimit)), rate: args.rateLimit });
      reporter.note(pt.announce({ from: day(fetched.from), to: day(fetched.to), more, minutes }));
    },
    async fetch(api, answers, onUnit, stop) {
      if (!fetched || !query) return answers;
      const [units, plantPoints] = await comparisonRequests(fetched, Promise.all([
        mapPool(answers.units, 8, async ({ unit }) => {
          const consumption = await api.unitConsumption(unit.id, query);
          onUnit();
          return { unit, consumption };
        }, stop),
        mapPool(answers.plantPoints, 8, async ({ point }) => ({ point, consumption: await api.pointReadings(point.id!, fetched) }), stop),
      ]));
      const echo = units[0]?.consumption;
      return { ...answers, comparison: { range: echo ? { from: echo.from, to: echo.to } : fetched, units, plantPoints } };
    },
    review(answers, bill, range) {
      const { property } = answers;
      const ids = { id: property.id, name: property.name };
      let comparison: Figure[] | null = null;
      if (folder) comparison = folder.byProperty.get(property.id) ?? [];
      else if (answers.comparison) {
        const c = answers.comparison;
        comparison = figuresOf(billProperty({ property: ids, range: c.range, units: c.units, plantPoints: c.plantPoints, points: answers.points }), ids);
      }
      const current = currentFigures(bill, ids, answers.units.map((u) => u.unit), range);
      return reviewProperty({ current, devices: devicesOf(bill), comparison }, { threshold: review.threshold, range });
    },
    about() {
      const t = aboutTexts;
      const rows: [string, string][] = [];
      if (fetched) rows.push([t.comparisonPeriod, t.range({ from: day(fetched.from), to: day(fetched.to) })]);
      if (folder) rows.push([t.comparisonFolder, `${folder.dir} (${t.range({ from: day(folder.range.from), to: day(folder.range.to) })})`]);
      if (compare) rows.push([t.threshold, review.threshold]);
      return rows;
    },
  };
}
