// billing.xlsx read on its own (issue 11): the run's language decides every word in it,
// whatever the CSV layout; names first, ids last; widths that fit; printable pages.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterEach, describe, expect, it } from 'vitest';
import { aboutRows } from '../../src/export/pipeline/index.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { overviewKey } from '../../src/export/output/tables.js';
import { CELL_TEXT_MAX, fitCell, rowHeight } from '../../src/export/output/formats/xlsx/xlsx-cells.js';
import { PAGE_WIDTH, pageSetup, writeXlsx, type OverviewUnit } from '../../src/export/output/formats/xlsx/xlsx-writer.js';
import { setLanguage, type Lang } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const bill = (over: Record<string, unknown>) => ({
  property_id: 'p-id',
  property_name: 'Haus A',
  usage_unit_id: 'u-id',
  usage_unit_name: 'WE 1',
  unit_type: 'residential',
  metric: 'heat',
  unit: 'kWh',
  from: '2025-01-01',
  to: '2025-12-31',
  billable_value: '12.5',
  points: 1,
  review_flags: [],
  ...over,
});
const review = {
  severity: 'not_billed',
  code: 'CALIBRATION_EXPIRED',
  property_id: 'p-id',
  property_name: 'Haus A',
  usage_unit_id: 'u-id',
  usage_unit_name: 'WE 1',
  measuring_point_id: 'mp-id',
  metric: 'water_cold',
  localization: 'Bad',
  device_id: 'd-id',
  serial: 'KW-1',
  message: 'x',
};
const readings = {
  measuring_point_id: 'mp-id',
  usage_unit_name: 'WE 1',
  metric: 'water_cold',
  unit: 'm3',
  device_id: 'd-id',
  serial: 'KW-1',
  at: '2025-01-31',
  value: '3',
  status: 'calibration_expired',
  is_synthetic: false,
  substitution_method: null,
};

