// A write to a file may take fewer bytes than it was given (a disk filling up, a signal):
// the rendered rows (xlsx-fragments.ts) must then write the rest, never leave a hole in
// the fragment that the workbook would copy as rows. Here every write of a fragment takes
// at most 1,000 bytes.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTemplate } from '../../src/export/output/templates.js';
import { fragmentOf, SheetFragment } from '../../src/export/output/formats/xlsx/xlsx-fragments.js';
import { StyleTable } from '../../src/export/output/formats/xlsx/xlsx-rows.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof fs.open>) => {
    const fh = await fs.open(...args);
    if (!String(args[0]).endsWith('.rows.partial')) return fh;
    const write = fh.write.bind(fh) as (b: Buffer, o: number, l: number, p: number) => Promise<{ bytesWritten: number }>;
    (fh as unknown as { write: typeof write }).write = (b, o, l, p) => write(b, o, Math.min(l, 1000), p);
    return fh;
  };
  return { ...fs, default: { ...fs, open }, open };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-short-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rendered rows written to a disk that takes part of a write', () => {
  it('are all written, in order', async () => {
    const template = await loadTemplate('de', dir);
    const f = template.files.find((x) => x.table === 'billing')!;
    const rows = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({
        property_id: 'p',
        property_name: `Haus ${i}`,
        usage_unit_id: `u-${i}`,
        usage_unit_name: `Whg. ${i}`,
        unit_type: 'residential',
        metric: 'heat',
        unit: 'kWh',
        from: '2025-01-01',
        to: '2025-12-31',
        billable_value: `${i}.5`,
        points: 1,
        review_flags: [],
      }),
    );
    const spool = path.join(dir, '.billing.ndjson.partial');
    await writeFile(spool, `${rows.join('\n')}\n`);
    const spec = { table: 'billing' as const, sheet: f.sheet, columns: f.columns, spool, fragment: fragmentOf(spool, 'r') };
    const fragment = new SheetFragment(spec, template, new StyleTable(template.dateFormat), true);
    await fragment.advance(null);
    const { bytes } = fragment.result(60);
    const xml = await readFile(spec.fragment, 'utf8');
    expect(bytes).toBeGreaterThan(5000);
    expect(Buffer.byteLength(xml)).toBe(bytes);
    expect(xml.match(/<row /g)).toHaveLength(60);
    expect(xml).not.toContain('\u0000');
    expect(xml).toMatch(/^<row r="2".*<row r="61"[^]*<\/row>$/);
  });
});
