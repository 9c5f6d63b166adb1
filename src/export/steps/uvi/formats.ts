// The monthly information's output formats, behind the export's format interface
// (src/export/output/format.ts): CSV for its tables (uvi.csv, review.csv), uvi.json (the rows
// of uvi.csv as one JSON array) and the PDF letters (one per unit and one per Property for
// printing, rendered row by row and streamed to disk, never all held). Every file is written
// under the output folder's temporary name and committed with the others, manifest last.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { LetterModel, LetterPdf, PdfOptions } from '../../../uvi/letter/index.js';
import { partialName, type BufferedFile } from '../../folder/index.js';
import { openOwn } from '../../../core/bounded-read.js';
import { idTag } from '../../../core/id-tag.js';
import { ExitCode, MeterdataError } from '../../../core/errors.js';
import { uviRunTexts } from '../../texts-uvi.js';
import { LetterPool, type Handed } from './letter-pool.js';
import {
  EXPORT_FORMATS,
  type FileEntry,
  type FormatSinks,
  type OutputFormat,
  type Row,
  type SinkContext,
  type TableName,
  type Template,
} from '../../output/index.js';

/** The tables of the monthly information (its template's; TableName names the export's). */
export const UVI_TABLE = 'uvi' as unknown as TableName;
export const REVIEW_TABLE = 'uvi-review' as unknown as TableName;
export const LETTERS_TABLE = 'letters' as unknown as TableName;

/** One unit's letter as a row of the letters table; `last`: the Property's last, its combined PDF ends there. */
export interface LetterFileRow {
  file: string;
  combined: string;
  model: LetterModel;
  last: boolean;
}

const csvOnly = (t: Template): Template => ({ ...t, files: t.files.filter((f) => f.file.endsWith('.csv')) });
const csvFormat = EXPORT_FORMATS.find((f) => f.name === 'csv')!;

/** The export's CSV format over the template's CSV tables (the letters table is no CSV). */
const uviCsv: OutputFormat = {
  ...csvFormat,
  finalNames: (t) => csvFormat.finalNames(csvOnly(t as Template)),
  open: (ctx) => csvFormat.open({ ...ctx, template: csvOnly(ctx.template) }),
};

/** uvi.json: the uvi table's rows as a JSON array, appended as they come. */
const uviJson: OutputFormat = {
  name: 'json',
  label: 'JSON',
  finalNames: () => ['uvi.json'],
  placeOf: () => null,
  async open({ atomic }: SinkContext): Promise<FormatSinks<Awaited<ReturnType<BufferedFile['mark']>> & { rows: number }>> {
    const file = await atomic.create('uvi.json');
    let rows = 0;
    return {
      async row(table, row) {
        if (table === UVI_TABLE) await file.write(`${rows++ === 0 ? '[\n' : ',\n'}${JSON.stringify(row)}`);
      },
      mark: async () => ({ ...(await file.mark()), rows }),
      async rewind(m) {
        await file.rewind(m);
        rows = m.rows;
      },
      async stage() {
        await file.write(rows === 0 ? '[]\n' : '\n]\n');
        await atomic.closeFile(file);
        return { files: [{ name: 'uvi.json', bytes: file.bytes, sha256: file.digest(), rows }] };
      },
    };
  },
};

/**
 * A name part's most UTF-8 bytes. A file name may have 255 bytes (ext4, APFS; NTFS counts UTF-16
 * units, fewer): "letter-" + two parts + "-" + 8 hex + ".pdf" is at most 182, and the letter's
 * temporary name (".<name>.partial" and the PDF writer's ".<pid>.<ms>.<random>.tmp") adds under 64.
 */
export const NAME_PART_BYTES = 80;

/**
 * A file name part from a server's name: letters, digits, - and _ only (a name is never a
 * path, nor a control or bidi character), at most 40 characters and NAME_PART_BYTES bytes
 * (cut between characters: 60 CJK letters are 180 bytes); "x" where nothing is left.
 */
function namePart(text: string): string {
  const plain = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  let out = '';
  let bytes = 0;
  for (const ch of [...plain].slice(0, 40)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > NAME_PART_BYTES) break;
    out += ch;
  }
  return out === '' ? 'x' : out;
}

/** "letter-Rheinuferstraße_12-WE_01-0efbc34d.pdf": what a clerk finds the flat by, and the id's start, which keeps two flats of one name apart. */
export function letterName(prefix: string, names: readonly string[], id: string): string {
  return `${prefix}-${[...names.map(namePart), idTag(id)].join('-')}.pdf`;
}

/**
 * A letter's entry in the manifest, read back from its temporary file: only as a plain file (a FIFO put in its place
 * in a shared --out hung the run deaf to Ctrl-C and SIGTERM, round 26), in pieces, never whole in memory.
 */