/** A workbook of billing, readings and review rows, written with `template` in `lang`. */
async function workbook(lang: Lang, template: string, longName = 'WE 1', metric = 'heat') {
  setLanguage(lang);
  const t = await loadTemplate(template, process.cwd());
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-xlsx-sheets-'));
  const spool = async (name: string, rows: object[]) => {
    const f = path.join(dir, `${name}.ndjson`);
    await writeFile(f, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return f;
  };
  const unit: OverviewUnit = {
    property_id: 'p-id',
    property_name: 'Haus A',
    usage_unit_id: 'u-id',
    usage_unit_name: longName,
    unit_type: 'commercial',
    values: { [overviewKey(metric, 'kWh')]: { value: '12.5', flagged: false }, [overviewKey('water_cold', 'm3')]: { value: '3', flagged: true } },
  };
  const file = path.join(dir, 'billing.xlsx');
  await writeXlsx({
    file,
    template: t,
    spools: {
      billing: await spool('billing', [
        bill({ usage_unit_name: longName }),
        bill({ metric: 'water_cold', unit: 'm3', unit_type: 'technical' }),
        bill({ metric: 'steam', unit: 'MWh' }),
      ]),
      readings: await spool('readings', [readings]),
      review: await spool('review', [review]),
    },
    overview: {
      metrics: [
        { metric, unit: 'kWh' },
        { metric: 'water_cold', unit: 'm3' },
      ],
      spool: await spool('overview', [unit]),
    },
    about: aboutRows({
      tenant: 'Demo',
      scope: 'all',
      exported: null,
      range: { from: '2025-01-01', to: '2025-12-31' },
      contract: '1.0.0',
      exportedAt: '2026-11-22T10:00:00.000Z',
      toolVersion: '1.0.0',
      template: t.name,
      counts: { properties: 1, units: 1, measuring_points: 2, plant_points: 0 },
      flags: { not_billed: 1, review: 0, info: 0 },
    }),
    exportTime: new Date('2026-11-22T10:00:00Z'),
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return { wb, file };
}

const headers = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).slice(1);
const texts = (wb: ExcelJS.Workbook) =>
  wb.worksheets.flatMap((ws) => [ws.name, ...ws.getSheetValues().flatMap((r) => (Array.isArray(r) ? r.filter((v) => typeof v === 'string') : []))]).join('\n');

describe('the workbook in German (--lang de), whatever the template', () => {
  it('has German sheet names, headers and words for the contract codes, names first and ids last', async () => {
    const { wb } = await workbook('de', 'generic');
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Übersicht', 'Abrechnung', 'Ablesewerte', 'Prüfhinweise', 'Info']);
    const billing = wb.getWorksheet('Abrechnung')!;
    expect(headers(billing)).toEqual([
      'Liegenschaft',
      'Nutzeinheit',
      'Art der Nutzeinheit',
      'Verbrauchsart',
      'Einheit',
      'Von',
      'Bis',
      'Abrechenbarer Verbrauch',
      'Messstellen',
      'Prüfhinweise',
      'Liegenschaft-ID',
      'Nutzeinheit-ID',
    ]);
    expect((billing.getRow(2).values as unknown[]).slice(1, 5)).toEqual(['Haus A', 'WE 1', 'Wohnen', 'Wärme']);
    expect((billing.getRow(3).values as unknown[]).slice(3, 6)).toEqual(['Technik', 'Kaltwasser', 'm³']);
    // a value the contract does not list stays its code
    expect((billing.getRow(4).values as unknown[]).slice(4, 6)).toEqual(['steam', 'MWh']);
    const rev = wb.getWorksheet('Prüfhinweise')!;
    expect(headers(rev)).toEqual([
      'Einstufung',
      'Hinweis-Code',
      'Liegenschaft',
      'Nutzeinheit',
      'Verbrauchsart',
      'Einbauort',
      'Zählernummer',
      'Befund',
      'Liegenschaft-ID',
      'Nutzeinheit-ID',
      'Messstellen-ID',
      'Geräte-ID',
    ]);
    expect((rev.getRow(2).values as unknown[]).slice(1, 8)).toEqual([
      'nicht abgerechnet',
      'CALIBRATION_EXPIRED',
      'Haus A',
      'WE 1',
      'Kaltwasser',
      'Bad',
      'KW-1',
    ]);
    const read = wb.getWorksheet('Ablesewerte')!;
    expect(read.getRow(2).getCell(headers(read).indexOf('Status') + 1).value).toBe('Eichfrist abgelaufen');
    const ov = wb.getWorksheet('Übersicht')!;
    expect(headers(ov)).toEqual(['Liegenschaft', 'Nutzeinheit', 'Art der Nutzeinheit', 'Wärme (kWh)', 'Kaltwasser (m³)', 'Liegenschaft-ID', 'Nutzeinheit-ID']);
    expect((ov.getRow(2).values as unknown[]).slice(1)).toEqual(['Haus A', 'WE 1', 'Gewerbe', 12.5, 3, 'p-id', 'u-id']);
    const about = wb.getWorksheet('Info')!;
    expect(headers(about)).toEqual(['Angabe', 'Wert']);
    const aboutValues = Object.fromEntries(
      about
        .getSheetValues()
        .slice(2)
        .map((r) => [(r as unknown[])[1], (r as unknown[])[2]]),
    );
    expect(aboutValues).toMatchObject({
      Von: '01.01.2025',
      Bis: '31.12.2025',
      'Exportzeit (UTC)': '22.11.2026 10:00:00',
      'Freigegebene Liegenschaften': 'alle (auch künftige)',
    });
    expect(await findEnglish(texts(wb))).toEqual([]);
  });

  it('stays English with --lang en even with the de template, whose CSV layout is German', async () => {
    const { wb } = await workbook('en', 'de');
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'billing', 'readings', 'review', 'About']);
    const billing = wb.getWorksheet('billing')!;
    expect(headers(billing).slice(0, 4)).toEqual(['property_name', 'usage_unit_name', 'unit_type', 'metric']);
    expect((billing.getRow(3).values as unknown[]).slice(3, 6)).toEqual(['technical', 'cold water', 'm³']);
    expect(headers(wb.getWorksheet('Overview')!)).toContain('cold water (m³)');
    expect(headers(wb.getWorksheet('About')!)).toEqual(['item', 'value']);
    expect(texts(wb)).not.toMatch(/Liegenschaft|Nutzeinheit|Kaltwasser/);
  });
});

