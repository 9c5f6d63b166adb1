// The letter as a PDF: real, searchable text (pdftotext reads the German figures, umlauts,
// ß, "–" and "*"), the same bytes for the same run time, only the embedded TrueType font
// (pdfkit's Helvetica never loaded), written atomically, and a Property's letters appended
// into one PDF.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { letterFonts, letterModel, LetterPdf, writeLetter, type PdfOptions } from '../../src/uvi/letter/index.js';
import { requireTool } from '../helpers/tools.js';
import { aLetterInput, aUnitUvi, HEATING_UNITS, service } from '../helpers/uvi-letter-fixtures.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'uvi-letter-'));
const at = new Date('2025-12-05T06:00:00Z');
const options = async (createdAt = at): Promise<PdfOptions> => ({
  fonts: await letterFonts(),
  createdAt,
  title: 'Verbrauchsinformation November 2025',
  lang: 'de',
});
const text = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);

afterEach(() => vi.restoreAllMocks());

describe('one letter', () => {
  it('pdftotext shows the figures in German format, umlauts and ß intact, – and *', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const file = path.join(dir(), 'WE 03.pdf');
    await writeLetter(file, letterModel(aLetterInput()), await options());
    const t = text(file);
    for (const s of [
      'Monatliche Verbrauchsinformation',
      'Wohnanlage Große Straße 5',
      'Große Straße 5 a, 80331 München',
      'WE 03 Müller-Straße',
      '968,0 kWh',
      '1.100,0 kWh *',
      '1.500,3 kWh',
      '1.026,6 kWh',
      '12 % weniger als im Oktober 2025',
      '281,3 kWh',
      '4,50 m³',
      '§ 6a',
      'Maßgeblich',
      '– kein Wert',
    ]) {
      expect(t).toContain(s);
    }
    // the missing March bar is marked – on the chart, the estimated October *
    expect(t).toMatch(/–[\s\S]*Mär/);
    expect(t).toMatch(/Seite 1 von 2/);
    expect(pages(file)).toBe(2);
  });

  it('a Property name of 300 characters: the footer stays one line on each page, cut with …', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const file = path.join(dir(), 'long.pdf');
    const name = `Wohnungseigentümergemeinschaft ${'Hauptstraße '.repeat(23)}`;
    await writeLetter(file, letterModel({ ...aLetterInput(), property: { id: 'p', name } }), await options());
    const footers = text(file)
      .split('\n')
      .filter((l) => /Seite \d von \d/.test(l));
    expect(footers).toHaveLength(pages(file));
    for (const l of footers) expect(l).toMatch(/^\s*Wohnungseigentümergemeinschaft Hauptstraße .*…\s+Seite \d von \d\s*$/);
  });

  it("figures in the hundreds of millions: the chart's axis labels stay whole", async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const file = path.join(dir(), 'huge.pdf');
    const months = HEATING_UNITS.map((u) => ({ kwh: null, native: u === null ? null : u * 1_234_567, reasons: ['no_plant_heat_meter' as const] }));
    const uvi = aUnitUvi({ services: [service('HEATING', 'allocators', 'unit', months)] });
    await writeLetter(file, letterModel({ ...aLetterInput(), uvi }), await options());
    const t = text(file);
    // 199 × 1,234,567 ≈ 245.7 million: grid lines every 100 million
    for (const label of ['100.000.000', '200.000.000', '300.000.000']) expect(t).toContain(label);
  });

  it('the English letter, and a unit without any meter: one page saying so', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const d = dir();
    await writeLetter(path.join(d, 'en.pdf'), letterModel(aLetterInput({ lang: 'en' })), { ...(await options()), lang: 'en' });
    expect(text(path.join(d, 'en.pdf'))).toMatch(/1,100\.0 kWh \*[\s\S]*12 % less than in October 2025/);
    await writeLetter(path.join(d, 'empty.pdf'), letterModel(aLetterInput({ uvi: aUnitUvi({ services: [] }) })), await options());
    expect(pages(path.join(d, 'empty.pdf'))).toBe(1);
    expect(text(path.join(d, 'empty.pdf')).replace(/\s+/g, ' ')).toContain('Kein Zähler Ihrer Nutzeinheit hat in diesen 13 Monaten Werte');
  });

  it('two renders with the same run time give the same bytes; another time gives other bytes', async () => {
    const d = dir();
    const m = letterModel(aLetterInput());
    await writeLetter(path.join(d, 'a.pdf'), m, await options());
    await writeLetter(path.join(d, 'b.pdf'), m, await options());
    await writeLetter(path.join(d, 'c.pdf'), m, await options(new Date('2025-12-06T06:00:00Z')));
    const [a, b, c] = ['a', 'b', 'c'].map((n) => readFileSync(path.join(d, `${n}.pdf`)));
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
    expect(a!.toString('latin1')).toContain('(D:20251205060000Z)');
  });

  it('the first document of a process (which parses the fonts) has the same bytes as a later one', async () => {
    vi.resetModules();
    const fresh = (await import('../../src/uvi/letter/index.js')) as typeof import('../../src/uvi/letter/index.js');
    const d = dir();
    const opts = { ...(await options()), fonts: await fresh.letterFonts() };
    for (const n of ['first', 'later']) await fresh.writeLetter(path.join(d, `${n}.pdf`), fresh.letterModel(aLetterInput()), opts);
    expect(readFileSync(path.join(d, 'first.pdf')).equals(readFileSync(path.join(d, 'later.pdf')))).toBe(true);
  });

  it("a letter's own file lays out no word an earlier document laid out, and its bytes stay those of a first letter", async () => {
    const d = dir();
    const opts = await options();
    const m = letterModel(aLetterInput());
    await writeLetter(path.join(d, 'first.pdf'), m, opts);
    // pdfkit's parsed font (fontkit), as every document of the process shares it
    const probe = LetterPdf.open(path.join(d, 'probe.pdf'), opts) as unknown as { doc: { _font: { font: object } } };
    const layout = vi.spyOn(Object.getPrototypeOf(probe.doc._font.font) as { layout: () => unknown }, 'layout');
    await (probe as unknown as LetterPdf).abort();
    await writeLetter(path.join(d, 'second.pdf'), m, opts);
    expect(layout).not.toHaveBeenCalled();
    expect(readFileSync(path.join(d, 'second.pdf')).equals(readFileSync(path.join(d, 'first.pdf')))).toBe(true);
  });

  it("loads only the embedded DejaVu Sans, never pdfkit's built-in fonts (not in the single executable)", async () => {
    const font = vi.spyOn(PDFDocument.prototype, 'font');
    const file = path.join(dir(), 'x.pdf');
    await writeLetter(file, letterModel(aLetterInput()), await options());
    const named = font.mock.calls.map((c) => c[0]).filter((src) => typeof src === 'string');
    expect(font).toHaveBeenCalled();
    expect(named.filter((n) => n !== 'Regular' && n !== 'Bold')).toEqual([]);
    const bytes = readFileSync(file, 'latin1');
    expect(bytes).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(bytes).not.toMatch(/Helvetica|Times-Roman|Courier/);
  });

  it('replaces an older letter whole and leaves no temporary file', async () => {
    const d = dir();
    const file = path.join(d, 'WE 03.pdf');
    writeFileSync(file, 'old');
    await writeLetter(file, letterModel(aLetterInput()), await options());
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readdirSync(d)).toEqual(['WE 03.pdf']);
  });

  it('a folder that is not there: the error names the letter, and nothing is left', async () => {
    const file = path.join(dir(), 'missing', 'WE 03.pdf');
    await expect(writeLetter(file, letterModel(aLetterInput()), await options())).rejects.toMatchObject({ code: 'ENOENT', path: file });
  });
});

