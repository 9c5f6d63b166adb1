// Writes letters to disk as they are rendered: one letter to its own file, or every
// letter of a Property appended to one PDF for printing. A file appears whole or not at
// all (temporary name in the same folder, fsync, rename, as src/core/atomic-file.ts does
// for a buffer); pages go to the disk letter by letter, never all letters in memory.
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { fsyncDir } from '../../core/atomic-file.js';
import { openOwn } from '../../core/bounded-read.js';
import { ExitCode, MeterdataError } from '../../core/errors.js';
import { fileTexts as ft } from '../../core/texts.js';
import { located } from '../../core/disk.js';
import { renameReplacing } from '../../core/replace.js';
import type { LetterFonts } from './fonts.js';
import type { LetterModel } from './model.js';
import { A4, MARGIN, renderLetter } from './render.js';
import { decodeGlyphsOnce } from './glyph-decode.js';
import { drawKept, replay, subsetFonts, type DrawnLetter } from './replay.js';

export interface PdfOptions {
  fonts: LetterFonts;
  /** The PDF's CreationDate (and so its ID): the run's time or SOURCE_DATE_EPOCH, so two runs give the same bytes. */
  createdAt: Date;
  /** The document title a viewer shows. */
  title: string;
  lang: 'en' | 'de';
}

/** Written before waiting for the disk: a combined PDF holds at most about this much in memory. */
const HIGH_WATER = 1 << 20;

function openDocument(opts: PdfOptions): { doc: PDFKit.PDFDocument; fonts: ReturnType<typeof subsetFonts> } {
  // `font: null`: pdfkit loads no font when it starts, not its built-in Helvetica (whose
  // metrics the single executable does not carry); every text names Regular or Bold. Not the
  // TTF itself either: a registered font whose name pdfkit already knows is opened (parsed)
  // again on every doc.font() call, which made rendering ten times slower.
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margins: MARGIN,
    autoFirstPage: false,
    bufferPages: true,
    font: null as unknown as string,
    lang: opts.lang === 'de' ? 'de-DE' : 'en-GB',
    displayTitle: true,
    info: { Title: opts.title, Producer: 'meterdata', Creator: 'meterdata', CreationDate: opts.createdAt },
  });
  const fonts: unknown[] = [];
  for (const [name, bytes] of [
    ['Regular', opts.fonts.regular],
    ['Bold', opts.fonts.bold],
  ] as const) {
    doc.registerFont(name, (parsed.get(bytes) ?? Buffer.from(bytes)) as Buffer);
    // Opened here in this order in every document, so their ids (F1, F2) and bytes never
    // depend on which letter of the run came first. pdfkit accepts a parsed (fontkit) font as
    // well as bytes; the parsed one is kept from the first document. Where pdfkit's inside
    // differs, each document parses its own.
    const embedded = (doc.font(name) as unknown as { _font?: EmbeddedFont })._font;
    if (!parsed.has(bytes) && typeof embedded?.font?.layout === 'function') parsed.set(bytes, embedded.font);
    shareLayouts(embedded, bytes);
    decodeGlyphsOnce(embedded?.font);
    fonts.push(embedded);
  }
  return { doc, fonts: subsetFonts(fonts) };
}

/** Fonts parsed once per process, by their bytes: parsing DejaVu Sans costs about 40 ms of CPU per document, 4 times a letter's drawing. */
const parsed = new WeakMap<Uint8Array, object>();

/** What of pdfkit's font object is used here (its inside: checked before use). */
interface EmbeddedFont {
  font?: { layout?: unknown };
  layoutCache?: Record<string, unknown>;
}

/**
 * pdfkit lays out (shapes) each word once per document and keeps it in the document's font;
 * a letter's own file starts with none, and laying out its words was a third of its drawing
 * (bench/README.md, figure 6). The layouts depend only on the font and the word, and pdfkit
 * only reads them, so the documents of one font share them, the bytes unchanged. Bounded: a
 * fresh store every LAYOUT_DOCUMENTS documents (names and figures differ from letter to letter).
 */
function shareLayouts(embedded: EmbeddedFont | undefined, bytes: Uint8Array): void {
  if (!embedded || typeof embedded.layoutCache !== 'object' || embedded.layoutCache === null) return;
  let store = layouts.get(bytes);
  if (!store || store.documents >= LAYOUT_DOCUMENTS) layouts.set(bytes, (store = { words: embedded.layoutCache, documents: 0 }));
  store.documents++;
  embedded.layoutCache = store.words;
}

const LAYOUT_DOCUMENTS = 100;
const layouts = new WeakMap<Uint8Array, { words: Record<string, unknown>; documents: number }>();

