// The row renderer (src/export/output/formats/xlsx/xlsx-rows.ts) against exceljs' own rows: the same values
// and style table written both ways must give the same sheet XML and the same styles.xml,
// byte for byte, including the awkward values (markup characters, control characters
// exceljs drops, text beyond Latin-1, empty text, rows of nothing but nulls).
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { rowXml, StyleTable, type CellValue, type StyleRegistry } from '../../src/export/output/formats/xlsx/xlsx-rows.js';

type Sheet = { header: string[]; rows: { values: CellValue[]; numFmt?: (string | undefined)[]; fill?: boolean[] }[] };

async function write(sheets: Sheet[], direct: boolean): Promise<Map<string, string>> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => stream.on('end', r));
  const wb = new WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
    created: WHEN,
    modified: WHEN,
  } as Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions>);
  const table = new StyleTable(DATE);
  table.registerIn((wb as unknown as { styles: StyleRegistry }).styles);
  for (const [n, s] of sheets.entries()) {
    const ws = wb.addWorksheet(`S${n}`);
    ws.columns = s.header.map(() => ({ width: 12 }));
    const h = ws.addRow(s.header);
    h.font = { bold: true };
    h.commit();
    let xml = '';
    for (const [i, r] of s.rows.entries()) {
      if (direct)
        xml += rowXml(
          i + 2,
          r.values,
          r.values.map((v, c) => table.id(v, r.numFmt?.[c], r.fill?.[c])),
          table.rowAttributes(),
        );
      else {
        const row = ws.addRow(r.values);
        r.values.forEach((v, c) => (row.getCell(c + 1).style = table.style(v, r.numFmt?.[c], r.fill?.[c])));
        row.commit();
      }
    }
    if (xml) (ws as unknown as { stream: { write(s: string): void } }).stream.write(xml);
    ws.commit();
  }
  await wb.commit();
  await ended;
  const zip = await JSZip.loadAsync(Buffer.concat(chunks));
  const out = new Map<string, string>();
  for (const name of Object.keys(zip.files).sort()) if (!zip.files[name]!.dir) out.set(name, await zip.file(name)!.async('string'));
  return out;
}

/** A small deterministic generator, so a failure names a reproducible case. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const DATE = 'dd.mm.yyyy';
// both workbooks dated alike: two written a moment apart would differ in docProps/core.xml
const WHEN = new Date(Date.UTC(2026, 0, 2));
const TEXTS = [
  '',
  'Wärme',
  'Kaltwasser <Keller> & "Hof"',
  "O'Brien",
  'a\tb\nc\rd',
  '\u0000\u0001\u0008\u000b\u000c\u000e\u001f\u007f',
  '€ 12,50 — ½ 🔥 Łódź',
  ' führendes Leerzeichen ',
  'x'.repeat(300),
];
const NUMBERS = [0, -0, 1, -1, 0.1, 1234.567, -98765.4321, 1e-7, 123456789012, 9.99999999999999e307, 1 / 3];
const DATES = [new Date(Date.UTC(2025, 0, 1)), new Date(Date.UTC(2025, 11, 31)), new Date(Date.UTC(1900, 1, 28)), new Date(Date.UTC(2024, 1, 29))];

function randomSheet(seed: number, cols: number, rowCount: number): Sheet {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const rows: Sheet['rows'] = [];
  for (let i = 0; i < rowCount; i++) {
    const allNull = r() < 0.05;
    const values: CellValue[] = Array.from({ length: cols }, () => {
      if (allNull) return null;
      const k = r();
      return k < 0.2 ? null : k < 0.5 ? pick(TEXTS) : k < 0.8 ? pick(NUMBERS) : pick(DATES);
    });
    rows.push({ values, numFmt: values.map((v) => (v instanceof Date && r() < 0.8 ? DATE : undefined)), fill: values.map(() => r() < 0.1) });
  }
  return { header: Array.from({ length: cols }, (_, i) => `Spalte ${i + 1}`), rows };
}

describe('direct rows', () => {
  it.each([1, 2, 3, 4, 5])('write the same sheets and styles as exceljs rows (seed %i)', async (seed) => {
    const sheets = [randomSheet(seed, 1 + (seed % 3), 40), randomSheet(seed * 7, 30, 300), randomSheet(seed * 13, 5, 0)];
    const [viaExceljs, direct] = await Promise.all([write(sheets, false), write(sheets, true)]);
    expect([...direct.keys()]).toEqual([...viaExceljs.keys()]);
    for (const [name, xml] of viaExceljs) expect(direct.get(name), name).toBe(xml);
  });

  it('skip a row of nothing but nulls and keep its number, as exceljs does', async () => {
    const sheets: Sheet[] = [{ header: ['a', 'b'], rows: [{ values: [1, 'x'] }, { values: [null, null] }, { values: [null, 2] }] }];
    const [viaExceljs, direct] = await Promise.all([write(sheets, false), write(sheets, true)]);
    const sheet = direct.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toBe(viaExceljs.get('xl/worksheets/sheet1.xml'));
    expect(sheet).not.toContain('<row r="3"');
    expect(sheet).toContain('<row r="4"');
  });

  it('refuse a workbook whose registry numbered other styles first', () => {
    const wb = new WorkbookWriter({ stream: new PassThrough(), useStyles: true } as Partial<ExcelJS.stream.xlsx.WorkbookStreamWriterOptions>);
    const styles = (wb as unknown as { styles: StyleRegistry }).styles;
    styles.addStyleModel({ font: { italic: true } });
    expect(() => new StyleTable(DATE).registerIn(styles)).toThrow(/registered before/);
  });
});
