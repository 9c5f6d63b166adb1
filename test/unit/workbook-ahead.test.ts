// The portfolio's workbook workers render a profile's table rows while its walk goes on
// (workbook-workers.ts): the rows are on disk before the workbook is asked for, and the
// workbook is the same bytes as one written from the spools at the end. Here the worker
// side runs in this thread, over a real MessagePort.
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RenderSpec } from '../../src/export/output.js';
import { loadTemplate } from '../../src/export/templates.js';
import { serveWorkbooks, workbookWorkers } from '../../src/export/workbook-workers.js';
import { fragmentOf } from '../../src/export/xlsx-fragments.js';
import { writeXlsx, type XlsxInput } from '../../src/export/xlsx-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-ahead-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const row = (i: number) =>
  `${JSON.stringify({ property_id: `p-${i % 2}`, property_name: `Haus ${i % 2} „Süd“`, usage_unit_id: `u-${i}`, usage_unit_name: `Whg. ${i}`, unit_type: 'residential', metric: i % 2 ? 'heat' : 'water_cold', unit: i % 2 ? 'kWh' : 'm3', from: '2025-01-01', to: '2025-12-31', billable_value: (i * 3.25).toFixed(3), points: 1, review_flags: i % 5 ? [] : ['assumed_zero'] })}\n`;

async function input(sub: string): Promise<XlsxInput> {
  const template = await loadTemplate('de', dir);
  const d = path.join(dir, sub);
  await mkdir(d);
  const spools: XlsxInput['spools'] = {};
  for (const f of template.files) {
    spools[f.table] = path.join(d, `.${f.table}.ndjson.partial`);
    await writeFile(spools[f.table]!, '');
    await writeFile(fragmentOf(spools[f.table]!), '');
  }
  return { file: path.join(d, '.billing.xlsx.partial'), template, spools, overview: { metrics: [], spool: null }, about: [['Stand', '2026-01-01']], exportTime: new Date(Date.UTC(2026, 0, 2)) };
}

async function until(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('not rendered within 2 s');
}

describe('rows rendered ahead by the workbook workers', () => {
  it('are on disk before the workbook is asked for, and the workbook is the bytes of one written at the end', async () => {
    const workers = workbookWorkers(2, (port) => serveWorkbooks({ port }));
    try {
      const ahead = await input('ahead');
      const spec: RenderSpec = { file: ahead.file, template: ahead.template, spools: ahead.spools };
      const billing = ahead.spools.billing!;
      // two Properties' rows, each announced once it is on disk
      await appendFile(billing, Array.from({ length: 50 }, (_, i) => row(i)).join(''));
      workers.ahead(spec, { billing: (await stat(billing)).size });
      await until(async () => (await stat(fragmentOf(billing))).size > 0);
      await appendFile(billing, Array.from({ length: 30 }, (_, i) => row(50 + i)).join(''));
      // rows written after the last announcement are rendered by the workbook itself
      await appendFile(billing, row(80));
      workers.ahead(spec, { billing: (await stat(billing)).size - Buffer.byteLength(row(80)) });
      await workers.write(ahead);

      const atEnd = await input('end');
      await writeFile(atEnd.spools.billing!, await readFile(billing));
      await writeXlsx(atEnd);
      expect((await readFile(ahead.file)).equals(await readFile(atEnd.file))).toBe(true);
    } finally {
      await workers.close();
    }
  });

  it('write the workbook from the spools when a render ahead failed', async () => {
    const workers = workbookWorkers(1, (port) => serveWorkbooks({ port }));
    try {
      const ahead = await input('failed');
      const billing = ahead.spools.billing!;
      await appendFile(billing, Array.from({ length: 20 }, (_, i) => row(i)).join(''));
      // the fragment is gone (as after an abort) when the render comes: it fails and is not made again
      await rm(fragmentOf(billing));
      workers.ahead({ file: ahead.file, template: ahead.template, spools: ahead.spools }, { billing: (await stat(billing)).size });
      await new Promise((r) => setTimeout(r, 100));
      await expect(stat(fragmentOf(billing))).rejects.toMatchObject({ code: 'ENOENT' });
      await workers.write(ahead);

      const atEnd = await input('end');
      await writeFile(atEnd.spools.billing!, await readFile(billing));
      await writeXlsx(atEnd);
      expect((await readFile(ahead.file)).equals(await readFile(atEnd.file))).toBe(true);
    } finally {
      await workers.close();
    }
  });
});
