// One Property, fetched: billed, its rows shaped by the steps, the steps' findings, then the
// tables written (what its stream wrote early stays where it is what the bill writes first).
import type { PropertyAnswers } from '../../api/walk.js';
import { billProperty, reviewRows, type PropertyBill } from '../../billing/index.js';
import type { Flag } from '../../billing/types.js';
import { language } from '../../i18n/index.js';
import type { OutputSet } from '../output/index.js';
import { overviewMarks } from '../overview-marks.js';
import { composeShapes, type ExportStep, type StepFindings } from './step.js';
import { narrowToUnit } from './one-unit.js';
import { NOTHING_WRITTEN, type PropertyStream } from './stream.js';

export interface WrittenProperty {
  /** The answers as written: narrowed to one unit by `onlyUnit`. */
  answers: PropertyAnswers;
  bill: PropertyBill;
  /** Every finding of the Property: billing's, then the steps' in their order. */
  flags: Flag[];
}

/**
 * `onlyUnit`: the Property is billed and reviewed whole, then only that unit's rows and findings are written (one-unit.ts).
 * `metrics`: the metrics asked for (--metric; empty: all), so a listed meter of another is not missing from the answers.
 */
export async function writeProperty(
  output: OutputSet,
  steps: readonly ExportStep[],
  whole: PropertyAnswers,
  range: { from: string; to: string },
  stream: PropertyStream | undefined,
  onlyUnit?: string,
  metrics: readonly string[] = [],
): Promise<WrittenProperty> {
  const { property } = whole;
  const wholeBill = billProperty(
    {
      property: { id: property.id, name: property.name, usage_unit_count: property.usage_unit_count },
      range,
      units: whole.units,
      plantPoints: whole.plantPoints,
      points: whole.points,
      metrics,
    },
    stream?.earlyBill,
  );
  const wholeFound: StepFindings[] = steps.flatMap((s) => (s.findings ? [s.findings({ answers: whole, bill: wholeBill, range })] : []));
  const { answers, bill, found } = onlyUnit
    ? narrowToUnit(onlyUnit, { answers: whole, bill: wholeBill, found: wholeFound })
    : { answers: whole, bill: wholeBill, found: wholeFound };
  const billed = { answers, bill, range };
  const shape = composeShapes(steps.flatMap((s) => (s.shape ? [s.shape(billed)] : [])));
  const written = stream ? await stream.settle(bill, shape) : NOTHING_WRITTEN;
  const billing = shape.billing(bill.billing.slice(written.billing));
  await output.write('billing', billing);
  await output.write('segments', shape.segments(bill.segments.slice(written.segments)));
  await output.write('readings', shape.readings(bill.readings.slice(written.readings)));
  await output.write('plant-points', bill.plant);
  for (const [table, rows] of found.flatMap((f) => f.tables ?? [])) await output.write(table, rows);
  const flags = [...bill.flags, ...found.flatMap((f) => f.flags ?? [])];
  await output.write('review', reviewRows(flags, language(), shape.place));
  const units = shape.units(answers.units.map((u) => u.unit).filter((u) => !written.units.has(u.id)));
  const marks = overviewMarks(
    flags,
    (f) => shape.place?.(f) ?? { metric: null },
    found.flatMap((f) => f.marks ?? []),
  );
  await output.addOverview(billing, property, units, marks);
  return { answers, bill, flags };
}
