// The workbook shows every finding that asks for action where it applies (docs/export.md,
// "Findings in the workbook"): read back from the written billing.xlsx with exceljs and
// checked against review.csv and plausibility.csv of the same export.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valueWord } from '../../src/billing/texts-values.js';
import type { FlagCode } from '../../src/billing/types.js';
import { FLAG_SEVERITY } from '../../src/findings/index.js';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let out: string;

beforeAll(async () => {
  const at = await signedIn({ homePrefix: 'md-marks-' });
  sandbox = at.sandbox;
  const { home, env } = at;
  out = path.join(home, 'out');
  const r = await runCli(['export', '--year', '2025', '--compare', '2024', '--out', out], { env, cwd: home });
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(async () => sandbox?.close());

async function table(file: string): Promise<Record<string, string>[]> {
  const [head, ...rows] = parseCsv(await readFile(path.join(out, file), 'utf8'), ',').filter((r) => r.some(Boolean));
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
}

const marked = (c: ExcelJS.Cell) => (c.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb === 'FFFFE08A';
const asksAction = (code: string) => Object.hasOwn(FLAG_SEVERITY, code) && FLAG_SEVERITY[code as FlagCode] !== 'info';

async function sheet(name: string): Promise<{ head: string[]; rows: ExcelJS.Row[] }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
  const ws = wb.getWorksheet(name)!;
  const rows: ExcelJS.Row[] = [];
  ws.eachRow((row, n) => void (n > 1 && rows.push(row)));
  return { head: (ws.getRow(1).values as string[]).slice(1), rows };
}

describe('findings in the workbook', () => {
  it('every not_billed or review finding about a unit marks its figure (or the unit’s name) in the Overview', async () => {
    const { head, rows } = await sheet('Overview');
    const col = (h: string) => head.indexOf(h) + 1;
    const rowOf = new Map(rows.map((r) => [String(r.getCell(col('usage_unit_id')).value), r]));
    const plausibility = await table('plausibility.csv');
    const units = new Map((await table('billing.csv')).map((b) => [`${b.usage_unit_id} ${b.metric}`, b.unit]));
    const findings = (await table('review.csv')).filter((f) => f.severity !== 'info' && f.usage_unit_id);
    // a Property-wide finding names its rows in plausibility.csv
    const rowFindings = plausibility
      .filter((p) => p.usage_unit_id && p.checks!.split('|').some(asksAction))
      .map((p) => ({ usage_unit_id: p.usage_unit_id!, metric: p.metric!, code: p.checks }));
    expect(findings.some((f) => f.code === 'CALIBRATION_ENDED' || f.code === 'CONSUMPTION_CHANGE')).toBe(true);
    let cells = 0;
    for (const f of [...findings, ...rowFindings]) {
      const row = rowOf.get(f.usage_unit_id!)!;
      const unit = units.get(`${f.usage_unit_id} ${f.metric}`);
      const h = f.metric && unit ? `${valueWord('metric', f.metric, 'en')} (${valueWord('unit', unit, 'en')})` : null;
      const cell = h ? row.getCell(col(h)) : row.getCell(col('usage_unit_name'));
      expect(marked(cell), `${f.code} ${f.usage_unit_id} ${h ?? 'unit name'}`).toBe(true);
      cells++;
    }
    expect(cells).toBeGreaterThan(40);
    // information alone marks nothing: a unit whose every finding is info has no marked cell
    const action = new Set([...findings, ...rowFindings].map((f) => f.usage_unit_id));
    const billingMarked = new Set((await table('billing.csv')).filter((b) => b.review_flags!.split('|').some(asksAction)).map((b) => b.usage_unit_id));
    const quiet = rows.filter(
      (r) => !action.has(String(r.getCell(col('usage_unit_id')).value)) && !billingMarked.has(String(r.getCell(col('usage_unit_id')).value)),
    );
    expect(quiet.length).toBeGreaterThan(0);
    for (const r of quiet) r.eachCell((c) => expect(marked(c), `${r.getCell(col('usage_unit_name')).value}`).toBe(false));
  });

  it('marks each table row whose findings ask for action, and no other', async () => {
    for (const [name, column] of [
      ['billing', 'review_flags'],
      ['segments', 'review_flags'],
      ['plausibility', 'checks'],
    ] as const) {
      const { head, rows } = await sheet(name);
      const at = head.indexOf(column) + 1;
      let n = 0;
      for (const r of rows) {
        const codes = String(r.getCell(at).value ?? '')
          .split('|')
          .filter(Boolean);
        const want = codes.some(asksAction);
        n += want ? 1 : 0;
        expect(marked(r.getCell(1)), `${name} row ${r.number}: ${codes.join('|')}`).toBe(want);
        expect(marked(r.getCell(head.length)), `${name} row ${r.number}: last cell`).toBe(want);
      }
      expect(n, name).toBeGreaterThan(0);
    }
  });
});
