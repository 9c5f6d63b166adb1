// The files read on their own (issue 11): the run's language against the template's layout,
// names beside the ids in review.csv, readings.csv and segments.csv, and --unit-refs end to end.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 12, admin: true, homePrefix: 'md-sheets-' }));
});
afterAll(async () => sandbox?.close());

/** A CSV file as objects keyed by its header. */
async function table(file: string, sep = ','): Promise<Record<string, string>[]> {
  const [head, ...rows] = parseCsv(await readFile(file, 'utf8'), sep).filter((r) => r.some(Boolean));
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
}

async function sheetRows(file: string, name: string): Promise<Record<string, unknown>[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet(name)!;
  const head = (ws.getRow(1).values as unknown[]).slice(1) as string[];
  const out: Record<string, unknown>[] = [];
  ws.eachRow((row, n) => {
    if (n > 1) out.push(Object.fromEntries(head.map((h, i) => [h, row.getCell(i + 1).value])));
  });
  return out;
}

describe('review.csv, readings.csv and segments.csv name what their ids mean', () => {
  it('review.csv carries the Property, unit and meter beside the ids; readings.csv the unit and metric', async () => {
    const out = path.join(home, 'named');
    const r = await runCli(['export', '--year', '2025', '--format', 'csv', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const review = await table(path.join(out, 'review.csv'));
    expect(Object.keys(review[0]!)).toEqual([
      'severity',
      'code',
      'property_id',
      'property_name',
      'usage_unit_id',
      'usage_unit_name',
      'measuring_point_id',
      'metric',
      'localization',
      'device_id',
      'serial',
      'message',
    ]);
    const billing = await table(path.join(out, 'billing.csv'));
    const unitName = new Map(billing.map((b) => [b.usage_unit_id, b.usage_unit_name]));
    const onDevice = review.filter((x) => x.device_id && x.usage_unit_id);
    expect(onDevice.length).toBeGreaterThan(0);
    for (const x of review) expect(x.property_name, x.code).toBe(billing.find((b) => b.property_id === x.property_id)?.property_name ?? x.property_name);
    for (const x of onDevice) {
      expect(x.usage_unit_name).toBe(unitName.get(x.usage_unit_id));
      expect(x.serial, x.code).not.toBe('');
      expect(x.metric, x.code).toMatch(/^[a-z_]+$/); // generic: the contract's code
    }
    const readings = await table(path.join(out, 'readings.csv'));
    expect(Object.keys(readings[0]!).slice(0, 4)).toEqual(['measuring_point_id', 'usage_unit_name', 'metric', 'unit']);
    const unitReadings = readings.filter((x) => x.usage_unit_name);
    expect(unitReadings.length).toBeGreaterThan(0);
    for (const x of unitReadings) for (const name of x.usage_unit_name!.split(', ')) expect([...unitName.values()]).toContain(name);
    expect(readings.every((x) => x.metric !== '')).toBe(true);
    // segments.csv names the Property and the unit beside their ids; a plant-room meter's segment has no unit
    const segments = await table(path.join(out, 'segments.csv'));
    expect(Object.keys(segments[0]!).slice(0, 5)).toEqual(['property_id', 'property_name', 'usage_unit_id', 'usage_unit_name', 'measuring_point_id']);
    const propertyName = new Map(billing.map((b) => [b.property_id, b.property_name]));
    for (const x of segments) {
      expect(x.property_name).toBe(propertyName.get(x.property_id));
      expect(x.usage_unit_name).toBe(x.usage_unit_id ? unitName.get(x.usage_unit_id) : '');
    }
    expect(segments.some((x) => x.usage_unit_id === '')).toBe(true);
  });
});

describe('the language of a run and the layout of its files are independent', () => {
  it('--lang de with the generic layout: codes and English column names in the CSV, German messages and a German workbook', async () => {
    const out = path.join(home, 'de-generic');
    const r = await runCli(['export', '--year', '2025', '--lang', 'de', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const billing = await table(path.join(out, 'billing.csv'));
    expect(Object.keys(billing[0]!)[0]).toBe('property_id');
    expect(new Set(billing.map((b) => b.metric))).toContain('heat');
    const review = await table(path.join(out, 'review.csv'));
    expect(review.map((x) => x.severity)).toContain('not_billed');
    expect(review.some((x) => x.code === 'CALIBRATION_EXPIRED')).toBe(true);
    const messages = review.map((x) => x.message).join('\n');
    expect(messages).toMatch(/Eichfrist abgelaufen: Wert darf nicht abgerechnet werden/);
    expect(await findEnglish(messages)).toEqual([]);
    const sheet = await sheetRows(path.join(out, 'billing.xlsx'), 'Prüfhinweise');
    expect(sheet.map((x) => x.Einstufung)).toContain('nicht abgerechnet');
    expect((await sheetRows(path.join(out, 'billing.xlsx'), 'Abrechnung')).map((x) => x.Verbrauchsart)).toContain('Wärme');
  });

  it('--template de with --lang en: German layout and words in the CSV, English messages and workbook', async () => {
    const out = path.join(home, 'en-de');
    const r = await runCli(['export', '--year', '2025', '--template', 'de', '--lang', 'en', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const review = await table(path.join(out, 'review.csv'), ';');
    expect(review.map((x) => x.Einstufung)).toContain('nicht abgerechnet');
    expect(review.find((x) => x['Hinweis-Code'] === 'CALIBRATION_EXPIRED')!.Befund).toMatch(/^Calibration expired: value must not be billed/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility', 'About']);
  });
});

describe('the plausibility review in German', () => {
  it('announces the comparison and fills the About sheet in German, dates as dd.mm.yyyy', async () => {
    const out = path.join(home, 'de-compare');
    const r = await runCli(['export', '--year', '2025', '--compare', '2024', '--lang', 'de', '--format', 'xlsx', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /Vergleich mit 01\.01\.2024 bis 31\.12\.2024: eine weitere Verbrauchsabfrage je Nutzeinheit und je Haupt- bzw\. Anlagenzähler \(\d+ Abfragen für die Nutzeinheiten, etwa \d+ Minuten? mehr bei 300 Abfragen je Minute\)/,
    );
    const about = Object.fromEntries((await sheetRows(path.join(out, 'billing.xlsx'), 'Info')).map((x) => [x.Angabe, x.Wert]));
    expect(about).toMatchObject({ Vergleichszeitraum: '01.01.2024 – 31.12.2024', 'Prüfschwelle (Veränderung in %)': '25', Von: '01.01.2025' });
  });
});

describe('--unit-refs', () => {
  it('adds erp_ref to billing.csv and the Overview, and lists units without one and lines for units not exported', async () => {
    const first = path.join(home, 'no-refs');
    expect((await runCli(['export', '--year', '2025', '--format', 'csv', '--out', first], { env, cwd: home })).code).toBe(0);
    const units = [...new Set((await table(path.join(first, 'billing.csv'))).map((b) => b.usage_unit_id!))];
    expect(units.length).toBeGreaterThan(3);
    const [missing, shared1, shared2, ...rest] = units;
    const stranger = '99999999-9999-4999-8999-999999999999';
    const lines = [
      'Einheit;usage_unit_id;erp_ref',
      `a;${shared1};"0001000010001"`,
      `b;${shared2};0001000010001`,
      ...rest.map((u, i) => `c;${u.toUpperCase()};${String(1000 + i)}`),
      `d;${stranger};777`,
    ];
    await writeFile(path.join(home, 'refs.csv'), `\uFEFF${lines.join('\r\n')}\r\n`);
    const out = path.join(home, 'refs');
    const r = await runCli(['export', '--year', '2025', '--unit-refs', 'refs.csv', '--out', out, '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const billing = await table(path.join(out, 'billing.csv'));
    expect(Object.keys(billing[0]!).slice(2, 4)).toEqual(['usage_unit_id', 'erp_ref']);
    expect(billing.filter((b) => b.usage_unit_id === shared1).every((b) => b.erp_ref === '0001000010001')).toBe(true);
    expect(billing.filter((b) => b.usage_unit_id === missing).every((b) => b.erp_ref === '')).toBe(true);
    const overview = await sheetRows(path.join(out, 'billing.xlsx'), 'Overview');
    expect(Object.keys(overview[0]!).slice(0, 3)).toEqual(['property_name', 'usage_unit_name', 'erp_ref']);
    expect(overview.find((o) => o.usage_unit_id === rest[0])!.erp_ref).toBe('1000');
    const about = Object.fromEntries((await sheetRows(path.join(out, 'billing.xlsx'), 'About')).map((x) => [x.item, x.value]));
    expect(about['ERP references (--unit-refs)']).toBe(`refs.csv (${units.length} units)`);
    const review = await table(path.join(out, 'review.csv'));
    const codes = (code: string) => review.filter((x) => x.code === code).map((x) => x.usage_unit_id);
    expect(codes('UNIT_REF_MISSING')).toEqual([missing]);
    expect(codes('UNIT_REF_SHARED').sort()).toEqual([shared1, shared2].sort());
    expect(codes('UNIT_REF_UNKNOWN')).toEqual([stranger]);
    expect(review.find((x) => x.code === 'UNIT_REF_UNKNOWN')!.message).toMatch(/ERP reference: 777, lines in the file: \d+/);
    expect(JSON.parse(r.stdout).flag_codes).toMatchObject({ UNIT_REF_MISSING: 1, UNIT_REF_SHARED: 2, UNIT_REF_UNKNOWN: 1 });
  });

  it('refuses a bad file with exit 2 naming its line, before any request', async () => {
    await writeFile(path.join(home, 'bad-refs.csv'), `usage_unit_id,erp_ref\n11111111-1111-4111-8111-111111111111,A\nWE 7,B\n`);
    const before = sandbox.log.total;
    const r = await runCli(['export', '--year', '2025', '--unit-refs', 'bad-refs.csv', '--out', path.join(home, 'never')], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toBe('meterdata: --unit-refs bad-refs.csv line 3: "WE 7" is not a unit id (a UUID such as 3f2a…-…).');
    expect(sandbox.log.total).toBe(before);
    const de = await runCli(['export', '--year', '2025', '--unit-refs', 'bad-refs.csv', '--lang', 'de'], { env, cwd: home });
    expect(de.code).toBe(2);
    expect(de.stderr).toMatch(/Zeile 3: "WE 7" ist keine Nutzeinheit-ID/);
  });
});
