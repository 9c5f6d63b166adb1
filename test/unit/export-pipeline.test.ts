// The export's driver (src/export/pipeline) with steps it does not know: what a step
// contributes (requests, row changes, findings, About lines, progress units) reaches the
// files through the one interface, so another run (the monthly information) can bring its own.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PropertyAnswers } from '../../src/api/walk.js';
import { makeFlag } from '../../src/findings/index.js';
import { finishExport, stagePipeline, type ExportDeps, type ExportStep, type RowShape } from '../../src/export/pipeline/index.js';
import { T0, dataset, fakeApi, reporter, setup } from '../helpers/export-fixtures.js';

type Tagged = PropertyAnswers & { tag?: string };
const scope = (property_id: string) => ({ property_id, usage_unit_id: null, measuring_point_id: null, device_id: null });
const lines = async (out: string, file: string) => (await readFile(path.join(out, file), 'utf8')).split('\r\n').filter(Boolean);

async function aboutOf(out: string): Promise<unknown[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
  return wb
    .getWorksheet('About')!
    .getSheetValues()
    .filter(Boolean)
    .map((r) => (r as unknown[]).slice(1));
}

/** Renames each unit in billing.csv, at a Property's end and as its units come (unless `early` is false). */
function renaming(suffix: string, early = true): ExportStep {
  const shape: RowShape = { billing: (rows) => rows.map((r) => ({ ...r, usage_unit_name: `${r.usage_unit_name} ${suffix}` })) };
  return { shape: () => shape, ...(early ? { early: () => shape } : {}) };
}

describe('the export pipeline with steps of its own', () => {
  it("runs a step's requests once per Property (journaled: a resumed run asks only for the rest), its findings after billing's and at the end, its About lines and progress units", async () => {
    const s = await setup();
    const asked: string[] = [];
    const begun: (number | null)[] = [];
    const step: ExportStep = {
      progressUnits: (n) => (n === null ? null : n * 3),
      async fetch(_api, answers) {
        asked.push(answers.property.name);
        return { ...answers, tag: `tag of ${answers.property.name}` } as Tagged;
      },
      findings: ({ answers }) => ({ flags: [makeFlag('UNIT_REF_MISSING', scope(answers.property.id), { erp_ref: (answers as Tagged).tag ?? 'none' })] }),
      finish: () => [makeFlag('UNIT_REF_UNKNOWN', scope(''), { erp_ref: 'at the end', lines: '1' })],
      about: () => ({ checks: [['Step check', 'on']], facts: [['Step fact', 1]] }),
    };
    const second: ExportStep = { about: () => ({ facts: [['Second fact', 2]], checks: [['Second check', 'off']] }) };
    const deps = (failAt?: number): ExportDeps => ({
      api: fakeApi(dataset(), { ...(failAt === undefined ? {} : { failAt }) }).api,
      ...s,
      reporter: { ...reporter(), begin: (_p, units) => void begun.push(units) },
      toolVersion: 't',
      now: () => T0,
    });

    await expect(stagePipeline(deps(2), async () => [step, second])).rejects.toThrow();
    expect(asked).toEqual(['Haus 1', 'Haus 2']);
    const summary = await finishExport(await stagePipeline(deps(), async () => [step, second]));
    expect(asked).toEqual(['Haus 1', 'Haus 2', 'Haus 3']);
    expect(begun).toEqual([18, 18]);

    const review = await lines(s.args.out, 'review.csv');
    const ours = review.filter((l) => l.includes('UNIT_REF_'));
    // each Property's finding saw what the step fetched for it, also those read back from the journal
    expect(ours.map((l) => /tag of Haus \d|at the end/.exec(l)?.[0])).toEqual(['tag of Haus 1', 'tag of Haus 2', 'tag of Haus 3', 'at the end']);
    expect(review.indexOf(ours.at(-1)!)).toBe(review.length - 1);
    expect(summary.codes).toMatchObject({ UNIT_REF_MISSING: 3, UNIT_REF_UNKNOWN: 1 });

    const about = await aboutOf(s.args.out);
    const labels = about.map((r) => r[0]);
    // every step's facts, then every step's checks, after the run's own lines
    expect(about.slice(-4)).toEqual([
      ['Step fact', 1],
      ['Second fact', 2],
      ['Step check', 'on'],
      ['Second check', 'off'],
    ]);
    expect(labels.indexOf('Step fact')).toBeGreaterThan(labels.indexOf('Tenant'));
  });

  it("passes each table's rows through the steps in their order, also the rows written as the units come", async () => {
    for (const streamUnits of [true, false]) {
      const s = await setup();
      await finishExport(
        await stagePipeline({ api: fakeApi(dataset()).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0, streamUnits }, async () => [
          renaming('A'),
          renaming('B'),
        ]),
      );
      const units = (await lines(s.args.out, 'billing.csv')).filter((l) => l.includes(',WE '));
      expect(units.length).toBe(6);
      expect(
        units.filter((l) => !/,WE \d A B,/.test(l)),
        `streamUnits ${streamUnits}`,
      ).toEqual([]);
    }
  });

  it('writes no unit early for a step that changes rows only at the Property end, so every row is changed', async () => {
    const s = await setup();
    await finishExport(
      await stagePipeline({ api: fakeApi(dataset()).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }, async () => [renaming('late', false)]),
    );
    const units = (await lines(s.args.out, 'billing.csv')).filter((l) => l.includes(',WE '));
    expect(units.length).toBe(6);
    expect(units.filter((l) => !/,WE \d late,/.test(l))).toEqual([]);
  });
});