/** A PDF being written to a temporary file beside `file`, renamed to it by close(). */
export class LetterPdf {
  private readonly doc: PDFKit.PDFDocument;
  /** Its fonts as replay renumbers glyphs (null: pdfkit's inside differs, every letter is drawn). */
  private readonly fonts: ReturnType<typeof subsetFonts>;
  private readonly out: WriteStream;
  private readonly tmp: string;
  private failed: unknown = null;
  private letters = 0;

  private constructor(
    private readonly file: string,
    opts: PdfOptions,
  ) {
    this.tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
    this.out = createWriteStream(this.tmp, { flags: 'wx' });
    // The disk's refusal names the letter, not the temporary name (which means nothing to the reader).
    this.out.on('error', (e: NodeJS.ErrnoException) => {
      if (e.path === this.tmp) e.path = file;
      this.failed ??= located(e, file);
    });
    ({ doc: this.doc, fonts: this.fonts } = openDocument(opts));
    this.doc.on('error', (e) => (this.failed ??= e));
    this.doc.pipe(this.out);
  }

  static open(file: string, opts: PdfOptions): LetterPdf {
    return new LetterPdf(file, opts);
  }

  /** Appends one letter on new pages; waits while the disk is behind. */
  async add(model: LetterModel): Promise<void> {
    await this.append(() => renderLetter(this.doc, model));
  }

  /** As add, and hands back what the letter wrote, for another document (addDrawn); null where it cannot be kept. */
  async addKept(model: LetterModel): Promise<DrawnLetter | null> {
    const fonts = this.fonts;
    if (!fonts) return this.add(model).then(() => null);
    let drawn: DrawnLetter | null = null;
    await this.append(() => (drawn = drawKept(this.doc, fonts, () => renderLetter(this.doc, model))));
    return drawn;
  }

  /** Appends the letter `drawn` kept (the same pages, not drawn again); draws `model` where nothing was kept. */
  async addDrawn(model: LetterModel, drawn: DrawnLetter | null): Promise<void> {
    const fonts = this.fonts;
    await this.append(() => {
      if (drawn && fonts && replay(this.doc, fonts, drawn)) this.doc.flushPages();
      else renderLetter(this.doc, model);
    });
  }

  private async append(render: () => void): Promise<void> {
    if (this.failed) throw this.failed;
    render();
    this.letters++;
    if (this.failed) throw this.failed;
    // Bounded: drain, or the stream's end by an error (which sets `failed`).
    if (this.out.writableLength > HIGH_WATER) await new Promise<void>((resolve) => this.out.once('drain', resolve).once('close', resolve));
    if (this.failed) throw this.failed;
  }

  /** Ends the PDF and puts it in place; a PDF without a letter is refused (a viewer shows no page). */
  async close(): Promise<void> {
    if (this.letters === 0) {
      await this.abort();
      throw new Error(`no letter for ${this.file}`);
    }
    try {
      // A failure may have come and closed the file already: nothing would arrive to wait for.
      if (this.failed) throw this.failed;
      this.doc.end();
      // finished() also settles for a stream that has already ended or failed.
      await finished(this.out);
      if (this.failed) throw this.failed;
      // fsync before the rename: it must not publish a file whose pages are still in the cache.
      // its own file still: a FIFO or a link put in its place is refused, never fsynced as the letter (round 27)
      const opened = await openOwn(this.tmp);
      if ('problem' in opened)
        throw new MeterdataError(ft.runFileReplaced({ file: this.tmp, why: opened.problem }), {
          code: 'EXPORT_SCRATCH_DAMAGED',
          exitCode: ExitCode.UNEXPECTED,
          hint: ft.runFileReplacedHint,
        });
      const handle = opened.handle;
      await handle.sync().finally(() => handle.close());
      await renameReplacing(this.tmp, this.file);
    } catch (e) {
      await this.discard();
      throw located(e, this.file);
    }
    await fsyncDir(path.dirname(this.file));
  }

  /** Drops the temporary file (Ctrl-C, an error in a later letter). */
  async abort(): Promise<void> {
    await this.discard();
  }

  /** The file is created by an open that may still be under way: removed only once the stream has closed, or the open would create it after the removal. */
  private async discard(): Promise<void> {
    if (!this.out.closed) {
      const closed = new Promise<void>((resolve) => this.out.once('close', resolve));
      this.out.destroy();
      await closed;
    }
    await rm(this.tmp, { force: true });
  }
}

/** One unit's letter, written whole to `file`; what it wrote is handed back for its Property's combined PDF (LetterPdf.addDrawn). */
export async function writeLetter(file: string, model: LetterModel, opts: PdfOptions): Promise<DrawnLetter | null> {
  const pdf = LetterPdf.open(file, opts);
  let drawn: DrawnLetter | null;
  try {
    drawn = await pdf.addKept(model);
  } catch (e) {
    await pdf.abort();
    throw e;
  }
  await pdf.close();
  return drawn;
}
