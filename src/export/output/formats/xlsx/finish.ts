// billing.xlsx after the walk: written from the staged spools (by the caller's writer, e.g. a
// worker thread, or here), made durable, and listed with its size and digest.
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { located } from '../../../../core/disk.js';
import type { FileEntry } from '../../format.js';
import { XLSX_FILE } from './index.js';
import type { WorkbookWriter } from './types.js';
import { openScratch } from './xlsx-fragments.js';
import type { XlsxInput } from './xlsx-writer.js';

async function sha256File(file: string): Promise<string> {
  const handle = await openScratch(file);
  const h = createHash('sha256');
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) h.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return h.digest('hex');
}

export async function finishWorkbook(input: XlsxInput, writeWorkbook: WorkbookWriter): Promise<FileEntry[]> {
  const file = input.file;
  // exceljs writes through a stream, whose failed write names no file (ENOSPC): this one (run-errors.ts)
  await writeWorkbook(input).catch((e: unknown) => Promise.reject(located(e, file)));
  const fh = await open(file, 'r+');
  await fh
    .sync()
    .catch((e: unknown) => Promise.reject(located(e, file)))
    .finally(() => fh.close());
  return [{ name: XLSX_FILE, bytes: (await stat(file)).size, sha256: await sha256File(file) }];
}
