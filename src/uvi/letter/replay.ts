// A letter drawn once, put into a second document without drawing it again: a unit's own file
// and its Property's combined PDF have the same pages (bench/README.md, figure 6: drawing each
// letter twice was a third of the letters' CPU). What the first drawing wrote to its pages is
// kept in the order written, with the glyphs its font subset numbered; the second document
// writes the same to pages of its own, each glyph renumbered as its own subset numbers it, in
// the same order as drawing would, so its bytes are those of drawing the letter there.
// Reads pdfkit's inside (checked before use): where it differs, the letter is drawn again.

/** One font's glyphs as a document numbered them: [glyph id in the font, width, code points] by subset number. */
type GlyphTable = ([number, number, number[]] | null)[];

/** What a letter wrote: its page count, each write as [page of the letter, text], and its fonts' glyphs. */
export interface DrawnLetter {
  pages: number;
  writes: [number, string][];
  glyphs: Record<string, GlyphTable>;
}

/** What of pdfkit's embedded font is read here. */
interface SubsetFont {
  id: string;
  font: { getGlyph(id: number, codePoints: number[]): unknown };
  subset: { glyphs: number[]; includeGlyph(id: number): number };
  widths: (number | undefined)[];
  unicode: (number[] | undefined)[];
  ref(): unknown;
}

interface Doc {
  page: { fonts: Record<string, unknown> };
  addPage(): unknown;
  addContent(data: string): unknown;
  switchToPage(n: number): unknown;
  bufferedPageRange(): { start: number; count: number };
}

const usable = (f: unknown): f is SubsetFont => {
  const s = f as Partial<SubsetFont> | undefined;
  return (
    typeof s?.id === 'string' &&
    typeof s.font?.getGlyph === 'function' &&
    typeof s.subset?.includeGlyph === 'function' &&
    Array.isArray(s.subset.glyphs) &&
    Array.isArray(s.widths) &&
    Array.isArray(s.unicode) &&
    typeof s.ref === 'function'
  );
};

/** The fonts replay can renumber, by id; null where pdfkit's inside is not as read here. */
export function subsetFonts(fonts: readonly unknown[]): Map<string, SubsetFont> | null {
  return fonts.every(usable) ? new Map(fonts.map((f) => [f.id, f])) : null;
}

/**
 * Runs `draw` (which adds the letter's pages) on `doc` and keeps what it wrote. The writes
 * pdfkit's addPage makes itself are not kept: a replaying document's addPage makes them.
 */
export function drawKept(doc: unknown, fonts: Map<string, SubsetFont>, draw: () => void): DrawnLetter {
  const d = doc as Doc & { addContent: Doc['addContent']; addPage: Doc['addPage'] };
  const first = d.bufferedPageRange().start + d.bufferedPageRange().count;
  const writes: [number, string][] = [];
  let inAddPage = false;
  const { addContent, addPage } = d;
  d.addContent = function (this: Doc, data: string) {
    if (!inAddPage) writes.push([pageIndex(this, this.bufferedPageRange()) - first, data]);
    return addContent.call(this, data);
  };
  d.addPage = function (this: Doc, ...args: unknown[]) {
    inAddPage = true;
    try {
      return (addPage as (...a: unknown[]) => unknown).apply(this, args);
    } finally {
      inAddPage = false;
    }
  };
  try {
    draw();
  } finally {
    d.addContent = addContent;
    d.addPage = addPage;
  }
  const range = d.bufferedPageRange();
  const glyphs: Record<string, GlyphTable> = {};
  for (const [id, f] of fonts) glyphs[id] = f.subset.glyphs.map((g, gid) => (f.widths[gid] === undefined ? null : [g, f.widths[gid]!, f.unicode[gid] ?? []]));
  return { pages: range.start + range.count - first, writes, glyphs };
}

/** The index of the page being written (pdfkit keeps it as the object, not its number). */
function pageIndex(doc: Doc, range: { start: number; count: number }): number {
  const buffer = (doc as unknown as { _pageBuffer: unknown[] })._pageBuffer;
  return range.start + buffer.indexOf(doc.page);
}

const TF = /^\/(F\d+) [\d.]+ Tf$/;
const HEX = /<([0-9a-f]+)>/g;

/** Writes a letter drawn elsewhere onto new pages of `doc`; false where it cannot (nothing written then). */
export function replay(doc: unknown, fonts: Map<string, SubsetFont>, drawn: DrawnLetter): boolean {
  const d = doc as Doc;
  const known = (id: string) => fonts.has(id) && drawn.glyphs[id] !== undefined;
  if (!drawn.writes.every(([, w]) => !TF.test(w) || known(TF.exec(w)![1]!))) return false;
  const first = d.bufferedPageRange().start + d.bufferedPageRange().count;
  // Each page added when drawing added it, before its first write: the PDF's objects are numbered as made.
  let added = 0;
  const upTo = (page: number) => {
    for (; added <= page; added++) d.addPage();
  };
  let font: SubsetFont | null = null;
  let table: GlyphTable = [];
  for (const [page, w] of drawn.writes) {
    upTo(page);
    d.switchToPage(first + page);
    const tf = TF.exec(w);
    if (tf) {
      font = fonts.get(tf[1]!)!;
      table = drawn.glyphs[tf[1]!]!;
      // Before its first text, as pdfkit names a font in the page's resources (the same order of keys).
      d.page.fonts[font.id] ??= font.ref();
    }
    d.addContent(font && w.endsWith('] TJ') ? renumber(w, font, table) : w);
  }
  upTo(drawn.pages - 1);
  d.switchToPage(first + drawn.pages - 1);
  return true;
}

/** Each glyph of a TJ renumbered as `font`'s subset numbers it (included in it as drawing would: EmbeddedFont.encode). */
function renumber(tj: string, font: SubsetFont, table: GlyphTable): string {
  return tj.replace(HEX, (_, hex: string) => {
    let out = '';
    for (let i = 0; i < hex.length; i += 4) {
      const glyph = table[parseInt(hex.slice(i, i + 4), 16)];
      if (!glyph) throw new Error(`a drawn letter names a glyph its font did not number (${hex.slice(i, i + 4)})`);
      // fontkit keeps a glyph as first made: made here with its characters, as laying out text
      // makes it, not by the subset's encoding at close() without them (a letter drawn in this
      // thread afterwards would name no character for it, and pdftotext would read nothing).
      if (font.widths[font.subset.includeGlyph(glyph[0])] === undefined) font.font.getGlyph(glyph[0], glyph[2]);
      const gid = font.subset.includeGlyph(glyph[0]);
      font.widths[gid] ??= glyph[1];
      font.unicode[gid] ??= glyph[2];
      out += `0000${gid.toString(16)}`.slice(-4);
    }
    return `<${out}>`;
  });
}
