// The XLSX format: billing.xlsx with an Overview sheet, one sheet per table and an About sheet.
// Rows are spooled while the export walks (sinks.ts), may be rendered ahead by the portfolio's
// workbook workers (workbook-workers.ts), and the workbook is written after the walk (finish.ts,
// xlsx-writer.ts). Everything that loads exceljs is imported only when a workbook is written.
import { summaryWords } from '../../../texts-summary.js';
import type { Finisher, OutputFormat } from '../../format.js';
import type { WorkbookWriter } from './types.js';
import type { XlsxInput } from './xlsx-writer.js';

export const XLSX_FILE = 'billing.xlsx';

export const writeWorkbookHere: WorkbookWriter = async (input) => {
  const { writeXlsx } = await import('./xlsx-writer.js'); // exceljs only when a workbook is wanted
  await writeXlsx(input);
};

export const xlsxFormat = {
  name: 'xlsx',
  label: 'XLSX',
  finalNames: () => [XLSX_FILE],
  placeOf: (file, written) => (written.some((w) => w.name === XLSX_FILE) ? summaryWords.sheetOf({ sheet: file.sheet, file: XLSX_FILE }) : null),
  open: async (ctx) => (await import('./sinks.js')).openXlsx(ctx),
  finish: {
    run: async (input: XlsxInput, write: WorkbookWriter = writeWorkbookHere) => (await import('./finish.js')).finishWorkbook(input, write),
  } satisfies Finisher<XlsxInput>,
} as const satisfies OutputFormat<'xlsx'>;

/** The modules a worker thread runs: `writeXlsx` (one workbook) and `serveWorkbooks` (the portfolio's workers). */
export const WORKBOOK_MODULE = new URL('./xlsx-writer.js', import.meta.url);
export const WORKBOOK_WORKERS_MODULE = new URL('./workbook-workers.js', import.meta.url);

/** The portfolio's workbook workers (workbook-workers.ts), loaded when a portfolio export starts them. */
export const loadWorkbookWorkers = () => import('./workbook-workers.js');

export type { RenderAhead, RenderSpec, WorkbookWriter } from './types.js';
export type { OverviewData, OverviewUnit, XlsxInput } from './xlsx-writer.js';
