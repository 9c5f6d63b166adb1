// The monthly information's own files, beside the tables the driver writes: uvi.json (the
// rows of uvi.csv as one JSON array, written as they come) and the PDF letters (one per unit
// and one per Property for printing, streamed to disk as they are rendered: pages are never
// all held). Each is written under the output folder's temporary name (`.<name>.partial`) and
// committed with the run's files, manifest last (pipeline/finish.ts); a failed run removes them.
import { createHash } from 'node:crypto';
import { open, readFile, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { located } from '../../../core/disk.js';
import { LetterPdf, type LetterModel, type PdfOptions } from '../../../uvi/letter/index.js';
import { partialName } from '../../atomic.js';
import type { FileEntry } from '../../output/index.js';
import type { StepFiles } from '../../pipeline/index.js';

/**
 * A file name part from a server's name: letters, digits, - and _ only (a name is never a
 * path, nor a control or bidi character), at most 40 characters; "x" where nothing is left.
 */
function namePart(text: string): string {
  const plain = text.normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  return plain === '' ? 'x' : plain;
}

/** "letter-Rheinuferstraße_12-WE_01-0efbc34d.pdf": what a clerk finds the flat by, and the id's start, which keeps two flats of one name apart. */
export function letterName(prefix: string, names: readonly string[], id: string): string {
  const tag = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${prefix}-${[...names.map(namePart), tag].join('-')}.pdf`;
}

async function entryOf(name: string, file: string): Promise<FileEntry> {
  const bytes = await readFile(file);
  return { name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** uvi.json, an array of the uvi rows, appended Property by Property. */
class JsonRows {
  private handle: FileHandle | null = null;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  rows = 0;

  constructor(
    readonly name: string,
    readonly file: string,
  ) {}

  private async openFile(): Promise<FileHandle> {
    try {
      this.handle = await open(this.file, 'w');
      return this.handle;
    } catch (e) {
      throw located(e, this.file);
    }
  }

  private async put(text: string): Promise<void> {
    const handle = this.handle ?? (await this.openFile());
    const buf = Buffer.from(text);
    await handle.write(buf).catch((e: unknown) => Promise.reject(located(e, this.file)));
    this.hash.update(buf);
    this.bytes += buf.length;
  }

  async add(rows: readonly object[]): Promise<void> {
    for (const r of rows) await this.put(`${this.rows++ === 0 ? '[\n' : ',\n'}${JSON.stringify(r)}`);
  }

  async close(): Promise<FileEntry> {
    await this.put(this.rows === 0 ? '[]\n' : '\n]\n');
    await this.handle!.sync();
    await this.handle!.close();
    this.handle = null;
    return { name: this.name, bytes: this.bytes, sha256: this.hash.digest('hex'), rows: this.rows };
  }

  async abort(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    await rm(this.file, { force: true });
  }
}

/** One unit's letter: its file name and its model. */
export interface UnitLetter {
  name: string;
  model: LetterModel;
}

/** Every file of the monthly information that is not a table, for one run. */
export class OwnFiles {
  private readonly json: JsonRows;
  private readonly pending: [string, string][] = [];
  private readonly names: string[] = [];
  private open: LetterPdf | null = null;
  letters = 0;

  constructor(
    private readonly dir: string,
    private readonly pdf: () => Promise<PdfOptions>,
  ) {
    this.json = new JsonRows('uvi.json', path.join(dir, partialName('uvi.json')));
  }

  private place(name: string): string {
    const file = path.join(this.dir, partialName(name));
    this.pending.push([name, file]);
    this.names.push(name);
    return file;
  }

  rows(rows: readonly object[]): Promise<void> {
    return this.json.add(rows);
  }

  /** A Property's letters: each to its own file and all to `combined`, one after the other. */
  async property(combined: string, letters: readonly UnitLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const opts = await this.pdf();
    this.open = LetterPdf.open(this.place(combined), { ...opts, title: combined });
    for (const l of letters) {
      const one = LetterPdf.open(this.place(l.name), { ...opts, title: l.model.title });
      try {
        await one.add(l.model);
      } catch (e) {
        await one.abort();
        throw e;
      }
      await one.close();
      await this.open.add(l.model);
      this.letters++;
    }
    await this.open.close();
    this.open = null;
  }

  async close(): Promise<StepFiles> {
    const json = await this.json.close();
    const files = [json];
    for (const [name, file] of this.pending) files.push(await entryOf(name, file));
    return { pending: [['uvi.json', this.json.file], ...this.pending], files };
  }

  async abort(): Promise<void> {
    await this.open?.abort();
    await this.json.abort();
    for (const [, file] of this.pending) await rm(file, { force: true });
  }
}
