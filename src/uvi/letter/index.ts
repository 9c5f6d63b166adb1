// The monthly letter (§ 6a HeizkostenV): its model (pure), its PDF rendering and writers.
export { letterFonts, FONT_FILES, type LetterFonts } from './fonts.js';
export { figure, groupDigits, DECIMALS, type FigureUnit } from './figures.js';
export { letterModel, MISSING, ESTIMATED, type ChartBar, type LetterInput, type LetterModel, type LetterRow, type LetterService } from './model.js';
export { LetterPdf, writeLetter, type PdfOptions } from './write.js';
export type { DrawnLetter } from './replay.js';
