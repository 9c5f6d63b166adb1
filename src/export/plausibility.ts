// The plausibility review inside an export: the comparison period fetched with each
// Property (and journaled with it, so a resumed run fetches nothing twice) or read from
// an earlier export folder, then src/review's checks on every billed Property.
import type { ApiClient } from '../api/contracts.js';
import type { MeasuringPointConsumption, MeasuringPoint, UnitConsumption, UsageUnit, WhoAmI } from '../api/types.js';
import { billProperty, type PropertyBill } from '../billing/index.js';
import { ExitCode, MeterdataError, isMeterdataError } from '../core/errors.js';
import { currentFigures, devicesOf, figuresOf, reviewProperty, type Figure, type ReviewResult } from '../review/index.js';
import { loadComparisonFolder, type FolderComparison } from './compare-folder.js';
import type { PropertyAnswers } from './journal.js';
import type { ExportArgs } from './options.js';
import type { Reporter } from './progress.js';
import { mapPool } from './walk.js';
import { plural } from '../core/plural.js';

/** The comparison period's answers for the same units and plant points. */
export interface ComparisonAnswers {
  range: { from: string; to: string };
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  plantPoints: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

/** What the journal stores per Property when a comparison period is fetched. */
export type AnswersWithComparison = PropertyAnswers & { comparison?: ComparisonAnswers };

const ABOUT = {
  en: { period: 'Comparison period', folder: 'Comparison with export folder', threshold: 'Review threshold (change in %)' },
  de: { period: 'Vergleichszeitraum', folder: 'Vergleich mit Exportordner', threshold: 'Prüfschwelle (Veränderung in %)' },
};

export interface Plausibility {
  /** Units the progress bar counts: each unit twice when the comparison is fetched. */
  progressUnits(hint: number | null): number | null;
  /** Says before the walk what the comparison costs. */
  announce(reporter: Reporter, unitsHint: number | null): void;
  /** The answers plus the comparison period's, when it is fetched. */
  fetch(api: ApiClient, answers: PropertyAnswers, onUnit: () => void): Promise<AnswersWithComparison>;
  review(answers: AnswersWithComparison, bill: PropertyBill, range: { from: string; to: string }): ReviewResult;
  about(lang: 'en' | 'de'): [string, string][];
}


/** A range the service refuses for the comparison period names the comparison flags, not --year/--from/--to. */
async function comparisonRequests<T>(range: { from: string; to: string }, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!isMeterdataError(e) || e.exitCode !== ExitCode.USAGE) throw e;
    throw new MeterdataError(`Comparison period ${range.from} to ${range.to}: ${e.message}`, {
      code: e.code,
      exitCode: e.exitCode,
      hint: 'Check --compare (or --compare-from/--compare-to): the comparison period must end at or before the last completed month.',
      cause: e,
    });
  }
}

/** null without a review; loads (and checks) a comparison folder before anything is fetched. */
export async function startPlausibility(args: ExportArgs, who: WhoAmI): Promise<Plausibility | null> {
  const review = args.review;
  if (!review) return null;
  const compare = review.compare;
  const folder: FolderComparison | null = compare && 'dir' in compare ? await loadComparisonFolder(compare.dir, who) : null;
  const fetched = compare && 'from' in compare ? compare : null;
  const query = fetched ? { from: fetched.from, to: fetched.to, ...(args.metrics.length ? { metrics: args.metrics } : {}) } : null;

  return {
    progressUnits: (hint) => (hint !== null && fetched ? hint * 2 : hint),
    announce(reporter, hint) {
      if (!fetched) return;
      const more = hint === null ? 'one per unit' : plural(hint, 'request');
      const minutes = hint === null ? null : Math.max(1, Math.ceil(hint / args.rateLimit));
      reporter.note(`comparing with ${fetched.from} to ${fetched.to}: one more consumption request per unit and per plant-room/main meter (${more} for the units${minutes === null ? '' : `, about ${plural(minutes, 'minute')} more at ${args.rateLimit} requests a minute`}).`);
    },
    async fetch(api, answers, onUnit) {
      if (!fetched || !query) return answers;
      const [units, plantPoints] = await comparisonRequests(fetched, Promise.all([
        mapPool(answers.units, 8, async ({ unit }) => {
          const consumption = await api.unitConsumption(unit.id, query);
          onUnit();
          return { unit, consumption };
        }),
        mapPool(answers.plantPoints, 8, async ({ point }) => ({ point, consumption: await api.pointReadings(point.id!, fetched) })),
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
    about(lang) {
      const t = ABOUT[lang];
      const rows: [string, string][] = [];
      if (fetched) rows.push([t.period, `${fetched.from} – ${fetched.to}`]);
      if (folder) rows.push([t.folder, `${folder.dir} (${folder.range.from} – ${folder.range.to})`]);
      if (compare) rows.push([t.threshold, review.threshold]);
      return rows;
    },
  };
}
