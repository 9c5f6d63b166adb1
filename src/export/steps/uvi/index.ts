// The monthly consumption information (§ 6a HeizkostenV, docs/uvi.md) as a step of the
// export's driver: per Property the pure core (src/uvi: propertyUvi) on the answers the walk
// fetched for the 13 months, its rows for uvi.csv and review.csv (the template of its own
// tables, uviTemplate), and its own files (uvi.json, the letters: own-files.ts).
import type { UsageUnit } from '../../../api/types.js';
import type { Lang } from '../../../i18n/index.js';
import { classifyPlant, propertyUvi, type PropertyUvi } from '../../../uvi/index.js';
import type { UviInputs } from '../../../uvi/inputs/index.js';
import { letterModel, type PdfOptions } from '../../../uvi/letter/index.js';
import { UVI_FILES, uviColumns, uviReviewRows, uviRows, type PortalProperty, type UviTable } from '../../../uvi/portal/index.js';
import type { BilledProperty, ExportStep } from '../../pipeline/index.js';
import type { TableName, Template } from '../../output/index.js';
import { letterName, OwnFiles, type UnitLetter } from './own-files.js';

export { letterName } from './own-files.js';

export interface UviStepOptions {
  inputs: UviInputs;
  /** The layout of uvi.csv and review.csv (--template). */
  layout: 'generic' | 'de';
  /** The letters' and review.csv's language (--lang). */
  lang: Lang;
  out: string;
  /** The letters' fonts and time (SOURCE_DATE_EPOCH or the run's start): the same run gives the same bytes. */
  pdf: () => Promise<Omit<PdfOptions, 'title'>>;
  /** The ERP's unit number (--unit-refs), null without one. */
  erpRef: (unitId: string) => string | null;
}

/** What a monthly run counts beyond the export's tally. */
export interface UviCounts {
  letters: number;
  /** Units with no letter or an incomplete one (review.csv, without the Property's own lines). */
  incomplete: number;
}

/** The export's layout (separator, decimals, dates) with the monthly information's two tables in place of the export's. */
export function uviTemplate(base: Template, layout: 'generic' | 'de'): Template {
  const file = (table: UviTable) => ({ table: table as unknown as TableName, file: UVI_FILES[table], sheet: table, columns: uviColumns(table, layout) });
  return { ...base, name: `uvi-${layout}`, files: [file('uvi'), file('uvi-review')] };
}

export function uviStep(o: UviStepOptions): ExportStep & { counts: UviCounts } {
  const { inputs } = o;
  const own = new OwnFiles(o.out, async () => ({ ...(await o.pdf()), title: '' }));
  const computed = new Map<string, { portal: PortalProperty; units: Map<string, UsageUnit>; rows: object[] }>();
  const counts: UviCounts = { letters: 0, incomplete: 0 };

  const compute = ({ answers }: BilledProperty) => {
    const { property } = answers;
    const result: PropertyUvi = propertyUvi({ property_id: property.id, months: inputs.months, units: answers.units, plant: classifyPlant(answers.plantPoints), benchmark: inputs.benchmark, wwTemperature: inputs.wwTemperature });
    const units = new Map(answers.units.map((u) => [u.unit.id, u.unit]));
    const portal: PortalProperty = {
      property: { id: property.id, name: property.name },
      month: inputs.month,
      units: result.units.map((uvi) => ({ unit: units.get(uvi.usage_unit_id)!, erpRef: o.erpRef(uvi.usage_unit_id), uvi })),
      findings: result.findings,
    };
    const rows = uviRows(portal);
    computed.set(property.id, { portal, units, rows });
    return { portal, rows };
  };

  return {
    counts,
    template: (t) => uviTemplate(t, o.layout),
    findings(p) {
      const { portal, rows } = compute(p);
      const review = uviReviewRows(portal, o.lang);
      counts.incomplete += new Set(review.filter((r) => r.usage_unit_id !== null).map((r) => r.usage_unit_id)).size;
      return { tables: [['uvi' as unknown as TableName, rows], ['uvi-review' as unknown as TableName, review]] };
    },
    async write({ answers }) {
      const { portal, units, rows } = computed.get(answers.property.id)!;
      computed.delete(answers.property.id);
      await own.rows(rows);
      const letters: UnitLetter[] = portal.units
        .filter((u) => u.uvi.services.some((s) => s.service !== 'COLD_WATER'))
        .map((u) => {
          const unit = units.get(u.unit.id)!;
          return {
            name: letterName('letter', [portal.property.name, unit.name], unit.id),
            model: letterModel({ property: portal.property, address: unit.address, unit, erpRef: u.erpRef, month: inputs.month, uvi: u.uvi, benchmarkSource: inputs.benchmark.source, wwTemperature: inputs.wwTemperature, lang: o.lang }),
          };
        });
      await own.property(letterName('letters', [portal.property.name], answers.property.id), letters);
      counts.letters = own.letters;
    },
    files: () => own.close(),
    abort: () => own.abort(),
  };
}
