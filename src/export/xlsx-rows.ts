// A sheet's data rows written straight into exceljs' sheet stream, byte for byte as
// exceljs' own `addRow … commit` would write them (test/unit/xlsx-rows.test.ts compares
// the two). exceljs builds a Row, a Cell per value, a model per cell and an XML node tree
// per row, which was about half of a workbook's CPU time; a portfolio's profiles of one
// size end their walks together, so their workbooks were the run's tail (bench/README.md).
// exceljs still writes everything else: the header row, columns, styles, zip.
import type ExcelJS from 'exceljs';
import colCache from 'exceljs/lib/utils/col-cache.js';
import Enums from 'exceljs/lib/doc/enums.js';
import utils from 'exceljs/lib/utils/utils.js';

type Style = Partial<ExcelJS.Style>;
/** The values a workbook cell of the export holds. */
export type CellValue = string | number | Date | null;
type Value = CellValue;

/** What this module needs of exceljs' WorksheetWriter and its workbook's style registry. */
interface SheetInternals {
  stream: { write(chunk: string): unknown };
  startedData: boolean;
  _workbook: { styles: { addStyleModel(style: Style, cellType?: number): number } };
}

const TYPE = Enums.ValueType;

function typeOf(v: Value): number {
  if (v === null) return TYPE.Null;
  if (typeof v === 'number') return TYPE.Number;
  if (v instanceof Date) return TYPE.Date;
  return TYPE.String;
}

/**
 * Writes rows 2, 3, … of a sheet whose header row exceljs has committed. Each cell's style
 * must be one shared object per look (xlsx-writer's styleCache): exceljs' registry numbers
 * a style object the first time it sees it, with the type of that first cell, and so
 * does this writer, in the same order.
 */
export class DirectRows {
  private readonly sheet: SheetInternals;
  private readonly letters: string[] = [];
  private readonly ids = new Map<Style, number>();
  private rowStyle: string | null = null;
  private next = 2;
  private chunk = '';

  constructor(ws: ExcelJS.Worksheet) {
    this.sheet = ws as unknown as SheetInternals;
    if (!this.sheet.startedData) throw new Error('DirectRows: commit the header row first');
  }

  /** Appends one row; a row with no value but nulls is skipped as exceljs skips it (its number is used up). */
  add(values: Value[], styles: Style[]): void {
    const r = this.next++;
    // exceljs writes no row (and registers none of its styles) without a value
    if (!values.some((v) => v !== null && v !== undefined)) return;
    if (this.rowStyle === null) {
      // exceljs registers each row's own (empty) style before its cells' styles
      const id = this.sheet._workbook.styles.addStyleModel({});
      this.rowStyle = id ? ` s="${id}" customFormat="1"` : '';
    }
    let cells = '';
    for (let i = 0; i < values.length; i++) {
      const v = values[i] ?? null;
      const type = typeOf(v);
      const id = this.styleId(styles[i]!, type);
      const s = id ? ` s="${id}"` : '';
      const ref = `${this.letter(i)}${r}`;
      if (v === null) {
        if (id) cells += `<c r="${ref}"${s}/>`;
        continue;
      }
      if (typeof v === 'number') cells += `<c r="${ref}"${s}><v>${v}</v></c>`;
      else if (v instanceof Date) cells += `<c r="${ref}"${s}><v>${utils.dateToExcel(v)}</v></c>`;
      else cells += `<c r="${ref}"${s} t="str"><v>${utils.xmlEncode(v)}</v></c>`;
    }
    this.chunk += `<row r="${r}" spans="1:${values.length}"${this.rowStyle} x14ac:dyDescent="0.25">${cells}</row>`;
    if (this.chunk.length >= 1 << 16) this.flush();
  }

  /** Hands the rows so far to the sheet's stream (before waiting on it to drain, and before the sheet's commit). */
  flush(): void {
    if (this.chunk) this.sheet.stream.write(this.chunk);
    this.chunk = '';
  }

  /** Data rows added so far, skipped ones included. */
  get rows(): number {
    return this.next - 2;
  }

  private styleId(style: Style, type: number): number {
    let id = this.ids.get(style);
    if (id === undefined) {
      id = this.sheet._workbook.styles.addStyleModel(style, type);
      this.ids.set(style, id);
    }
    return id;
  }

  private letter(i: number): string {
    return (this.letters[i] ??= colCache.n2l(i + 1));
  }
}