export async function letterEntry(name: string, file: string): Promise<FileEntry> {
  const opened = await openOwn(file); // the run's own file still, not a letter or a link put in its place (round 27)
  if ('problem' in opened)
    throw new MeterdataError(uviRunTexts.letterReplaced({ file, problem: opened.problem }), {
      code: 'EXPORT_SCRATCH_DAMAGED',
      exitCode: ExitCode.UNEXPECTED,
      hint: uviRunTexts.letterReplacedHint,
    });
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 16);
  let bytes = 0;
  try {
    for (let n; (n = (await opened.handle.read(buf, 0, buf.length, bytes)).bytesRead) > 0; bytes += n) hash.update(buf.subarray(0, n));
  } finally {
    await opened.handle.close();
  }
  return { name, bytes, sha256: hash.digest('hex') };
}

/**
 * pdfkit and fontkit, loaded at the first letter rather than with the run: loading them
 * (about a tenth of a second of CPU, in the run's thread and the thread it starts) came before
 * the first request, and the walk is paced from it (bench/README.md, figure 6).
 */
let pdfLibrary: Promise<typeof import('../../../uvi/letter/write.js')> | undefined;
const pdfLib = () => (pdfLibrary ??= import('../../../uvi/letter/write.js'));

/**
 * The letters: each row to its own PDF and to its Property's combined one. `ownInWorker`: the
 * units' own files are drawn in a worker thread where the build has one (letter-pool.ts). Each
 * letter is drawn once, into its own file; the combined PDF takes the same pages from that
 * drawing as it comes, in the units' order (src/uvi/letter/replay.ts).
 */
function lettersFormat(pdf: () => Promise<Omit<PdfOptions, 'title'>>, ownInWorker: boolean): OutputFormat {
  return {
    name: 'pdf',
    label: 'PDF',
    // Named after the units, which only the walk brings.
    finalNames: () => [],
    placeOf: () => null,
    async open({ atomic, dir, signal }: SinkContext): Promise<FormatSinks<number>> {
      const written: [string, string][] = [];
      let combined: LetterPdf | null = null;
      let pool: LetterPool | null | undefined;
      /** The combined PDF's letters, appended in order as their drawings come; its first failure. */
      let appended: Promise<void> = Promise.resolve();
      let failed: unknown = null;
      /** The temporary path behind `name`, registered to be committed (the PDF writer puts its file there). */
      const place = async (name: string) => {
        await atomic.closeFile(await atomic.create(name));
        written.push([name, path.join(dir, partialName(name))]);
        return written.at(-1)![1];
      };
      /** A unit's own file: by the worker thread where there is one (here while it is behind), else here. */
      const own = async (file: string, model: LetterModel, opts: Omit<PdfOptions, 'title'>): Promise<Handed> => {
        pool ??= ownInWorker && LetterPool.available() ? new LetterPool({ createdAt: opts.createdAt.getTime(), lang: opts.lang }, { signal }) : null;
        const { writeLetter } = await pdfLib();
        const here = () => writeLetter(file, model, { ...opts, title: model.title });
        return pool ? pool.write({ file, title: model.title, model }, here) : { drawn: Promise.resolve(await here()) };
      };
      return {
        async row(table: TableName, row: Row) {
          if (table !== LETTERS_TABLE) return;
          // Ctrl-C while a Property's letters are handed over: none more is drawn here (the run ends with 130).
          signal?.throwIfAborted();
          const r = row as unknown as LetterFileRow;
          const opts = await pdf();
          combined ??= (await pdfLib()).LetterPdf.open(await place(r.combined), { ...opts, title: r.combined });
          const into = combined;
          try {
            if (failed) throw failed;
            const { drawn } = await own(await place(r.file), r.model, opts);
            appended = appended.then(async () => into.addDrawn(r.model, await drawn));
            appended.catch((e: unknown) => (failed ??= e));
            if (r.last) {
              await appended;
              await into.close();
            }
          } catch (e) {
            await appended.catch(() => undefined);
            await into.abort();
            throw e;
          } finally {
            if (r.last) combined = null;
          }
        },
        // A page written cannot be taken back: the monthly run writes each Property at its end only (no rewind).
        mark: async () => written.length,
        async rewind(m) {
          if (m !== written.length) throw new Error('letters written since the mark cannot be taken back');
        },
        async stage() {
          await pool?.close(signal); // every letter handed to the worker is on disk before it is hashed
          await appended;
          const files: FileEntry[] = [];
          for (const [name, file] of written) files.push(await letterEntry(name, file));
          return { files };
        },
        // The worker's letter under way ends before the run's temporary files are removed.
        abort: async () => {
          await pool?.abort();
          await appended.catch(() => undefined);
          await combined?.abort();
        },
      };
    },
  };
}

/**
 * The monthly information's formats, in the order their files are listed and committed.
 * `ownInWorker`: a run of its own (not one of a portfolio's many profiles, each of which would
 * start a thread) draws the units' own letters in a worker thread.
 */
export function uviFormats(pdf: () => Promise<Omit<PdfOptions, 'title'>>, ownInWorker = false): OutputFormat[] {
  return [uviCsv, uviJson, lettersFormat(pdf, ownInWorker)];
}
