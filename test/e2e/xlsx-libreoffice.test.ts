// billing.xlsx read by another program: LibreOffice converts every sheet back to CSV, and
// each table sheet must hold exactly the values of the matching CSV file.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { requireTool } from '../helpers/tools.js';
import { runCli } from '../helpers/run-cli.js';

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
  expect(sheets).toEqual(['About', 'Overview', 'billing', 'plant-points', 'readings', 'review', 'segments'].map((s) => `billing-${s}.csv`).sort());

  const lines = async (f: string) => (await readFile(f, 'utf8')).replace(/\r\n/g, '\n').trimEnd().split('\n');
  for (const table of ['billing', 'segments', 'readings', 'plant-points', 'review']) {
    const fromXlsx = await lines(path.join(conv, `billing-${table}.csv`));
    const fromCsv = await lines(path.join(out, `${table}.csv`));
    expect(fromXlsx.length, table).toBe(fromCsv.length);
    for (let i = 0; i < fromCsv.length; i++) expect(fromXlsx[i], `${table}.csv line ${i + 1}`).toBe(fromCsv[i]);
  }

  const about = Object.fromEntries((await lines(path.join(conv, 'billing-About.csv'))).map((l) => l.split(/,(.*)/s).slice(0, 2)));
  expect(about['Contract version']).toBe('1.0.0-rc.3');
  expect(Number(about.Units)).toBe(summary.counts.units);
  expect(about.From).toBe('2025-01-01');
  const overview = await lines(path.join(conv, 'billing-Overview.csv'));
  expect(overview[0]).toContain('heat (kWh)');
  expect(overview.length - 1).toBe(summary.counts.units); // one row per unit, also without points
}, 180_000);
