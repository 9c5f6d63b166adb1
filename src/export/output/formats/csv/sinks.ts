// The CSV files of one export, each opened with its header and fed row by row.
import type { BufferedFile, FileMark } from '../../../folder/index.js';
import type { FileEntry, FormatSinks, SinkContext, StageContext } from '../../format.js';
import type { Row, TableName } from '../../tables.js';
import { CsvTableWriter } from './csv-writer.js';

interface CsvMark {
  files: [BufferedFile, FileMark][];
  rows: Map<TableName, number>;
}

class CsvSinks implements FormatSinks<CsvMark> {
  readonly tables = new Map<TableName, { file: BufferedFile; writer: CsvTableWriter }>();

  constructor(private readonly ctx: SinkContext) {}

  async row(table: TableName, row: Row): Promise<void> {
    await this.tables.get(table)?.writer.write(row);
  }

  async mark(): Promise<CsvMark> {
    const files: [BufferedFile, FileMark][] = [];
    for (const { file } of this.tables.values()) files.push([file, await file.mark()]);
    return { files, rows: new Map([...this.tables].map(([t, c]) => [t, c.writer.rows])) };
  }

  async rewind(mark: CsvMark): Promise<void> {
    for (const [f, m] of mark.files) await f.rewind(m);
    for (const [t, c] of this.tables) c.writer.rows = mark.rows.get(t) ?? 0;
  }

  async stage({ rows }: StageContext): Promise<{ files: FileEntry[] }> {
    const files: FileEntry[] = [];
    for (const [table, { file, writer }] of this.tables) {
      await this.ctx.atomic.closeFile(file);
      files.push({ name: writer.file.file, bytes: file.bytes, sha256: file.digest(), rows: rows[table] ?? 0 });
    }
    return { files };
  }
}

export async function openCsv(ctx: SinkContext): Promise<CsvSinks> {
  const sinks = new CsvSinks(ctx);
  for (const f of ctx.template.files) {
    const file = await ctx.atomic.create(f.file);
    const writer = new CsvTableWriter(file, ctx.template, f);
    await writer.start();
    sinks.tables.set(f.table, { file, writer });
  }
  return sinks;
}
