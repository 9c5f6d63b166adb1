// billing.xlsx read by another program: LibreOffice converts every sheet back to CSV, and
// each table sheet must hold exactly the values of the matching CSV file (its columns
// ordered names first, the contract's codes as words); a German workbook opens too.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { valueWord, type ValueKind } from '../../src/billing/texts-values.js';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { TABLE_COLUMNS, type TableName } from '../../src/export/tables.js';
import { parseCsv } from '../../src/plausibility/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { requireTool } from '../helpers/tools.js';
import { runCli } from '../helpers/run-cli.js';
import { assertBuilt, runBin } from '../helpers/bin.js';

let sandbox: Sandbox | undefined;
afterAll(async () => sandbox?.close());

// Filter options: comma, double quote, UTF-8, from line 1, raw values (not "as shown"),
// and sheet -1: every sheet to <name>-<sheet>.csv (LibreOffice 7.2 and later).
const CSV_ALL_SHEETS = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1';

it('every sheet of billing.xlsx converts back to the values of its CSV file', async (ctx) => {
  requireTool(ctx, 'soffice', 'reads billing.xlsx back as an independent spreadsheet program');
  sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22' });
  const home = await mkdtemp(path.join(os.tmpdir(), 'md-lo-'));
  const env = { METERDATA_HOME: home };
  await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: AbortSignal.timeout(30_000) });
  const out = path.join(home, 'out');
  const r = await runCli(['export', '--year', '2025', '--out', out, '--json'], { env, cwd: home });
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(r.stdout);

  const conv = path.join(home, 'converted');
  await promisify(execFile)('soffice', ['--headless', `-env:UserInstallation=file://${home}/lo-profile`, '--convert-to', CSV_ALL_SHEETS, '--outdir', conv, path.join(out, 'billing.xlsx')], { timeout: 120_000 });
  const sheets = (await readdir(conv)).sort();
  expect(sheets).toEqual(['About', 'Overview', 'billing', 'plant-points', 'plausibility', 'readings', 'review', 'segments'].map((s) => `billing-${s}.csv`).sort());

  const lines = async (f: string) => (await readFile(f, 'utf8')).replace(/\r\n/g, '\n').trimEnd().split('\n');
  const records = async (f: string) => parseCsv((await readFile(f, 'utf8')).trimEnd(), ',');
  for (const table of ['billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility'] as TableName[]) {
    const [xHead, ...fromXlsx] = await records(path.join(conv, `billing-${table}.csv`));
    const [cHead, ...fromCsv] = await records(path.join(out, `${table}.csv`));
    expect([...xHead!].sort(), table).toEqual([...cHead!].sort());
    expect(xHead!.findIndex((h) => h.endsWith('_id')), table).toBeGreaterThan(xHead!.findLastIndex((h) => !h.endsWith('_id'))); // ids last
    expect(fromXlsx.length, table).toBe(fromCsv.length);
    const word = (key: string, v: string) => {
      const type = TABLE_COLUMNS[table][key]!;
      return type.startsWith('value:') && v !== '' ? valueWord(type.slice(6) as ValueKind, v, 'en') : v;
    };
    for (let i = 0; i < fromCsv.length; i++) {
      const csvRow = Object.fromEntries(cHead!.map((h, j) => [h, word(h, fromCsv[i]![j]!)]));
      expect(Object.fromEntries(xHead!.map((h, j) => [h, fromXlsx[i]![j]])), `${table}.csv line ${i + 2}`).toEqual(csvRow);
    }
  }

  const about = Object.fromEntries((await lines(path.join(conv, 'billing-About.csv'))).map((l) => l.split(/,(.*)/s).slice(0, 2)));
  expect(about['Contract version']).toBe('1.0.0-rc.3');
  expect(Number(about.Units)).toBe(summary.counts.units);
  expect(about.From).toBe('2025-01-01');
  const overview = await lines(path.join(conv, 'billing-Overview.csv'));
  expect(overview[0]).toContain('heat (kWh)');
  expect(overview.length - 1).toBe(summary.counts.units); // one row per unit, also without points

  // The same export in German by the built binary (the workbook written in its worker
  // thread, which must speak the run's language too): LibreOffice opens it.
  assertBuilt();
  const deOut = path.join(home, 'out-de');
  const de = await runBin(['export', '--year', '2025', '--lang', 'de', '--format', 'xlsx', '--out', deOut], env, { cwd: home });
  expect(de.code, de.stderr).toBe(0);
  const deConv = path.join(home, 'converted-de');
  await promisify(execFile)('soffice', ['--headless', `-env:UserInstallation=file://${home}/lo-profile`, '--convert-to', CSV_ALL_SHEETS, '--outdir', deConv, path.join(deOut, 'billing.xlsx')], { timeout: 120_000 });
  expect((await readdir(deConv)).sort()).toEqual(['Ablesewerte', 'Abrechnung', 'Hauptzähler', 'Info', 'Plausibilität', 'Prüfhinweise', 'Segmente', 'Übersicht'].map((s) => `billing-${s}.csv`).sort());
  const deOverview = await lines(path.join(deConv, 'billing-Übersicht.csv'));
  expect(deOverview[0]).toContain('Wärme (kWh)');
  expect(deOverview.length - 1).toBe(summary.counts.units);
  expect((await lines(path.join(deConv, 'billing-Info.csv'))).join('\n')).toContain('Von,01.01.2025');
}, 240_000);
