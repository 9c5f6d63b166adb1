// One CSV table as the template lays it out: optional BOM, a header row, then rows
// streamed as they come. Bytes depend only on the rows and the template. Text cells
// that a spreadsheet would run as a formula are neutralised (the workbook keeps them
// as plain string cells, which no spreadsheet evaluates).
import { csvLine, formatCell, neutraliseFormula } from '../../cell-text.js';
import { cellOf, type Row } from '../../tables.js';
import type { Template, TemplateFile } from '../../templates.js';

export interface TextSink {
  write(text: string): Promise<void> | void;
}

export class CsvTableWriter {
  rows = 0;

  constructor(
    private readonly sink: TextSink,
    private readonly template: Template,
    readonly file: TemplateFile,
  ) {}

  async start(): Promise<void> {
    const head = csvLine(
      this.file.columns.map((c) => c.header),
      this.template.separator,
      this.template.eol,
    );
    await this.sink.write((this.template.bom ? '\uFEFF' : '') + head);
  }

  async write(row: Row): Promise<void> {
    this.rows++;
    await this.sink.write(this.line(row));
  }

  line(row: Row): string {
    const t = this.template;
    return csvLine(
      this.file.columns.map((c) => {
        const text = formatCell(cellOf(row, c.key), c.type, t);
        return c.type === 'number' || c.type === 'integer' ? text : neutraliseFormula(text);
      }),
      t.separator,
      t.eol,
    );
  }
}

/** The whole table as one string (tests, small outputs). */
export function renderCsv(template: Template, file: TemplateFile, rows: Row[]): string {
  let out = '';
  const w = new CsvTableWriter({ write: (s) => void (out += s) }, template, file);
  void w.start();
  for (const r of rows) void w.write(r);
  return out;
}
