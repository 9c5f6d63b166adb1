// The data rows of one table sheet as sheet XML in a scratch file (the sheet's "fragment"),
// rendered from the table's NDJSON spool. The rows can be rendered in pieces while the
// export still walks (the portfolio's workbook workers render each profile's spools as its
// Properties finish), or all at once at the end: the bytes are the same either way, since
// a row's XML depends only on the row, its number and the fixed style table. The workbook
// then only copies the fragment into its sheet (xlsx-writer.ts).
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { notOurs, openOwn } from '../../../../core/bounded-read.js';
import { fileTexts } from '../../../../core/texts.js';
import { ExitCode, MeterdataError } from '../../../../core/errors.js';
import { cellOf, type Row, type TableName } from '../../tables.js';
import { scratchText as t } from './texts-scratch.js';
import type { Template, TemplateColumn } from '../../templates.js';
import { cellValue, rowHeight, widest, Widths, workbookColumns, workbookStyle, wraps } from './xlsx-cells.js';
import { asksAction } from '../../../overview-marks.js';
import { rowXml, type CellValue, type StyleTable } from './xlsx-rows.js';

/** One table sheet: where its rows are spooled and where its rendered rows go. */
export interface TableSheet {
  table: TableName;
  sheet: string;
  columns: TemplateColumn[];
  spool: string;
  fragment: string;
}

const READ = 1 << 20;

/**
 * Where a spool's rows go, rendered: beside it, a scratch name like the spool's with the
 * export run's token (".billing.ndjson.<run>.rows.partial"). The token keeps a render that
 * comes late for an aborted run from writing into the files of a later run in the folder.
 */
export function fragmentOf(spool: string, run?: string): string {
  return spool.replace(/(\.partial)?$/, `${run ? `.${run}` : ''}.rows.partial`);
}

export class SheetFragment {
  readonly columns: TemplateColumn[];
  private readonly widthsOf: Widths;
  private readonly style;
  private readonly idOf: ((v: CellValue) => number)[];
  /** The same with the highlight: a row whose findings ask for action (see `marked`). */
  private readonly markedIdOf: ((v: CellValue) => number)[];
  /** Bytes of the spool rendered so far (whole lines only), and of the fragment written. */
  private read = 0;
  private written = 0;
  private rowCount = 0;
  /** The start of a row not yet ended, in pieces: a row spread over many reads is joined once, when it ends. */
  private carry: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private outFlags: 'w' | 'r+';

  /** `create`: the fragment is made here (rendered all at once); else the export made it, empty. */
  constructor(
    readonly spec: TableSheet,
    template: Template,
    private readonly styles: StyleTable,
    create = false,
  ) {
    this.outFlags = create ? 'w' : 'r+';
    this.columns = workbookColumns(spec.columns);
    this.widthsOf = new Widths(
      this.columns.map((c) => c.header),
      this.columns.map((c) => widest(c.key)),
    );
    this.style = workbookStyle(template);
    const numFmt = (c: TemplateColumn) => (c.type === 'date' ? template.dateFormat : undefined);
    this.idOf = this.columns.map((c) => styles.column(numFmt(c), false, wraps(c.key)));
    this.markedIdOf = this.columns.map((c) => styles.column(numFmt(c), true, wraps(c.key)));
  }

  /**
   * Renders the spool's bytes from where the last call stopped up to `upTo` (null: its end).
   * The fragment file must exist (the export creates it with the spool): a fragment removed
   * by an aborted export is not created again by a late render.
   */
  async advance(upTo: number | null): Promise<void> {
    // a table that gained no rows since the last render (most of them, between two of a Property's units): no files opened
    if (upTo !== null && upTo <= this.read) return;
    const spool = await openScratch(this.spec.spool);
    // never through a link swapped in, and only the run's own file (round 28: the rows were written through a link)
    const flags = (this.outFlags === 'w' ? constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC : constants.O_RDWR) | (constants.O_NOFOLLOW ?? 0);
    const out = await open(this.spec.fragment, flags).catch((e: NodeJS.ErrnoException) =>
      Promise.reject(e.code === 'ELOOP' ? scratchDamaged(this.spec.fragment, fileTexts.isLink) : e),
    );
    const why = notOurs(await out.stat(), path.dirname(this.spec.fragment));
    if (why) {
      await out.close();
      throw scratchDamaged(this.spec.fragment, why);
    }
    this.outFlags = 'r+';
    try {
      // sized to what is asked: renders ahead take a few KB every 16 units, and a fresh 1 MB each time
      // was memory outside the heap that the workbook workers' collector chased
      const first = upTo === null ? READ : Math.min(READ, upTo - this.read);
      const buf = Buffer.allocUnsafe(Math.max(first, 0));
      for (;;) {
        const want = upTo === null ? READ : Math.min(READ, upTo - this.read);
        if (want <= 0) break;
        const { bytesRead } = await spool.read(buf, 0, want, this.read);
        // the export said this much was on disk: less is a damaged spool, never a shorter sheet
        if (bytesRead === 0 && upTo !== null) throw scratchDamaged(this.spec.spool, t.shorter({ bytes: upTo }));
        if (bytesRead === 0) break;
        this.read += bytesRead;
        const xml = this.render(this.decoder.write(buf.subarray(0, bytesRead)));
        if (xml) await this.writeAll(out, Buffer.from(xml, 'utf8'));
      }
    } finally {
      await spool.close();
      await out.close();
    }
  }

