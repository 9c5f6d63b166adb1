// A sheet's page and header: A4 landscape fitted to the width, the frozen header row, the filter.
import type ExcelJS from 'exceljs';
import colCache from 'exceljs/lib/utils/col-cache.js';
import { rowHeight } from './xlsx-cells.js';

const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };
/** A header wraps at its spaces, so a column is as wide as its figures, not as its header. */
const HEADER_ALIGNMENT: Partial<ExcelJS.Alignment> = { wrapText: true, vertical: 'top' };

/**
 * Column width units (characters of the default font, Calibri 11) one A4 landscape page
 * holds at 66 %, i.e. text of 7.3 pt and more: a page at 100 % held about 112 of them in
 * LibreOffice's PDF with the default margins of 0.7 in, about 119 with MARGINS.
 */
export const PAGE_WIDTH = 180;

/** Narrower side margins than exceljs' 0.7 in: 6 % more of the page for the columns. */
const MARGINS: ExcelJS.Margins = { left: 0.4, right: 0.4, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 };

/**
 * Landscape A4, the header row repeated on every page, fitted to the width only: as many
 * pages across as the printed columns need to print at 75 % or more (a wide sheet fitted to
 * one page printed at about 3 pt). Where it takes more than one, the first column (the
 * Property, the unit or the finding's rating) repeats on each page across. `printed`: the
 * columns printed, from the first (a table sheet leaves its ids, all last, off the paper).
 */
export function pageSetup(widths: readonly number[], printed?: { columns: number; rows: number }): Partial<ExcelJS.PageSetup> {
  const shown = printed ? widths.slice(0, printed.columns) : widths;
  const total = shown.reduce((a, b) => a + b, 0);
  const title = shown[0] ?? 0;
  const across = total <= PAGE_WIDTH ? 1 : 1 + Math.ceil((total - PAGE_WIDTH) / (PAGE_WIDTH - title));
  // exceljs puts a $ before each part of the print area: A$1 becomes $A$1
  return {
    orientation: 'landscape',
    paperSize: 9,
    fitToPage: true,
    fitToWidth: across,
    fitToHeight: 0,
    printTitlesRow: '1:1',
    ...(across > 1 ? { printTitlesColumn: 'A:A' } : {}),
    ...(printed && printed.columns > 0 && printed.columns < widths.length ? { printArea: `A$1:${colCache.n2l(printed.columns)}$${printed.rows + 1}` } : {}),
  };
}

export function sheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, widths: number[], printed?: { columns: number; rows: number }): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }], pageSetup: { ...pageSetup(widths, printed), margins: MARGINS } });
  ws.columns = widths.map((width) => ({ width }));
  return ws;
}

/** Bold letters are wider: a header line is reckoned at this share of its column's width. */
const BOLD = 0.8;

export function header(ws: ExcelJS.Worksheet, labels: string[], widths: readonly number[]): void {
  const row = ws.addRow(labels);
  row.font = HEADER_FONT;
  row.alignment = HEADER_ALIGNMENT;
  const height = rowHeight(labels.map((text, i) => ({ text, width: Math.floor((widths[i] ?? 8) * BOLD) })));
  if (height !== null) row.height = height;
  row.commit();
}

export function filter(ws: ExcelJS.Worksheet, rows: number, cols: number): void {
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows + 1), column: cols } };
}