describe('the workbook on paper and on screen', () => {
  it('prints landscape, fitted to the width only, the header row repeated, with an autofilter over every row on every table sheet', async () => {
    const { wb, file } = await workbook('en', 'generic');
    for (const ws of wb.worksheets.filter((w) => w.name !== 'About')) {
      expect(ws.pageSetup, ws.name).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToHeight: 0, printTitlesRow: '1:1' });
      expect(ws.autoFilter, ws.name).toBeTruthy();
    }
    // the same in the file's XML, as a spreadsheet reads it
    const zip = await JSZip.loadAsync(await readFile(file));
    const book = await zip.file('xl/workbook.xml')!.async('string');
    expect(book).toContain(`<definedName name="_xlnm.Print_Titles" localSheetId="1">&apos;billing&apos;!$1:$1</definedName>`);
    const sheet = await zip.file('xl/worksheets/sheet2.xml')!.async('string');
    expect(sheet).toMatch(/<pageSetUpPr fitToPage="1"\/>/);
    expect(sheet).toMatch(/<pageSetup[^>]*orientation="landscape"/);
    expect(sheet).toMatch(/<pageSetup[^>]*fitToHeight="0"/);
    expect(sheet).toMatch(/<autoFilter ref="A1:L4"\/>/);
  });

  it('prints no sheet below about 66 %: as many pages across as the printed columns need, the first column repeated on each', () => {
    expect(pageSetup([20, 30, 40])).toMatchObject({ fitToWidth: 1 });
    expect(pageSetup([20, 30, 40]).printTitlesColumn).toBeUndefined();
    // the Segmente sheet of the sandbox: 23 printed columns, 4 ids after them
    const segments = [18, 8, 21, 11, 8, 11, 11, 16, 13, 22, 13, 13, 20, 9, 14, 14, 22, 12, 14, 14, 19, 15, 30, 38, 38, 38, 38];
    const s = pageSetup(segments, { columns: 23, rows: 178 });
    expect(s).toMatchObject({ fitToWidth: 3, printTitlesColumn: 'A:A', printArea: 'A$1:W$179' });
    // each page across holds at most PAGE_WIDTH units, the repeated first column included
    const printed = segments.slice(0, 23).reduce((a, b) => a + b, 0);
    expect(printed + 18 * (s.fitToWidth! - 1)).toBeLessThanOrEqual(PAGE_WIDTH * s.fitToWidth!);
    for (let w = 100; w < 2000; w += 37) {
      const widths = [20, ...Array<number>(Math.ceil(w / 10)).fill(10)];
      const across = pageSetup(widths).fitToWidth!;
      expect(widths.reduce((a, b) => a + b, 0) + 20 * (across - 1)).toBeLessThanOrEqual(PAGE_WIDTH * across);
    }
  });

  it('wraps a finding’s message in its column and makes its row as high as its lines, the ids left off the paper', async () => {
    setLanguage('de');
    const t = await loadTemplate('generic', process.cwd());
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-xlsx-print-'));
    const message =
      'Eichfrist abgelaufen: Wert darf nicht abgerechnet werden (Gerät: KW-1). Bitte den Gerätetausch veranlassen und mit dem Eigentümer klären, wie der Verbrauch verteilt wird (z. B. Schätzung nach § 9a HeizkostenV).';
    const f = path.join(dir, 'review.ndjson');
    await writeFile(f, `${JSON.stringify({ ...review, message })}\n${JSON.stringify({ ...review, message: 'kurz' })}\n`);
    const file = path.join(dir, 'billing.xlsx');
    await writeXlsx({
      file,
      template: t,
      spools: { review: f },
      overview: { metrics: [], spool: null },
      about: [],
      exportTime: new Date('2026-11-22T10:00:00Z'),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('Prüfhinweise')!;
    const at = headers(ws).indexOf('Befund') + 1;
    expect(ws.getRow(2).getCell(at).alignment).toMatchObject({ wrapText: true, vertical: 'top' });
    expect(ws.getRow(2).getCell(1).alignment).toMatchObject({ vertical: 'top' });
    const width = ws.getColumn(at).width!;
    expect(ws.getRow(2).height).toBeGreaterThanOrEqual(15 * Math.ceil(message.length / width));
    expect(ws.getRow(3).height ?? 15).toBe(15);
    // what is printed: every column up to the message, not the four ids after it
    expect(headers(ws).slice(at)).toEqual(['Liegenschaft-ID', 'Nutzeinheit-ID', 'Messstellen-ID', 'Geräte-ID']);
    const book = await (await JSZip.loadAsync(await readFile(file))).file('xl/workbook.xml')!.async('string');
    expect(book).toContain(`&apos;Prüfhinweise&apos;!$A$1:$H$3</definedName>`);
    expect(rowHeight([{ text: 'x '.repeat(2000), width: 10 }])).toBe(409); // Excel's tallest row
    expect(rowHeight([{ text: 'kurz', width: 10 }])).toBeNull();
  });

  it('makes a column as wide as its longest name, within bounds', async () => {
    const long = 'Wohnung 17, 3. Obergeschoss links, Hinterhaus';
    const { wb } = await workbook('en', 'generic', long);
    const ov = wb.getWorksheet('Overview')!;
    expect(ov.getColumn(2).width).toBeGreaterThanOrEqual(long.length);
    expect(ov.getColumn(2).width).toBeLessThanOrEqual(60);
    const billing = wb.getWorksheet('billing')!;
    expect(billing.getColumn(2).width).toBeGreaterThanOrEqual(long.length);
  });
});

