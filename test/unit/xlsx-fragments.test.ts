// A table's rows rendered in pieces while the spool still grows (the portfolio's workbook
// workers) must be the same bytes as rendered all at once at the end (a single export):
// cut anywhere, inside a line and inside a multi-byte character included.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, symlink, writeFile, appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTemplate } from '../../src/export/output/templates.js';
import { CELL_TEXT_MAX } from '../../src/export/output/formats/xlsx/xlsx-cells.js';
import { fragmentOf, SheetFragment, type TableSheet } from '../../src/export/output/formats/xlsx/xlsx-fragments.js';
import { StyleTable } from '../../src/export/output/formats/xlsx/xlsx-rows.js';
import { writeXlsx, type XlsxInput } from '../../src/export/output/formats/xlsx/xlsx-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-fragments-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NAMES = ['Whg. 1 links', 'Büro <EG> & "Lager"', 'Łódź 🔥 ½', 'x'.repeat(120), ''];

function lines(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      property_id: `p-${i % 3}`,
      property_name: NAMES[i % NAMES.length],
      usage_unit_id: `u-${i}`,
      usage_unit_name: NAMES[(i + 2) % NAMES.length],
      unit_type: i % 4 === 0 ? 'commercial' : 'residential',
      metric: ['heat', 'water_cold', 'hca', 'something_new'][i % 4],
      unit: ['kWh', 'm3', 'units', 'l'][i % 4],
      from: '2025-01-01',
      to: i % 7 === 0 ? null : '2025-12-31',
      billable_value: i % 5 === 0 ? null : String((i * 12.345).toFixed(3)),
      points: i % 3,
      review_flags: i % 6 === 0 ? ['assumed_zero', 'calibration_expired'] : [],
    }),
  );
}

async function sheetFor(table: 'billing', spoolText: string, name: string): Promise<TableSheet> {
  const template = await loadTemplate('de', dir);
  const f = template.files.find((x) => x.table === table)!;
  const spool = path.join(dir, `${name}.ndjson.partial`);
  await writeFile(spool, spoolText);
  return { table, sheet: f.sheet, columns: f.columns, spool, fragment: fragmentOf(spool) };
}

