import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { loadTemplate } from '../../src/export/output/templates.js';
import { writeXlsx, type OverviewData, type OverviewUnit } from '../../src/export/output/formats/xlsx/xlsx-writer.js';
import { OutputSet } from '../../src/export/output/index.js';
import { overviewKey } from '../../src/export/output/tables.js';
import type { BillingRow } from '../../src/billing/types.js';

const rows = [
  {
    property_id: 'p',
    property_name: 'Haus A',
    usage_unit_id: 'u1',
    usage_unit_name: 'WE 1',
    unit_type: 'residential',
    metric: 'heat',
    unit: 'kWh',
    from: '2025-01-01',
    to: '2025-12-31',
    billable_value: '1234.5',
    points: 2,
    review_flags: ['NOT_SYSTEM_LINKED'],
  },
  {
    property_id: 'p',
    property_name: 'Haus A',
    usage_unit_id: 'u1',
    usage_unit_name: 'WE 1',
    unit_type: 'residential',
    metric: 'water_cold',
    unit: 'm3',
    from: '2025-01-01',
    to: '2025-12-31',
    billable_value: '0.0000001',
    points: 1,
    review_flags: [],
  },
];

async function build(dir: string, name: string) {
  const t = await loadTemplate('generic', process.cwd());
  const spool = path.join(dir, 'billing.ndjson');
  await writeFile(spool, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const ovSpool = path.join(dir, 'overview.ndjson');
  const unit: OverviewUnit = {
    property_id: 'p',
    property_name: 'Haus A',
    usage_unit_id: 'u1',
    usage_unit_name: 'WE 1',
    unit_type: 'residential',
    values: { [overviewKey('heat', 'kWh')]: { value: '1234.5', flagged: true }, [overviewKey('water_cold', 'm3')]: { value: '0.0000001', flagged: false } },
  };
  await writeFile(ovSpool, `${JSON.stringify(unit)}\n`);
  const overview: OverviewData = {
    metrics: [
      { metric: 'heat', unit: 'kWh' },
      { metric: 'water_cold', unit: 'm3' },
    ],
    spool: ovSpool,
  };
  const file = path.join(dir, name);
  await writeXlsx({
    file,
    template: t,
    spools: { billing: spool },
    overview,
    about: [
      ['tenant', 'Demo'],
      ['units', 1],
    ],
    exportTime: new Date('2026-11-22T10:00:00Z'),
  });
  return file;
}

describe('XLSX writer', () => {
  it('writes typed cells, frozen header, autofilter, flagged fill, and repeats its bytes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-xlsx-'));
    const a = await build(dir, 'a.xlsx');
    await new Promise((r) => setTimeout(r, 2100)); // zip stamps have 2 s resolution
    const b = await build(dir, 'b.xlsx');
    const hash = async (f: string) =>
      createHash('sha256')
        .update(await readFile(f))
        .digest('hex');
    expect(await hash(a)).toBe(await hash(b));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(a);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'billing', 'About']);
    const bill = wb.getWorksheet('billing')!;
    // names and figures first, ids last
    expect((bill.getRow(1).values as unknown[]).slice(1)).toEqual([
      'property_name',
      'usage_unit_name',
      'unit_type',
      'metric',
      'unit',
      'from',
      'to',
      'billable_value',
      'points',
      'review_flags',
      'property_id',
      'usage_unit_id',
    ]);
    expect(bill.getRow(2).getCell(8).value).toBe(1234.5);
    expect(bill.getRow(2).getCell(6).value).toEqual(new Date(Date.UTC(2025, 0, 1)));
    expect(bill.getRow(2).getCell(10).value).toBe('NOT_SYSTEM_LINKED');
    expect(bill.getRow(2).getCell(11).value).toBe('p');
    expect(bill.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(bill.autoFilter).toBeTruthy();
    const ov = wb.getWorksheet('Overview')!;
    expect(ov.getRow(1).values).toContain('heat (kWh)');
    expect(ov.getRow(2).getCell(4).fill).toMatchObject({ type: 'pattern', pattern: 'solid' });
    expect((ov.getRow(2).getCell(5).fill as ExcelJS.FillPattern | undefined)?.pattern ?? 'none').toBe('none'); // its style aligns it at the top, and fills nothing
    expect(wb.getWorksheet('About')!.getRow(3).getCell(2).value).toBe(1);
  });
});

describe('XLSX text cells', () => {
  it('keeps a name that looks like a formula as a plain string cell, without the CSV apostrophe', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-xlsx-'));
    const t = await loadTemplate('generic', process.cwd());
    const spool = path.join(dir, 'billing.ndjson');
    await writeFile(spool, `${JSON.stringify({ ...rows[0], property_name: '=1+1', usage_unit_name: '@SUM(A1)' })}\n`);
    const file = path.join(dir, 'x.xlsx');
    await writeXlsx({
      file,
      template: t,
      spools: { billing: spool },
      overview: { metrics: [], spool: null },
      about: [],
      exportTime: new Date('2026-11-22T10:00:00Z'),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const row = wb.getWorksheet('billing')!.getRow(2);
    expect(row.getCell(1).value).toBe('=1+1');
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(2).value).toBe('@SUM(A1)');
  });
});

describe('Overview sheet', () => {
  it('keys cells by (metric, unit) as billing does: one metric with two units is two columns, each cell its own value', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-xlsx-ov-'));
    const t = await loadTemplate('generic', process.cwd());
    const set = new OutputSet(path.join(dir, 'out'), t, ['xlsx']);
    const row = (unit: string, value: string, flags: BillingRow['review_flags'] = []): BillingRow => ({
      property_id: 'p',
      property_name: 'Haus A',
      usage_unit_id: 'u1',
      usage_unit_name: 'WE 1',
      unit_type: 'residential',
      metric: 'heat',
      unit,
      from: '2025-01-01',
      to: '2025-12-31',
      billable_value: value,
      points: 1,
      review_flags: flags,
    });
    await set.start();
    await set.addOverview([row('kWh', '100'), row('MWh', '0.5', ['UNKNOWN_ENUM_VALUE'])], { id: 'p', name: 'Haus A' }, [
      { id: 'u1', name: 'WE 1', unit_type: 'residential' },
      { id: 'u2', name: 'WE 2', unit_type: 'residential' },
    ]);
    const ov = (await set.stage([], new Date('2026-11-22T10:00:00Z'))).xlsx!.overview;
    expect(ov.metrics).toEqual([
      { metric: 'heat', unit: 'MWh' },
      { metric: 'heat', unit: 'kWh' },
    ]);
    const units = (await readFile(ov.spool!, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as OverviewUnit);
    // billed units first, then the ones without any billing row
    expect(units.map((u) => u.usage_unit_id)).toEqual(['u1', 'u2']);
    expect(units[0]!.values[overviewKey('heat', 'kWh')]).toEqual({ value: '100', flagged: false });
    expect(units[0]!.values[overviewKey('heat', 'MWh')]).toEqual({ value: '0.5', flagged: true });
    expect(units[1]!.values).toEqual({});

    const file = path.join(dir, 'ov.xlsx');
    await writeXlsx({ file, template: t, spools: {}, overview: ov, about: [], exportTime: new Date('2026-11-22T10:00:00Z') });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet = wb.getWorksheet('Overview')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (h: string) => sheet.getRow(2).getCell(header.indexOf(h) + 1).value;
    expect(header.filter((h) => String(h).startsWith('heat'))).toEqual(['heat (MWh)', 'heat (kWh)']);
    expect([cell('heat (kWh)'), cell('heat (MWh)')]).toEqual([100, 0.5]);
  });
});
