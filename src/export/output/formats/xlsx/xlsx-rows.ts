// A sheet's data rows as XML, byte for byte as exceljs' own `addRow … commit` writes them
// (test/unit/xlsx-rows.test.ts compares the two). exceljs builds a Row, a Cell per value, a
// model per cell and an XML node tree per row, which was about half of a workbook's CPU
// time; rendered here, the rows of a sheet can also be written ahead, while the export
// still walks (xlsx-fragments.ts). exceljs still writes everything else: header rows,
// columns, styles, the zip.
//
// A cell's style id comes from a fixed table registered before anything else, so a row's
// XML does not depend on which rows came before it: exceljs numbers styles in the order it
// first meets them, which would tie every row to the whole workbook written so far.
import type ExcelJS from 'exceljs';
import colCache from 'exceljs/lib/utils/col-cache.js';
import Enums from 'exceljs/lib/doc/enums.js';
import StylesXform from 'exceljs/lib/xlsx/xform/style/styles-xform.js';
import utils from 'exceljs/lib/utils/utils.js';

type Style = Partial<ExcelJS.Style>;

/** The values a workbook cell of the export holds. */
export type CellValue = string | number | Date | null;

/** What exceljs' style registry (a workbook's `styles`) offers. */
export interface StyleRegistry {
  addStyleModel(style: Style, cellType?: number): number;
}

const TYPE = Enums.ValueType;
const KINDS = ['null', 'number', 'string', 'date'] as const;
type Kind = (typeof KINDS)[number];
const TYPE_OF: Record<Kind, number> = { null: TYPE.Null, number: TYPE.Number, string: TYPE.String, date: TYPE.Date };

function kindOf(v: CellValue): Kind {
  if (v === null) return 'null';
  if (typeof v === 'number') return 'number';
  if (v instanceof Date) return 'date';
  return 'string';
}

/** The highlight of a figure a finding touches. */
export const FLAG_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFE08A' } };

/** A long text (a finding's message) wraps inside its column, so a printed page shows all of it. */
const WRAP: Partial<ExcelJS.Alignment> = { wrapText: true, vertical: 'top' };
/** Every cell at the top of its row: beside a wrapped text of several lines, the row's other cells start where it starts. */
const TOP: Partial<ExcelJS.Alignment> = { vertical: 'top' };

/**
 * Every style a data cell can have: (value kind) × (the template's date format or none) ×
 * (highlight or none), then text that wraps (× highlight), plus the rows' own empty style,
 * each one shared object, registered in one fixed order. `ids` are what that order gives in
 * a fresh registry.
 */
export class StyleTable {
  private readonly styles = new Map<string, { style: Style; type: number }>();
  readonly rowStyle: Style = {};
  private ids = new Map<Style, number>();

  constructor(readonly dateFormat: string) {
    for (const kind of KINDS) {
      for (const numFmt of [undefined, dateFormat]) {
        for (const fill of [false, true]) {
          const style: Style = { alignment: TOP };
          if (numFmt) style.numFmt = numFmt;
          if (fill) style.fill = FLAG_FILL;
          this.styles.set(key(kind, numFmt, fill), { style, type: TYPE_OF[kind] });
        }
      }
    }
    for (const fill of [false, true])
      this.styles.set(key('string', undefined, fill, true), { style: { alignment: WRAP, ...(fill ? { fill: FLAG_FILL } : {}) }, type: TYPE.String });
    this.ids = this.register(new StylesXform(true));
  }

  /**
   * Registers the table in a workbook's registry, before any other style: a registry that
   * numbers them otherwise would make the rows written ahead wrong, so that is refused.
   */
  registerIn(registry: StyleRegistry): void {
    const got = this.register(registry);
    for (const [style, id] of got) if (this.ids.get(style) !== id) throw new Error('workbook styles registered before the table: row styles would not match');
  }

  private register(registry: StyleRegistry): Map<Style, number> {
    const ids = new Map<Style, number>([[this.rowStyle, registry.addStyleModel(this.rowStyle)]]);
    for (const { style, type } of this.styles.values()) ids.set(style, registry.addStyleModel(style, type));
    return ids;
  }

  /** The shared style object of a cell (for exceljs' own rows). */
  style(v: CellValue, numFmt?: string, fill?: boolean): Style {
    const s = this.styles.get(key(kindOf(v), numFmt, fill ?? false));
    if (!s) throw new Error(`no style for number format ${numFmt}`);
    return s.style;
  }

  /** The style id of a cell. */
  id(v: CellValue, numFmt?: string, fill?: boolean): number {
    return this.ids.get(this.style(v, numFmt, fill))!;
  }

  /** A column's style id by the kind of its value (numFmt, fill and wrap fixed for the column): no lookup per cell. */
  column(numFmt?: string, fill?: boolean, wrap?: boolean): (v: CellValue) => number {
    const [n, u, s, d] = KINDS.map((k) => this.ids.get(this.styles.get(key(k, numFmt, fill ?? false, k === 'string' && wrap === true))!.style)!);
    return (v) => (v === null ? n! : typeof v === 'number' ? u! : v instanceof Date ? d! : s!);
  }

  /** The row element's style attributes (none while the rows' style is the default). */
  rowAttributes(): string {
    const id = this.ids.get(this.rowStyle)!;
    return id ? ` s="${id}" customFormat="1"` : '';
  }
}

function key(kind: Kind, numFmt: string | undefined, fill: boolean, wrap = false): string {
  return `${kind}\u0000${numFmt ?? ''}\u0000${fill ? 1 : 0}${wrap ? '\u0000wrap' : ''}`;
}

const letters: string[] = [];
const letter = (i: number): string => (letters[i] ??= colCache.n2l(i + 1));

/**
 * Row `r` of a sheet: `ids[i]` is the style id of `values[i]`. A row of nothing but nulls
 * is '' (exceljs writes no such row; its number is still used up).
 */
export function rowXml(r: number, values: readonly CellValue[], ids: readonly number[], rowAttributes: string): string {
  if (!values.some((v) => v !== null && v !== undefined)) return '';
  let cells = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? null;
    const id = ids[i]!;
    const s = id ? ` s="${id}"` : '';
    const ref = `${letter(i)}${r}`;
    if (v === null) {
      if (id) cells += `<c r="${ref}"${s}/>`;
    } else if (typeof v === 'number') cells += `<c r="${ref}"${s}><v>${v}</v></c>`;
    else if (v instanceof Date) cells += `<c r="${ref}"${s}><v>${utils.dateToExcel(v)}</v></c>`;
    else cells += `<c r="${ref}"${s} t="str"><v>${utils.xmlEncode(v)}</v></c>`;
  }
  return `<row r="${r}" spans="1:${values.length}"${rowAttributes} x14ac:dyDescent="0.25">${cells}</row>`;
}