  /** A write may take part of the bytes (a disk filling up): the rest follows, never a hole. */
  private async writeAll(out: FileHandle, bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      const { bytesWritten } = await out.write(bytes, at, bytes.length - at, this.written);
      if (bytesWritten <= 0)
        throw new MeterdataError(t.notWritten({ file: this.spec.fragment, bytes: bytes.length - at }), {
          code: 'EXPORT_SCRATCH_DAMAGED',
          exitCode: ExitCode.UNEXPECTED,
          hint: t.hint,
        });
      at += bytesWritten;
      this.written += bytesWritten;
    }
  }

  /** Renders the whole lines of `text` (after what an earlier piece left over). */
  private render(text: string): string {
    if (!text.includes('\n')) {
      if (text) this.carry.push(text);
      return '';
    }
    const lines = (this.carry.join('') + text).split('\n');
    this.carry = [lines.pop()!].filter(Boolean);
    const rowAttributes = this.styles.rowAttributes();
    const n = this.columns.length;
    let xml = '';
    for (const line of lines) {
      if (!line) continue;
      const r = parseRow(line, this.spec.spool, this.rowCount + 1);
      const values = new Array<CellValue>(n);
      const ids = new Array<number>(n);
      const idOf = marked(r) ? this.markedIdOf : this.idOf;
      for (let i = 0; i < n; i++) {
        const c = this.columns[i]!;
        values[i] = cellValue(cellOf(r, c.key), c.type, this.style);
        ids[i] = idOf[i]!(values[i]!);
      }
      this.widthsOf.add(values);
      const wrapped = this.columns.flatMap((c, i) => (wraps(c.key) && typeof values[i] === 'string' ? [{ text: values[i], width: widest(c.key) }] : []));
      const ht = wrapped.length ? rowHeight(wrapped) : null;
      xml += rowXml(2 + this.rowCount++, values, ids, ht === null ? rowAttributes : `${rowAttributes} ht="${ht}" customHeight="1"`);
    }
    return xml;
  }

  /**
   * What the sheet needs once every row is rendered; a spool that ends without a newline,
   * or holds other than the `rows` the export wrote, is damaged.
   */
  result(rows?: number): { rows: number; widths: number[]; bytes: number } {
    if (this.carry.length > 0 || this.decoder.end()) throw scratchDamaged(this.spec.spool, t.lastRowIncomplete);
    if (rows !== undefined && rows !== this.rowCount) throw scratchDamaged(this.spec.spool, t.rowCount({ rows: this.rowCount, wrote: rows }));
    // a column of prose has its full width whatever its first rows: the rows' heights are reckoned with it
    const widths = this.widthsOf.widths.map((w, i) => (wraps(this.columns[i]!.key) ? widest(this.columns[i]!.key) : w));
    return { rows: this.rowCount, widths, bytes: this.written };
  }
}

/**
 * A table row a finding asking for action (not billed, review) is about: its own findings
 * column (billing, segments and plant-point rows' review_flags, plausibility rows' checks)
 * names one, whether or not the template shows that column.
 */
function marked(r: Row): boolean {
  const codes = r.review_flags ?? r.checks;
  return Array.isArray(codes) && codes.some((c) => asksAction(String(c)));
}

function parseRow(line: string, spool: string, n: number): Row {
  try {
    return JSON.parse(line) as Row;
  } catch {
    throw scratchDamaged(spool, t.notJson({ row: n }));
  }
}

/** One of the export's own scratch files is not what the export wrote (see texts-scratch.ts). */
export function scratchDamaged(file: string, why: string): MeterdataError {
  return new MeterdataError(t.damaged({ file, why }), { code: 'EXPORT_SCRATCH_DAMAGED', exitCode: ExitCode.UNEXPECTED, hint: t.hint });
}

/**
 * A scratch file of this export opened to be read back: a FIFO or a device put in its place (a shared --out) is
 * refused, never waited on; so is a link or another user's file (round 27: read as the run's own, into the workbook).
 */
export async function openScratch(file: string): Promise<FileHandle> {
  const opened = await openOwn(file);
  if ('problem' in opened) throw scratchDamaged(file, opened.problem);
  return opened.handle;
}