describe('table rows rendered ahead', () => {
  it('keep a row longer than several reads (3.5 MiB of text) whole, between ordinary rows', async () => {
    const template = await loadTemplate('de', dir);
    const rows = lines(5);
    const huge = JSON.parse(rows[2]!) as Record<string, unknown>;
    huge.usage_unit_name = 'ä'.repeat(1_800_000); // 2 bytes each: the row spans four reads of 1 MiB
    rows[2] = JSON.stringify(huge);
    const spec = await sheetFor('billing', `${rows.join('\n')}\n`, 'huge');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat), true);
    await f.advance(null);
    expect(f.result(5).rows).toBe(5);
    const xml = (await readFile(spec.fragment)).toString('utf8');
    expect(xml.split('<row ').length - 1).toBe(5);
    // whole through the reads, then cut to what a cell takes (xlsx-cells.ts fitCell)
    expect(xml).toContain(`${'ä'.repeat(CELL_TEXT_MAX)}…<`);
    expect(xml).not.toContain('ä'.repeat(CELL_TEXT_MAX + 1));
  });

  it('are the same bytes and widths in pieces as all at once, wherever the pieces end', async () => {
    const template = await loadTemplate('de', dir);
    const text = `${lines(400).join('\n')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const once = await sheetFor('billing', text, 'once');
    const whole = new SheetFragment(once, template, new StyleTable(template.dateFormat), true);
    await whole.advance(null);
    const expected = { xml: await readFile(once.fragment), result: whole.result() };
    expect(expected.result.rows).toBe(400);

    for (const seed of [1, 2, 3]) {
      // the spool grows as the walk writes it; the renderer is told how far it is
      const grow = await sheetFor('billing', '', `grow-${seed}`);
      await writeFile(grow.fragment, '');
      const piecewise = new SheetFragment(grow, template, new StyleTable(template.dateFormat));
      let at = 0;
      let k = seed;
      while (at < bytes.length) {
        k = (k * 1103515245 + 12345) % 2 ** 31;
        const next = Math.min(bytes.length, at + 1 + (k % 3000));
        await appendFile(grow.spool, bytes.subarray(at, next));
        await piecewise.advance(next);
        at = next;
      }
      await piecewise.advance(null);
      expect(await readFile(grow.fragment)).toEqual(expected.xml);
      expect(piecewise.result()).toEqual(expected.result);
    }
  });

  it('open no file for a table that gained no rows since the last render', async () => {
    const template = await loadTemplate('de', dir);
    const text = `${lines(3).join('\n')}\n`;
    const spec = await sheetFor('billing', text, 'still');
    await writeFile(spec.fragment, '');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat));
    await f.advance(Buffer.byteLength(text));
    const xml = await readFile(spec.fragment);
    // renders every 16 units asked for every table, and most had nothing new: each was two opens, an fstat and two closes
    await rm(spec.spool);
    await rm(spec.fragment);
    await f.advance(Buffer.byteLength(text));
    expect(f.result(3).bytes).toBe(xml.length);
  });

  // Round 28: the fragment was reopened with 'r+', through a link put in its place: the rows went into its target.
  it('refuse a fragment swapped for a link before writing through it (EXPORT_SCRATCH_DAMAGED), its target untouched', async () => {
    const template = await loadTemplate('de', dir);
    const text = `${lines(3).join('\n')}\n`;
    const spec = await sheetFor('billing', text, 'linked');
    const victim = path.join(dir, 'victim.txt');
    await writeFile(victim, 'precious');
    await symlink(victim, spec.fragment);
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat));
    await expect(f.advance(Buffer.byteLength(text))).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: expect.stringContaining('it is a symbolic link'),
    });
    expect(await readFile(victim, 'utf8')).toBe('precious');
  });

  it('never make a fragment again that an aborted export removed', async () => {
    const template = await loadTemplate('de', dir);
    const spec = await sheetFor('billing', `${lines(3).join('\n')}\n`, 'gone');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat));
    await expect(f.advance(null)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(spec.fragment)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuse a spool whose last row has no end', async () => {
    const template = await loadTemplate('de', dir);
    const spec = await sheetFor('billing', `${lines(2).join('\n')}`, 'cut');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat), true);
    await f.advance(null);
    expect(() => f.result()).toThrow(expect.objectContaining({ code: 'EXPORT_SCRATCH_DAMAGED', message: expect.stringMatching(/last row is incomplete/) }));
  });
});

describe('a damaged spool', () => {
  it('replaced by a FIFO (a shared --out) fails the render at once naming it, never waits for a writer', async () => {
    const template = await loadTemplate('de', dir);
    const spec = await sheetFor('billing', '', 'fifo');
    await rm(spec.spool);
    execFileSync('mkfifo', [spec.spool]);
    await writeFile(spec.fragment, '');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat));
    await expect(f.advance(null)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: `The export's scratch file ${spec.spool} is damaged: it is not a plain file (a pipe or a device?).`,
    });
  }, 10_000);

  it('shorter than the bytes the export said it wrote fails the render, naming the spool', async () => {
    const template = await loadTemplate('de', dir);
    const text = `${lines(3).join('\n')}\n`;
    const spec = await sheetFor('billing', text, 'short');
    await writeFile(spec.fragment, '');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat));
    await expect(f.advance(Buffer.byteLength(text) + 10)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: `The export's scratch file ${spec.spool} is damaged: it is shorter than the ${Buffer.byteLength(text) + 10} bytes the export wrote to it.`,
    });
  });

  it('with a line that is not JSON fails with the spool and the row named', async () => {
    const template = await loadTemplate('de', dir);
    const spec = await sheetFor('billing', `${lines(2).join('\n')}\n{"property_id": "p-\u0000\u0000\n`, 'garbage');
    const f = new SheetFragment(spec, template, new StyleTable(template.dateFormat), true);
    await expect(f.advance(null)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: `The export's scratch file ${spec.spool} is damaged: row 3 is not JSON.`,
    });
  });

  it('holding fewer rows than the export wrote fails the workbook before billing.xlsx is made', async () => {
    const template = await loadTemplate('de', dir);
    const spec = await sheetFor('billing', `${lines(4).join('\n')}\n`, 'lost');
    const file = path.join(dir, '.billing.xlsx.partial');
    const input: XlsxInput = {
      file,
      template,
      spools: { billing: spec.spool },
      rows: { billing: 5 },
      overview: { metrics: [], spool: null },
      about: [],
      exportTime: new Date(Date.UTC(2026, 0, 2)),
    };
    await expect(writeXlsx(input)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: `The export's scratch file ${spec.spool} is damaged: it holds 4 rows, the export wrote 5.`,
    });
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await writeXlsx({ ...input, rows: { billing: 4 } });
    expect((await stat(file)).size).toBeGreaterThan(0);
  });
});

describe('a spool of several read buffers (1 MiB each)', () => {
  it('renders the same bytes and widths at once as in small pieces, a character cut at the buffer end, more rows than the width sample', async () => {
    const template = await loadTemplate('de', dir);
    // names of 4-byte characters: most buffer ends fall inside one
    const rows = lines(9000).map((l, i) => l.replace('"property_name":"', `"property_name":"${'🔥'.repeat(i % 50)}`));
    // the first row padded until the first buffer ends inside a character
    const unpadded = Buffer.from(`${rows.join('\n')}\n`, 'utf8');
    let pad = 0;
    while (pad < 1000 && (unpadded[(1 << 20) - pad]! & 0xc0) !== 0x80) pad++;
    const bytes = Buffer.from(`${[rows[0]!.replace('"u-0"', `"u-0${'x'.repeat(pad)}"`), ...rows.slice(1)].join('\n')}\n`, 'utf8');
    expect(bytes.length).toBeGreaterThan(3 << 20);
    expect(bytes[1 << 20]! & 0xc0).toBe(0x80);
    const once = await sheetFor('billing', bytes.toString('utf8'), 'big-once');
    const whole = new SheetFragment(once, template, new StyleTable(template.dateFormat), true);
    await whole.advance(null);

    const grow = await sheetFor('billing', bytes.toString('utf8'), 'big-grow');
    await writeFile(grow.fragment, '');
    const piecewise = new SheetFragment(grow, template, new StyleTable(template.dateFormat));
    for (let at = 0, k = 7; at < bytes.length;) {
      k = (k * 1103515245 + 12345) % 2 ** 31;
      at = Math.min(bytes.length, at + 1 + (k % 60000));
      await piecewise.advance(at);
    }
    expect((await readFile(grow.fragment)).equals(await readFile(once.fragment))).toBe(true);
    expect(piecewise.result(9000)).toEqual(whole.result(9000));
  });
});
