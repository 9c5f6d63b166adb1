// The plausibility review inside an export: the comparison period fetched with each
// Property (and journaled with it, so a resumed run fetches nothing twice) or read from
// an earlier export folder, then src/plausibility's checks on every billed Property:
// plausibility.csv, its findings and the Overview cells they mark, its settings on the
// About sheet.
import type { MeasuringPointConsumption, MeasuringPoint, UnitConsumption, UsageUnit, WhoAmI } from '../../../api/types.js';
import { ExitCode, MeterdataError, isMeterdataError } from '../../../core/errors.js';
import { currentFigures, devicesOf, reviewProperty, type PlausibilityRow } from '../../../plausibility/index.js';
import { flagTitles } from '../../../billing/texts-findings.js';
import { loadComparisonFolder, type FolderComparison } from '../../folder/index.js';
import type { PropertyAnswers } from '../../../api/walk.js';
import { expectedRange, type ExportArgs } from '../../options/index.js';
import type { ExportStep } from '../../pipeline/index.js';
import type { ReviewArgs } from '../../options/index.js';
import { mapPool } from '../../../api/walk.js';
import { checkPlantPeriod, contractRange, onePeriod } from '../../../api/answers.js';
import type { Range } from '../../../core/dates.js';
import { day, inLanguage, language, type Lang } from '../../../i18n/index.js';
import { aboutTexts } from '../../output/index.js';
import { plausibilityTexts as pt } from './texts.js';
import { comparisonFor } from './same-length.js';
import { comparedFigures } from './compared-figures.js';

/** The comparison period's answers for the same units and plant points. */
export interface ComparisonAnswers {
  range: { from: string; to: string };
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  plantPoints: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

/** What the journal stores per Property when a comparison period is fetched. */
export type AnswersWithComparison = PropertyAnswers & { comparison?: ComparisonAnswers };

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

const sameRange = (a: Range, b: Range): boolean => a.from === b.from && a.to === b.to;

/**
 * The About sheet's comparison period: the months the Properties were compared with, as the service answered for
 * each; where they differ, each with its count. Where none was compared, the months asked for (`fetched`, the
 * clock's expectation) are named as such: given bare, they read as months compared.
 */
function comparedMonths(fetched: Range, compared: readonly { range: Range; n: number }[]): string {
  const t = aboutTexts;
  const range = (r: Range) => t.range({ from: day(r.from), to: day(r.to) });
  if (compared.length === 0) return t.comparisonNone({ range: range(fetched) });
  if (compared.length === 1) return range(compared[0]!.range);
  const sorted = [...compared].sort((a, b) => (a.range.from + a.range.to < b.range.from + b.range.to ? -1 : 1));
  return t.comparisonByProperty({ ranges: sorted.map((c) => t.rangeOf({ range: range(c.range), n: c.n })).join('; ') });
}

/**
 * The step of a review (index.ts without one): the comparison period fetched with each
 * Property or read from a folder, loaded (and checked) before anything is fetched.
 */
export async function reviewStep(args: ExportArgs, review: ReviewArgs, who: WhoAmI): Promise<ExportStep> {
  const compare = review.compare;
  const folder: FolderComparison | null =
    compare && 'dir' in compare ? await loadComparisonFolder(compare.dir, who, expectedRange(args.from, args.to, new Date())) : null;
  const asked = compare && 'from' in compare ? compare : null;
  const requested = { from: args.from, to: args.to };
  // what the comparison will be beside the period the service is expected to answer (announce, About sheet);
  // each Property's own answer decides it (comparisonFor in fetch)
  const fetched = asked ? comparisonFor(asked, requested, expectedRange(args.from, args.to, new Date())) : null;
  // whether those months follow the clock's expectation rather than the request (this year's, capped): then said so
  const expected = asked !== null && fetched !== null && !sameRange(fetched, comparisonFor(asked, requested, requested));
  // the comparison periods the Properties were compared with, and how many of each (the About sheet, written after the walk)
  const compared = new Map<string, { range: Range; n: number }>();

  return {
    // each unit twice when the comparison is fetched
    progressUnits: (hint) => (hint !== null && fetched ? hint * 2 : hint),
    announce(reporter, hint) {
      if (!fetched) return;
      const more = hint === null ? pt.perUnit : pt.requests({ n: hint });
      const minutes = hint === null ? '' : pt.minutes({ minutes: Math.max(1, Math.ceil(hint / args.rateLimit)), rate: args.rateLimit });
      reporter.note(pt.announce({ from: day(fetched.from), to: day(fetched.to), expected: expected ? pt.expected : '', more, minutes }));
    },
    async fetch(api, answers, { onUnit, stop }): Promise<AnswersWithComparison> {
      if (!asked) return answers;
      const own = answers.units[0]?.consumption;
      // a Property without units has no answer of its own period: the one the export bills it for without units (stage.ts)
      const target = comparisonFor(asked, requested, own ? { from: own.from, to: own.to } : expectedRange(args.from, args.to, new Date()));
      const query = { from: target.from, to: target.to, ...(args.metrics.length ? { metrics: args.metrics } : {}) };
      const [units, plantPoints] = await comparisonRequests(
        target,
        Promise.all([
          mapPool(
            answers.units,
            8,
            async ({ unit }) => {
              const consumption = await api.unitConsumption(unit.id, query);
              onUnit();
              return { unit, consumption };
            },
            stop,
          ),
          mapPool(answers.plantPoints, 8, async ({ point }) => ({ point, consumption: await api.pointReadings(point.id!, target) }), stop),
        ]),
      );
      // one comparison period for every unit, as the export's own period (EXPORT_PERIOD_CHANGED)
      const echo = onePeriod(answers.property.name, units, target);
      // the readings of its plant-room meters too (their answers echo no period: their readings' dates)
      for (const { consumption } of plantPoints) checkPlantPeriod(answers.property.name, consumption, echo ?? contractRange(target, new Date()));
      return { ...answers, comparison: { range: echo ?? target, units, plantPoints } };
    },
    findings({ answers, bill, range }) {
      const ids = { id: answers.property.id, name: answers.property.name };
      const c = (answers as AnswersWithComparison).comparison;
      const { comparison, compared: speaksOf, otherLength } = comparedFigures(answers, range, c, folder, args.metrics);
      if (c && comparison) {
        const key = `${c.range.from}..${c.range.to}`;
        compared.set(key, { range: c.range, n: (compared.get(key)?.n ?? 0) + 1 });
      }
      const current = currentFigures(
        bill,
        ids,
        answers.units.map((u) => u.unit),
        range,
      );
      const input = { current, devices: devicesOf(bill), comparison, ...(speaksOf ? { compared: speaksOf } : {}), ...(otherLength ? { otherLength } : {}) };
      const { rows, flags } = reviewProperty(input, { threshold: review.threshold, range });
      return { tables: [['plausibility', withFindings(rows, language())]], flags, marks: rows };
    },
    about() {
      const t = aboutTexts;
      const checks: [string, string][] = [];
      if (fetched) checks.push([t.comparisonPeriod, comparedMonths(fetched, [...compared.values()])]);
      if (folder) checks.push([t.comparisonFolder, `${folder.dir} (${t.range({ from: day(folder.range.from), to: day(folder.range.to) })})`]);
      if (folder && !folder.plantPoints) checks.push([t.plantNotCompared, t.plantNotComparedWhy]);
      if (compare) checks.push([t.threshold, review.threshold]);
      return { checks };
    },
  };
}
