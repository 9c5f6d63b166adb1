// The letters' TrueType fonts (DejaVu Sans, assets/fonts, licence beside them), read once
// per process from the package folder or the single executable's assets
// (scripts/build-exe.mjs embeds them under these names). Embedded in every PDF, so umlauts
// and ß are real, searchable text; pdfkit's own Helvetica is never loaded (its metrics are
// not in the single executable).
import { readResourceBytes } from '../../core/resources.js';

export const FONT_FILES = { regular: 'assets/fonts/DejaVuSans.ttf', bold: 'assets/fonts/DejaVuSans-Bold.ttf' } as const;

export interface LetterFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

let loaded: Promise<LetterFonts> | null = null;

export function letterFonts(): Promise<LetterFonts> {
  loaded ??= Promise.all([readResourceBytes(FONT_FILES.regular), readResourceBytes(FONT_FILES.bold)]).then(([regular, bold]) => ({ regular, bold }));
  // A failed read is not kept: the next letter tries again and names the file itself.
  loaded.catch(() => (loaded = null));
  return loaded;
}
