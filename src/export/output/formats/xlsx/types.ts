// What the workbook's callers see of it: what its rows are rendered ahead from, and who writes it.
import type { TableName } from '../../tables.js';
import type { XlsxInput } from './xlsx-writer.js';

/**
 * The workbook's table sheets as the rows can be rendered before the workbook is written
 * (xlsx-fragments.ts): the part of its XlsxInput known from the start, the run's token included.
 */
export type RenderSpec = Pick<XlsxInput, 'file' | 'template' | 'spools'> & { run: string };

/**
 * Renders the spooled rows up to `upTo` (table -> bytes) while the export goes on (the
 * portfolio's workbook workers); it never fails the export: the workbook renders what is
 * missing or wrong itself.
 */
export type RenderAhead = (spec: RenderSpec, upTo: Partial<Record<TableName, number>>) => void;

/** Writes billing.xlsx from its input (in this thread, or in a worker with its own heap limits, stopped at once on `signal`). */
export type WorkbookWriter = (input: XlsxInput, signal?: AbortSignal) => Promise<void>;
