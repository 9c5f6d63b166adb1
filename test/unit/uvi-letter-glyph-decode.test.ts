// Each glyph decoded once for the letters (src/uvi/letter/glyph-decode.ts): the same glyph
// outlines and font subset bytes as fontkit's own decoding every time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { decodeGlyphsOnce } from '../../src/uvi/letter/glyph-decode.js';
import { FONT_FILES } from '../../src/uvi/letter/fonts.js';
import { ROOT } from '../helpers/bin.js';

interface Font {
  layout(text: string): { glyphs: { id: number }[] };
  font: { getGlyph(id: number): { _decode(): unknown; path: { toSVG(): string } }; createSubset(): { includeGlyph(id: number): number; encode(): Uint8Array } };
}

/** A fresh document's Regular font, as the letters open it. */
function regular(): Font {
  const doc = new PDFDocument({ autoFirstPage: false, font: null as unknown as string });
  doc.registerFont('Regular', readFileSync(path.join(ROOT, FONT_FILES.regular)));
  return (doc.font('Regular') as unknown as { _font: Font })._font;
}

describe("the letters' glyphs", () => {
  it('decode each glyph once, with the same outline and the same subset bytes', () => {
    const before = regular();
    const text = 'Verbrauch im November 2025: 1.234,5 kWh – „WE 03“ Äöüß';
    const ids = before.layout(text).glyphs!.map((g) => g.id);
    const subsetBytes = (f: Font) => {
      const s = f.font.createSubset();
      for (const id of ids) s.includeGlyph(id);
      return Buffer.from(s.encode());
    };
    const expected = { bytes: subsetBytes(before), svg: ids.map((id) => before.font.getGlyph(id).path.toSVG()) };
    const after = regular();
    decodeGlyphsOnce(after.font);
    const glyph = after.font.getGlyph(ids[0]!);
    expect(glyph._decode()).toBe(glyph._decode());
    expect(subsetBytes(after).equals(expected.bytes)).toBe(true);
    expect(subsetBytes(after).equals(expected.bytes)).toBe(true);
    expect(ids.map((id) => after.font.getGlyph(id).path.toSVG())).toEqual(expected.svg);
  });
});
