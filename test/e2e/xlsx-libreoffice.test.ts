// billing.xlsx read by another program: LibreOffice converts every sheet back to CSV, and
// each table sheet must hold exactly the values of the matching CSV file (its columns
// ordered names first, the contract's codes as words); a German workbook opens too.
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, expect, it } from 'vitest';
import { valueWord, type ValueKind } from '../../src/billing/texts-values.js';
import { TABLE_COLUMNS, type TableName } from '../../src/export/output/tables.js';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { requireTool } from '../helpers/tools.js';
import { runCli } from '../helpers/run-cli.js';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { signedIn, type SignedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox | undefined;
afterAll(async () => sandbox?.close());

/** A fresh home signed in to the file's one sandbox, started by whichever test comes first. */
async function signedInHome(prefix: string): Promise<SignedIn> {
  const at = await signedIn({ at: sandbox, homePrefix: prefix });
  sandbox = at.sandbox;
  return at;
}

// Filter options: comma, double quote, UTF-8, from line 1, raw values (not "as shown"),
// and sheet -1: every sheet to <name>-<sheet>.csv (LibreOffice 7.2 and later).
const CSV_ALL_SHEETS = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1';

it('every sheet of billing.xlsx converts back to the values of its CSV file', async (ctx) => {
  requireTool(ctx, 'soffice', 'reads billing.xlsx back as an independent spreadsheet program');
  const { home, env } = await signedInHome('md-lo-');
  const out = path.join(home, 'out');
  const r = await runCli(['export', '--year', '2025', '--out', out, '--json'], { env, cwd: home });
  expect(r.code, r.stderr).toBe(0);
  const summary = JSON.parse(r.stdout);

  const conv = path.join(home, 'converted');
  await promisify(execFile)(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${home}/lo-profile`, '--convert-to', CSV_ALL_SHEETS, '--outdir', conv, path.join(out, 'billing.xlsx')],
    { timeout: 120_000 },
  );
  const sheets = (await readdir(conv)).sort();
  expect(sheets).toEqual(
    ['About', 'Overview', 'billing', 'plant-points', 'plausibility', 'readings', 'review', 'segments'].map((s) => `billing-${s}.csv`).sort(),
  );

  const lines = async (f: string) => (await readFile(f, 'utf8')).replace(/\r\n/g, '\n').trimEnd().split('\n');
  const records = async (f: string) => parseCsv((await readFile(f, 'utf8')).trimEnd(), ',');
  for (const table of ['billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility'] as TableName[]) {
    const [xHead, ...fromXlsx] = await records(path.join(conv, `billing-${table}.csv`));
    const [cHead, ...fromCsv] = await records(path.join(out, `${table}.csv`));
    expect([...xHead!].sort(), table).toEqual([...cHead!].sort());
    expect(
      xHead!.findIndex((h) => h.endsWith('_id')),
      table,
    ).toBeGreaterThan(xHead!.findLastIndex((h) => !h.endsWith('_id'))); // ids last
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
  await promisify(execFile)(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${home}/lo-profile`, '--convert-to', CSV_ALL_SHEETS, '--outdir', deConv, path.join(deOut, 'billing.xlsx')],
    { timeout: 120_000 },
  );
  expect((await readdir(deConv)).sort()).toEqual(
    ['Ablesewerte', 'Abrechnung', 'Hauptzähler', 'Info', 'Plausibilität', 'Prüfhinweise', 'Segmente', 'Übersicht'].map((s) => `billing-${s}.csv`).sort(),
  );
  const deOverview = await lines(path.join(deConv, 'billing-Übersicht.csv'));
  expect(deOverview[0]).toContain('Wärme (kWh)');
  expect(deOverview.length - 1).toBe(summary.counts.units);
  expect((await lines(path.join(deConv, 'billing-Info.csv'))).join('\n')).toContain('Von,01.01.2025');
}, 240_000);

/** Every word of a PDF with its page and box (pdftotext -bbox). */
async function pdfWords(pdf: string): Promise<{ page: number; x: number; y: number; h: number; text: string }[]> {
  const { stdout } = await promisify(execFile)('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 64 << 20 });
  const unescape = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return stdout
    .split('<page ')
    .slice(1)
    .flatMap((page, i) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
        page: i + 1,
        x: Number(m[1]),
        y: Number(m[2]),
        h: Number(m[3]) - Number(m[2]),
        text: unescape(m[4]!),
      })),
    );
}

it('printed (LibreOffice to PDF), no page is below about 7 pt and every finding’s message is there whole', async (ctx) => {
  requireTool(ctx, 'soffice', 'prints billing.xlsx as an independent spreadsheet program');
  requireTool(ctx, 'pdftotext', 'reads the printed pages back');
  const { home, env } = await signedInHome('md-lo-print-');
  const out = path.join(home, 'out');
  const r = await runCli(['export', '--year', '2025', '--compare', '2024', '--lang', 'de', '--template', 'de', '--format', 'xlsx', '--out', out], {
    env,
    cwd: home,
  });
  expect(r.code, r.stderr).toBe(0);
  await promisify(execFile)(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${home}/lo-profile`, '--convert-to', 'pdf', '--outdir', home, path.join(out, 'billing.xlsx')],
    { timeout: 120_000 },
  );
  const words = await pdfWords(path.join(home, 'billing.pdf'));
  // Text of 11 pt at 100 % is about 13 pt high in its box; 8 is about 7 pt (before: Segmente 2.6, Prüfhinweise 3.9)
  const pages = new Map<number, typeof words>();
  for (const w of words) pages.set(w.page, [...(pages.get(w.page) ?? []), w]);
  for (const [page, ws] of pages) {
    const heights = ws.map((w) => w.h).sort((a, b) => a - b);
    expect(heights[Math.floor(heights.length / 2)], `page ${page}`).toBeGreaterThan(8);
  }
  // the Befund column of the Prüfhinweise pages, read top to bottom, holds every message whole
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
  const ws = wb.getWorksheet('Prüfhinweise')!;
  const at = (ws.getRow(1).values as string[]).indexOf('Befund');
  const messages: string[] = [];
  ws.eachRow((row, n) => void (n > 1 && messages.push(String(row.getCell(at).value))));
  let printed = '';
  for (const ws of pages.values()) {
    const head = ws.find((w) => w.text === 'Befund');
    if (!head || !ws.some((w) => w.text === 'Einstufung')) continue;
    printed +=
      ' ' +
      ws
        .filter((w) => w.x >= head.x - 1 && w.y > head.y + 1)
        .sort((a, b) => a.y - b.y || a.x - b.x)
        .map((w) => w.text)
        .join(' ');
  }
  // LibreOffice breaks a line after a hyphen too (WMZ-|82930745)
  const plain = (t: string) => t.replace(/\s+/g, ' ').replace(/- /g, '-').trim();
  expect(messages.length).toBeGreaterThan(100);
  const all = plain(printed);
  for (const m of messages) expect(all.includes(plain(m)), m).toBe(true);
}, 240_000);
