// Issue 11's acceptance: a German run shows no English sentence anywhere, and --lang en
// is the English run. The scan looks for every English catalogue phrase (three words or
// more) in what a person reads: stdout, stderr, every command's help, review.csv and
// every text cell of the workbook.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { findEnglish } from '../helpers/catalogues.js';
import { signedIn } from '../helpers/signed-in.js';

const GERMAN = { LANG: 'de_DE.UTF-8' };
const ENGLISH_SHEETS = ['Overview', 'About', 'billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility'];

/** Sheet names and every text cell of a workbook, one per line. */
async function workbookText(file: string): Promise<{ text: string; sheets: string[]; headers: string[] }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const lines: string[] = [];
  const headers: string[] = [];
  for (const ws of wb.worksheets) {
    lines.push(ws.name);
    ws.eachRow((row, n) => {
      row.eachCell((cell) => {
        if (typeof cell.value === 'string') {
          lines.push(cell.value);
          if (n === 1) headers.push(cell.value);
        }
      });
    });
  }
  return { text: lines.join('\n'), sheets: wb.worksheets.map((w) => w.name), headers };
}

async function expectGermanWorkbook(file: string): Promise<void> {
  const wb = await workbookText(file);
  expect(await findEnglish(wb.text)).toEqual([]);
  expect(wb.sheets.filter((s) => ENGLISH_SHEETS.includes(s))).toEqual([]);
  // ERP codes (usage_unit_id) belong to the CSV layout, never to a German workbook's headers
  expect(wb.headers.filter((h) => /^[a-z]+(_[a-z]+)+$/.test(h))).toEqual([]);
}

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedIn({ units: 40, homePrefix: 'md-german-', env: { SOURCE_DATE_EPOCH: '1767225600' } }));
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
});

describe('German end to end (built binary)', () => {
  it('LANG=de_DE.UTF-8 meterdata demo: every line and the workbook in German', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-german-demo-'));
    const r = await runBin(['demo', '--units', '30'], { ...GERMAN, HOME: cwd, METERDATA_HOME: path.join(cwd, '.md') }, { cwd, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
    expect(r.stdout).toMatch(/Liegenschaft/);
    await expectGermanWorkbook(path.join(cwd, 'meterdata-demo', 'billing.xlsx'));
    expect(await findEnglish(await readFile(path.join(cwd, 'meterdata-demo', 'review.csv'), 'utf8'))).toEqual([]);
  }, 150_000);

  it('meterdata export --year 2025 --lang de, with the plausibility review: no English anywhere', async () => {
    const out = path.join(home, 'de');
    const r = await runBin(['export', '--year', '2025', '--lang', 'de', '--compare', '2024', '--out', out], env, { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
    await expectGermanWorkbook(path.join(out, 'billing.xlsx'));
    for (const f of ['review.csv', 'plausibility.csv']) expect(await findEnglish(await readFile(path.join(out, f), 'utf8')), f).toEqual([]);
  }, 150_000);

  it('an error of a German run is German, its hint too', async () => {
    const r = await runBin(['export', '--year', '2025', '--lang', 'de', '--profile', 'nobody', '--out', path.join(home, 'none')], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^meterdata: /);
    expect(await findEnglish(r.stderr)).toEqual([]);
  });

  it.each(['', 'login', 'logout', 'status', 'token', 'export', 'browse', 'sandbox', 'demo'])(
    '--help of "%s" in German, by --lang and by LANG',
    async (command) => {
      const args = command ? [command, '--help'] : ['--help'];
      for (const [extra, e] of [
        [['--lang', 'de'], {}],
        [[], GERMAN],
      ] as const) {
        const r = await runBin([...args, ...extra], { ...e, METERDATA_HOME: home });
        expect(r.code, r.stderr).toBe(0);
        expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
      }
    },
  );

  it('--lang en overrides a German locale: the English run', async () => {
    const out = path.join(home, 'en');
    const r = await runBin(['export', '--year', '2025', '--lang', 'en', '--out', out], { ...env, ...GERMAN }, { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote /m);
    const wb = await workbookText(path.join(out, 'billing.xlsx'));
    expect(wb.sheets).toContain('Overview');
  }, 150_000);
});