describe('a text longer than Excel takes in a cell', () => {
  it('is cut below 32,767 characters with "…" in every sheet (Excel calls a longer cell damaged); never inside a surrogate pair', async () => {
    const { wb } = await workbook('en', 'generic', 'Ä'.repeat(40_000));
    const all = wb.worksheets.flatMap((ws) =>
      ws.getSheetValues().flatMap((r) => (Array.isArray(r) ? r.filter((v): v is string => typeof v === 'string') : [])),
    );
    expect(Math.max(...all.map((s) => s.length))).toBeLessThanOrEqual(32_767);
    const cut = `${'Ä'.repeat(CELL_TEXT_MAX)}…`;
    expect(all.filter((s) => s === cut).length).toBe(2); // the billing sheet and the Overview
    expect(fitCell(`${'x'.repeat(CELL_TEXT_MAX - 1)}${'🔥'.repeat(5)}`)).toBe(`${'x'.repeat(CELL_TEXT_MAX - 1)}…`);
    expect(fitCell('WE 1')).toBe('WE 1');
  });

  it("is cut in the Overview's header too: a metric value the contract does not list is kept as it came, and heads its column", async () => {
    const { wb } = await workbook('en', 'generic', 'WE 1', 'm'.repeat(40_000));
    const head = headers(wb.getWorksheet('Overview')!).filter((v): v is string => typeof v === 'string');
    expect(Math.max(...head.map((s) => s.length))).toBeLessThanOrEqual(32_767);
    expect(head).toContain(`${'m'.repeat(CELL_TEXT_MAX)}…`);
  });
});