describe("a Property's combined PDF", () => {
  it('appends the letters one after another; the file appears only when closed', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letters back');
    const d = dir();
    const file = path.join(d, 'Liegenschaft.pdf');
    const pdf = LetterPdf.open(file, await options());
    for (const name of ['WE 01', 'WE 02', 'WE 03']) {
      const input = aLetterInput();
      await pdf.add(letterModel({ ...input, unit: { ...input.unit, name } }));
    }
    expect(readdirSync(d).filter((f) => f === 'Liegenschaft.pdf')).toEqual([]);
    await pdf.close();
    expect(readdirSync(d)).toEqual(['Liegenschaft.pdf']);
    expect(pages(file)).toBe(6);
    const t = text(file);
    const order = ['WE 01', 'WE 02', 'WE 03'].map((n) => t.indexOf(`${n} · November 2025`));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!))).toBe(true);
    // each letter counts its own pages
    expect(t.match(/Seite 2 von 2/g)).toHaveLength(3);
  });

  it('a file that could not be opened: close() fails naming the PDF, it does not wait forever', { timeout: 20_000 }, async () => {
    const file = path.join(dir(), 'gone', 'Liegenschaft.pdf');
    const pdf = LetterPdf.open(file, await options());
    await pdf.add(letterModel(aLetterInput()));
    // the open's failure arrives (and the stream closes) before close() is called
    await new Promise((resolve) => setTimeout(resolve, 300));
    const outcome = await Promise.race([
      pdf.close().then(
        () => 'closed',
        (e: NodeJS.ErrnoException) => `${e.code} ${e.path}`,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5000)),
    ]);
    expect(outcome).toBe(`ENOENT ${file}`);
  });

  it('abort leaves nothing; a PDF without a letter is refused', async () => {
    const d = dir();
    const pdf = LetterPdf.open(path.join(d, 'a.pdf'), await options());
    await pdf.add(letterModel(aLetterInput()));
    await pdf.abort();
    await expect(LetterPdf.open(path.join(d, 'b.pdf'), await options()).close()).rejects.toThrow(/no letter/);
    expect(readdirSync(d)).toEqual([]);
  });

  it('abort straight after open, while the file is still being created, leaves nothing either', async () => {
    const d = dir();
    const opts = await options();
    // The temporary file is created by an open on the thread pool; removed before that open
    // has run, it would be created afterwards and stay. 400 at once keep the pool busy.
    await Promise.all(Array.from({ length: 400 }, (_, i) => LetterPdf.open(path.join(d, `${i}.pdf`), opts).abort()));
    expect(readdirSync(d)).toEqual([]);
  });
});
