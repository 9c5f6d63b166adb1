// A Property's combined PDF from its units' own drawings (src/uvi/letter/replay.ts): each letter
// drawn once, into its own file, and its pages put into the combined PDF without drawing them
// again. The combined PDF must be byte for byte the one drawing every letter again gives (its
// objects numbered as made, glyphs renumbered in the order drawing would), its pages in the
// units' order with each letter's text; a drawing it cannot take is drawn again instead.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { letterFonts, letterModel, LetterPdf, writeLetter, type DrawnLetter, type PdfOptions } from '../../src/uvi/letter/index.js';
import { requireTool } from '../helpers/tools.js';
import { aLetterInput, aUnitUvi } from '../helpers/uvi-letter-fixtures.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'uvi-letter-replay-'));
const options = async (): Promise<PdfOptions> => ({
  fonts: await letterFonts(),
  createdAt: new Date('2025-12-05T06:00:00Z'),
  title: 'Liegenschaft',
  lang: 'de',
});
const pageText = (file: string, page: number) =>
  execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], { encoding: 'utf8' });

/** Three letters of different length and characters: two pages, one page (no meter), two pages with names no other letter has. */
function models() {
  const input = aLetterInput();
  return [
    letterModel({ ...input, unit: { ...input.unit, name: 'WE 01' } }),
    letterModel(aLetterInput({ unit: { ...input.unit, name: 'WE 02' }, uvi: aUnitUvi({ services: [] }) })),
    letterModel({ ...input, unit: { ...input.unit, name: 'WE 03 Ærøskøbing Œuvre ŸĲ «Quai» 東京' }, property: { ...input.property, name: 'Hof ÞÐ' } }),
  ];
}

describe("a Property's combined PDF from its units' own drawings", () => {
  it('has the bytes of drawing every letter again, its pages in the units’ order with each letter’s text', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the pages back');
    const d = dir();
    const opts = await options();
    const letters = models();
    const drawn: (DrawnLetter | null)[] = [];
    for (const [i, m] of letters.entries()) drawn.push(await writeLetter(path.join(d, `${i}.pdf`), m, { ...opts, title: m.title }));
    expect(drawn.map((x) => x?.pages)).toEqual([2, 1, 2]);

    const replayed = LetterPdf.open(path.join(d, 'replayed.pdf'), opts);
    for (const [i, m] of letters.entries()) await replayed.addDrawn(m, drawn[i]!);
    await replayed.close();
    const drawnAgain = LetterPdf.open(path.join(d, 'drawn.pdf'), opts);
    for (const m of letters) await drawnAgain.add(m);
    await drawnAgain.close();
    expect(readFileSync(path.join(d, 'replayed.pdf')).equals(readFileSync(path.join(d, 'drawn.pdf')))).toBe(true);

    // each page's text is its letter's, in order: 0.pdf's two pages, 1.pdf's one, 2.pdf's two
    const own = [
      [0, 1],
      [0, 2],
      [1, 1],
      [2, 1],
      [2, 2],
    ] as const;
    for (const [k, [letter, page]] of own.entries()) expect(pageText(path.join(d, 'replayed.pdf'), k + 1)).toBe(pageText(path.join(d, `${letter}.pdf`), page));
    expect(pageText(path.join(d, 'replayed.pdf'), 4)).toContain('WE 03 Ærøskøbing Œuvre ŸĲ «Quai»');
  });

  it('a drawing naming a font the document does not know, or none, is drawn again: the same bytes', async () => {
    const d = dir();
    const opts = await options();
    const [m] = models();
    const drawn = (await writeLetter(path.join(d, 'own.pdf'), m!, { ...opts, title: m!.title }))!;
    const foreign: DrawnLetter = { ...drawn, writes: drawn.writes.map(([p, w]) => [p, w.replace(/^\/F1 /, '/F9 ')]) };
    for (const [name, from] of [
      ['foreign', foreign],
      ['none', null],
      ['replayed', drawn],
    ] as const) {
      const pdf = LetterPdf.open(path.join(d, `${name}.pdf`), opts);
      await pdf.addDrawn(m!, from);
      await pdf.close();
    }
    const direct = LetterPdf.open(path.join(d, 'direct.pdf'), opts);
    await direct.add(m!);
    await direct.close();
    for (const name of ['foreign', 'none', 'replayed'])
      expect(readFileSync(path.join(d, `${name}.pdf`)).equals(readFileSync(path.join(d, 'direct.pdf'))), name).toBe(true);
  });
});
