// The portfolio's workbook workers render a profile's table rows while its walk goes on
// (workbook-workers.ts): the rows are on disk before the workbook is asked for, and the
// workbook is the same bytes as one written from the spools at the end. Here the worker
// side runs in this thread, over a real MessagePort.
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RenderSpec } from '../../src/export/output/index.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { serveWorkbooks, workbookWorkers } from '../../src/export/output/formats/xlsx/workbook-workers.js';
import { fragmentOf } from '../../src/export/output/formats/xlsx/xlsx-fragments.js';
import { writeXlsx, type XlsxInput } from '../../src/export/output/formats/xlsx/xlsx-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-ahead-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const row = (i: number) =>
  `${JSON.stringify({ property_id: `p-${i % 2}`, property_name: `Haus ${i % 2} „Süd“`, usage_unit_id: `u-${i}`, usage_unit_name: `Whg. ${i}`, unit_type: 'residential', metric: i % 2 ? 'heat' : 'water_cold', unit: i % 2 ? 'kWh' : 'm3', from: '2025-01-01', to: '2025-12-31', billable_value: (i * 3.25).toFixed(3), points: 1, review_flags: i % 5 ? [] : ['assumed_zero'] })}\n`;

async function input(sub: string, run = 'r1'): Promise<XlsxInput> {
  const template = await loadTemplate('de', dir);
  const d = path.join(dir, sub);
  await mkdir(d);
  const spools: XlsxInput['spools'] = {};
  for (const f of template.files) {
    spools[f.table] = path.join(d, `.${f.table}.ndjson.partial`);
    await writeFile(spools[f.table]!, '');
    await writeFile(fragmentOf(spools[f.table]!, run), '');
  }
  return {
    file: path.join(d, '.billing.xlsx.partial'),
    run,
    template,
    spools,
    overview: { metrics: [], spool: null },
    about: [['Stand', '2026-01-01']],
    exportTime: new Date(Date.UTC(2026, 0, 2)),
  };
}

/** What OutputSet.renderSpec gives for an export with this workbook input. */
const specOf = (x: XlsxInput): RenderSpec => ({ file: x.file, template: x.template, spools: x.spools, run: x.run! });

/** The workbook is the bytes of one written at the end from the same billing spool (in a fresh folder `sub`). */
async function expectAsWrittenAtEnd(x: XlsxInput, sub: string): Promise<void> {
  const atEnd = await input(sub, 'r-end');
  await writeFile(atEnd.spools.billing!, await readFile(x.spools.billing!));
  await writeXlsx(atEnd);
  expect((await readFile(x.file)).equals(await readFile(atEnd.file))).toBe(true);
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
      const spec = specOf(ahead);
      const billing = ahead.spools.billing!;
      // two Properties' rows, each announced once it is on disk
      await appendFile(billing, Array.from({ length: 50 }, (_, i) => row(i)).join(''));
      workers.ahead(spec, { billing: (await stat(billing)).size });
      await until(async () => (await stat(fragmentOf(billing, ahead.run))).size > 0);
      await appendFile(billing, Array.from({ length: 30 }, (_, i) => row(50 + i)).join(''));
      // rows written after the last announcement are rendered by the workbook itself
      await appendFile(billing, row(80));
      workers.ahead(spec, { billing: (await stat(billing)).size - Buffer.byteLength(row(80)) });
      await workers.write(ahead);

      await expectAsWrittenAtEnd(ahead, 'end');
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
      await rm(fragmentOf(billing, ahead.run));
      workers.ahead(specOf(ahead), { billing: (await stat(billing)).size });
      await new Promise((r) => setTimeout(r, 100));
      await expect(stat(fragmentOf(billing, ahead.run))).rejects.toMatchObject({ code: 'ENOENT' });
      await workers.write(ahead);

      await expectAsWrittenAtEnd(ahead, 'end');
    } finally {
      await workers.close();
    }
  });
});

describe('a render that comes late', () => {
  it('never writes into the fragment of a later run in the same folder (an aborted run, re-run while an old worker still renders)', async () => {
    const old = workbookWorkers(1, (port) => serveWorkbooks({ port }));
    const now = workbookWorkers(1, (port) => serveWorkbooks({ port }));
    try {
      // run 1 (a narrower billing sheet, as with another --template) is aborted before its worker got to its rows
      const first = await input('same', 'run1');
      const narrow = { ...first.template, files: first.template.files.map((f) => (f.table === 'billing' ? { ...f, columns: f.columns.slice(0, 3) } : f)) };
      await rm(path.join(dir, 'same'), { recursive: true });
      // run 2 in the same folder renders its rows ahead
      const second = await input('same', 'run2');
      const billing = second.spools.billing!;
      await appendFile(billing, Array.from({ length: 20 }, (_, i) => row(i)).join(''));
      const size = (await stat(billing)).size;
      now.ahead(specOf(second), { billing: size });
      await until(async () => (await stat(fragmentOf(billing, second.run))).size > 0);
      // now run 1's render comes: its files are gone, the paths are run 2's
      old.ahead({ ...specOf(first), template: narrow }, { billing: size });
      await new Promise((r) => setTimeout(r, 300));
      await now.write(second);

      await expectAsWrittenAtEnd(second, 'end');
    } finally {
      await old.close();
      await now.close();
    }
  });
});

describe('a workbook worker that dies while it holds the renders of several profiles', () => {
  it('leaves each profile a workbook of the right bytes, written by another worker', async () => {
    const kills: (() => void)[] = [];
    const start = (port: MessagePort) =>
      new Promise<void>((resolve, reject) => {
        kills.push(() => {
          port.close();
          reject(new Error('out of memory'));
        });
        serveWorkbooks({ port }).then(resolve, reject);
      });
    const workers = workbookWorkers(1, start);
    try {
      const a = await input('a');
      const b = await input('b');
      for (const [x, n] of [
        [a, 40],
        [b, 25],
      ] as const) {
        await appendFile(x.spools.billing!, Array.from({ length: n }, (_, i) => row(i)).join(''));
        workers.ahead(specOf(x), { billing: (await stat(x.spools.billing!)).size });
        await until(async () => (await stat(fragmentOf(x.spools.billing!, x.run))).size > 0);
      }
      kills[0]!();
      await new Promise((r) => setTimeout(r, 20));
      // a's walk goes on: its next rows go to a new worker, which renders all of them
      await appendFile(a.spools.billing!, Array.from({ length: 10 }, (_, i) => row(40 + i)).join(''));
      workers.ahead(specOf(a), { billing: (await stat(a.spools.billing!)).size });
      await workers.write(a);
      await workers.write(b);
      expect(kills).toHaveLength(2);

      for (const x of [a, b]) await expectAsWrittenAtEnd(x, `end-${path.basename(path.dirname(x.file))}`);
    } finally {
      await workers.close();
    }
  });
});
