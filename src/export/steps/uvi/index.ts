// The monthly consumption information (§ 6a HeizkostenV, docs/uvi.md) as a step of the
// export's driver: per Property the pure core (src/uvi: propertyUvi) on the answers the walk
// fetched for the 13 months, and its rows for the template of its own tables (uviTemplate):
// uvi.csv, review.csv and the letters, which its formats write (formats.ts: CSV, uvi.json, PDF).
import type { Flag, Severity } from '../../../billing/types.js';
import type { Lang } from '../../../i18n/index.js';
import { classifyPlant, propertyUvi } from '../../../uvi/index.js';
import { absentPoints, namedByUvi, removedPoints } from '../../../uvi/absent.js';
import { shownFinding, uviVerdict } from '../../../uvi/verdict.js';
import { plantMetersOf, type UviInputs } from '../../../uvi/inputs/index.js';
import { letterModel } from '../../../uvi/letter/model.js';
import { UVI_FILES, uviColumns, uviReviewRows, uviRows, type PortalProperty, type UviTable } from '../../../uvi/portal/index.js';
import type { Template } from '../../output/index.js';
import type { BilledProperty, ExportStep } from '../../pipeline/index.js';
import { LETTERS_TABLE, letterName, REVIEW_TABLE, UVI_TABLE, type LetterFileRow } from './formats.js';

export { letterName, uviFormats } from './formats.js';

export interface UviStepOptions {
  inputs: UviInputs;
  /** The layout of uvi.csv and review.csv (--template). */
  layout: 'generic' | 'de';
  /** The letters' and review.csv's language (--lang). */
  lang: Lang;
  /** The ERP's unit number (--unit-refs), null without one. */
  erpRef: (unitId: string) => string | null;
  /** Unknown values in the answers billing does not read, as the export's unknown-values step finds them (given by the steps list). */
  unknownValues: (answers: BilledProperty['answers'], billed: readonly Flag[]) => Flag[];
}

/** What a monthly run counts beyond the export's tally. */
export interface UviCounts {
  letters: number;
  /** Units with no letter or an incomplete one (review.csv, without the Property's own lines). */
  incomplete: number;
  /** The lines in review.csv of the Property written last (its progress line). */
  reviewRows: number;
  /** review.csv's lines per code, every Property's: the manifest's and the summary's findings (uviFindings). */
  reviewCodes: Record<string, number>;
}

/**
 * The run's findings as the manifest and the summary count them: review.csv's lines, all `review`
 * (a letter to check before it is sent). Billing's findings of the 13 months are in no file of the
 * run; those the uvi acts on are lines of review.csv and counted there.
 */
export function uviFindings(counts: Pick<UviCounts, 'reviewCodes'>): { flags: Record<Severity, number>; codes: Record<string, number> } {
  const review = Object.values(counts.reviewCodes).reduce((a, b) => a + b, 0);
  return { flags: { not_billed: 0, review, info: 0 }, codes: { ...counts.reviewCodes } };
}

/** The export's layout (separator, decimals, dates) with the monthly information's tables in place of the export's. */
export function uviTemplate(base: Template, layout: 'generic' | 'de'): Template {
  const file = (table: UviTable, name: typeof UVI_TABLE) => ({ table: name, file: UVI_FILES[table], sheet: table, columns: uviColumns(table, layout) });
  const letters = { table: LETTERS_TABLE, file: 'letters.pdf', sheet: 'letters', columns: [] };
  return { ...base, name: `uvi-${layout}`, files: [file('uvi', UVI_TABLE), file('uvi-review', REVIEW_TABLE), letters] };
}

function portalOf({ answers, bill }: BilledProperty, o: UviStepOptions): PortalProperty {
  const { inputs } = o;
  const { property } = answers;
  const verdict = uviVerdict(bill);
  const result = propertyUvi({
    refused: verdict.refused,
    absent: absentPoints(answers.points, answers.units),
    removed: removedPoints(answers.points),
    property_id: property.id,
    months: inputs.months,
    units: answers.units,
    plant: classifyPlant(answers.plantPoints, plantMetersOf(inputs.plantMeters, property.id)),
    benchmark: inputs.benchmark,
    wwTemperature: inputs.wwTemperature,
  });
  const units = new Map(answers.units.map((u) => [u.unit.id, u.unit]));
  return {
    property: { id: property.id, name: property.name },
    month: inputs.month,
    units: result.units.map((uvi) => ({ unit: units.get(uvi.usage_unit_id)!, erpRef: o.erpRef(uvi.usage_unit_id), uvi })),
    findings: result.findings,
  };
}

export function uviStep(o: UviStepOptions): ExportStep & { counts: UviCounts } {
  const { inputs } = o;
  const counts: UviCounts = { letters: 0, incomplete: 0, reviewRows: 0, reviewCodes: {} };
  return {
    counts,
    template: (t) => uviTemplate(t, o.layout),
    findings(billed) {
      const { answers, bill } = billed;
      const portal = portalOf(billed, o);
      // Billing's findings the uvi acts on, and unknown values as the export's unknown-values step finds them.
      const twice = namedByUvi(absentPoints(answers.points, answers.units));
      const shown = [...bill.flags, ...o.unknownValues(answers, bill.flags)].filter((f) => shownFinding(f) && !twice(f));
      const review = uviReviewRows(portal, o.lang, shown);
      counts.reviewRows = review.length;
      for (const r of review) counts.reviewCodes[r.code] = (counts.reviewCodes[r.code] ?? 0) + 1;
      counts.incomplete += new Set(review.filter((r) => r.letter !== 'check').map((r) => r.usage_unit_id)).size;
      const units = new Map(answers.units.map((u) => [u.unit.id, u.unit]));
      // A unit with neither heating nor warm water gets no letter (review.csv says so).
      const lettered = portal.units.filter((u) => u.uvi.services.some((s) => s.service !== 'COLD_WATER'));
      const combined = letterName('letters', [portal.property.name], portal.property.id);
      const letters = lettered.map((u, i): LetterFileRow => {
        const unit = units.get(u.unit.id)!;
        const model = letterModel({
          property: portal.property,
          address: unit.address,
          unit,
          erpRef: u.erpRef,
          month: inputs.month,
          uvi: u.uvi,
          benchmarkSource: inputs.benchmark.source,
          wwTemperature: inputs.wwTemperature,
          lang: o.lang,
        });
        return { file: letterName('letter', [portal.property.name, unit.name], unit.id), combined, model, last: i === lettered.length - 1 };
      });
      counts.letters += letters.length;
      return {
        tables: [
          [UVI_TABLE, uviRows(portal)],
          [REVIEW_TABLE, review],
          [LETTERS_TABLE, letters],
        ],
      };
    },
  };
}
