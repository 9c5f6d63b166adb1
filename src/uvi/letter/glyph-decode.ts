// fontkit decodes a glyph's outline again each time a document's font subset includes it (a
// letter's own file and its combined PDF each subset about 80 glyphs of two fonts): 7 % of a
// letter's CPU (bench/README.md, "CPU per letter"). A TrueType glyph without variations decodes to
// the same data every time, and the subset and the outline code only read it, so each glyph keeps
// its first decoding. Reads fontkit's inside, checked before use; where it differs nothing changes.

interface Glyph {
  _font?: { _variationProcessor?: unknown };
  _decode?: () => unknown;
}

const patched = new WeakSet<object>();

/** Each glyph of this fontkit font's kind decoded once; a font with variations decodes as before. */
export function decodeGlyphsOnce(font: unknown): void {
  const f = font as { getGlyph?: (id: number) => Glyph | null } | null;
  const glyph = typeof f?.getGlyph === 'function' ? f.getGlyph(0) : null;
  const proto = glyph ? (Object.getPrototypeOf(glyph) as Glyph) : null;
  if (!proto || patched.has(proto) || typeof proto._decode !== 'function') return;
  const decode = proto._decode;
  const decoded = new WeakMap<object, unknown>();
  proto._decode = function (this: Glyph) {
    if (this._font?._variationProcessor) return decode.call(this);
    if (!decoded.has(this)) decoded.set(this, decode.call(this));
    return decoded.get(this);
  };
  patched.add(proto);
}
