// The plausibility review end to end: the built binary against the sandbox, with the
// comparison year fetched (`--compare 2024`) and read from an earlier run's folder
// (`--compare DIR`), which must give the same findings. Needs `npm run build`.
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { signedIn } from '../helpers/signed-in.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EPOCH = '1767225600';
const CONSUMPTION = 'GET /usage-units/{id}/consumption';
const READINGS = 'GET /measuring-points/{id}/readings';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

function table(text: string): Record<string, string>[] {
  const [head, ...rows] = parseCsv(text, ',');
  return rows.filter((r) => r.length > 1).map((r) => Object.fromEntries(r.map((v, i) => [head![i]!, v])));
}
const read = (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');
const count = (endpoint: string) => sandbox.log.byEndpoint.get(endpoint) ?? 0;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  ({ sandbox, home, env } = await signedIn({ homePrefix: 'md-e2e-plausibility-', env: { SOURCE_DATE_EPOCH: EPOCH } }));
}, 60_000);
afterAll(async () => sandbox?.close());

describe('export --compare (built binary, sandbox)', () => {
  const fetched = () => path.join(home, 'fetched');
  const earlier = () => path.join(home, 'y2024');
  const fromFolder = () => path.join(home, 'from-folder');

  it('--compare 2024 says what it costs, fetches one more answer per unit and plant point, and finds every case of Lessingstraße 7', async () => {
    const [c0, r0] = [count(CONSUMPTION), count(READINGS)];
    const r = await runBin(['export', '--year', '2025', '--compare', '2024', '--out', fetched(), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /comparing with 2024-01-01 to 2024-12-31: one more consumption request per unit and per plant-room\/main meter \(48 requests for the units, about 1 minute more at 300 requests a minute\)/,
    );
    const units = JSON.parse(r.stdout).counts.units as number;
    const plant = JSON.parse(r.stdout).counts.plant_points as number;
    expect(count(CONSUMPTION) - c0).toBe(2 * units);
    expect(count(READINGS) - r0).toBe(2 * plant);
    expect(JSON.parse(r.stdout).files.map((f: { name: string }) => f.name)).toContain('plausibility.csv');

    const rows = table(await read(fetched(), 'plausibility.csv')).filter((x) => x.property_name === 'Lessingstraße 7');
    const checks = (unit: string, metric: string) =>
      rows
        .find((x) => x.usage_unit_name === unit && x.metric === metric)!
        .checks!.split('|')
        .filter(Boolean);
    expect(checks('WE 02', 'heat')).toContain('CONSUMPTION_CHANGE');
    expect(Number(rows.find((x) => x.usage_unit_name === 'WE 02' && x.metric === 'heat')!.change_percent)).toBeCloseTo(43.7, 0);
    expect(checks('WE 03', 'water_warm')).toEqual(expect.arrayContaining(['ZERO_CONSUMPTION', 'PER_M2_OUTLIER']));
    expect(checks('WE 04', 'heat')).toEqual(['PER_M2_OUTLIER']);
    // Installed 2019-03-01: heat meters have 6 years since 03.11.2021, so 2025 is covered (an info, never "ended").
    expect(checks('WE 05', 'heat')).toEqual(['CALIBRATION_ENDS_SOON']);
    expect(checks('WE 08', 'heat')).toEqual(['NEW_SINCE_COMPARISON']);
    for (const we of ['WE 01', 'WE 02', 'WE 03']) expect(checks(we, 'water_cold')).toContain('ESTIMATED_SHARE_HIGH');
    for (const we of ['WE 01', 'WE 06', 'WE 07']) expect(checks(we, 'heat')).toEqual([]);
    const we04 = rows.find((x) => x.usage_unit_name === 'WE 04' && x.metric === 'heat')!;
    expect(Number(we04.value_per_m2) / Number(we04.median_per_m2)).toBeGreaterThan(3);

    // A side that is not billed is marked, never compared as 0: WE 11's heat was missing at the end of 2024, WE 09's heat meter is expired in 2025.
    const muster = table(await read(fetched(), 'plausibility.csv')).filter((x) => x.property_name === 'Musterstraße 1-5');
    const we11 = muster.find((x) => x.usage_unit_name === 'WE 11' && x.metric === 'heat')!;
    expect([we11.comparison_status, we11.comparison_value, we11.change_percent]).toEqual(['not_billed', '', '']);
    expect(we11.checks).toContain('COMPARISON_NOT_BILLED');
    const we09 = muster.find((x) => x.usage_unit_name === 'WE 09' && x.metric === 'heat')!;
    expect([we09.billable_value, we09.comparison_status, we09.change_percent]).toEqual(['0', 'billed', '']);
    expect(we09.checks).toContain('COMPARISON_NOT_BILLED');
    expect(we09.checks).not.toContain('COMPARISON_ZERO');
    const review = table(await read(fetched(), 'review.csv'));
    const property = rows[0]!.property_id;
    const mine = review
      .filter((x) => x.property_id === property && x.severity !== 'info')
      .map((x) => x.code)
      .sort();
    expect(mine).toEqual(['CONSUMPTION_CHANGE', 'NEW_SINCE_COMPARISON', 'PER_M2_OUTLIER', 'PER_M2_OUTLIER', 'ZERO_CONSUMPTION']);
    // Cold water's estimated share is an info; the HeizkostenV (§ 9a) is not about cold water.
    expect(review.filter((x) => x.property_id === property && (x.code ?? '').startsWith('ESTIMATED_')).map((x) => [x.code, x.severity])).toEqual([
      ['ESTIMATED_SHARE_HIGH', 'info'],
    ]);
    const newUnit = review.find((x) => x.code === 'NEW_SINCE_COMPARISON' && x.property_id === property)!;
    expect(newUnit.usage_unit_id).toBe(rows.find((x) => x.usage_unit_name === 'WE 08')!.usage_unit_id);
    expect(newUnit.measuring_point_id).toBe('');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(fetched(), 'billing.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Overview', 'billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility', 'About']);
    const sheet = wb.getWorksheet('plausibility')!;
    expect(sheet.rowCount).toBe(table(await read(fetched(), 'plausibility.csv')).length + 1);
    const about = wb
      .getWorksheet('About')!
      .getSheetValues()
      .map((r) => (Array.isArray(r) ? r.slice(1, 3) : null))
      .filter(Boolean);
    expect(about).toEqual(
      expect.arrayContaining([
        ['Comparison period', '2024-01-01 – 2024-12-31'],
        ['Review threshold (change in %)', '25'],
      ]),
    );
    expect(review.find((x) => x.code === 'ESTIMATED_SHARE_HIGH')!.message).toMatch(
      /^More than 25 % of the consumption is not measured \(metric: cold water, share not measured: 37\.\d %\)\. (?!.*§ 9a)/,
    );
  }, 120_000);

  it('--compare DIR on the folder of an earlier run gives the same findings without a request for the comparison period', async () => {
    const y = await runBin(['export', '--year', '2024', '--out', earlier()], env);
    expect(y.code, y.stderr).toBe(0);
    const [c0, r0] = [count(CONSUMPTION), count(READINGS)];
    const r = await runBin(['export', '--year', '2025', '--compare', earlier(), '--out', fromFolder(), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(count(CONSUMPTION) - c0).toBe(JSON.parse(r.stdout).counts.units);
    expect(count(READINGS) - r0).toBe(JSON.parse(r.stdout).counts.plant_points);
    expect(await read(fromFolder(), 'review.csv')).toBe(await read(fetched(), 'review.csv'));
    expect(await read(fromFolder(), 'plausibility.csv')).toBe(await read(fetched(), 'plausibility.csv'));
    expect(await read(fromFolder(), 'billing.csv')).toBe(await read(fetched(), 'billing.csv'));
  }, 120_000);

  it('refuses a folder whose files do not match its manifest, and one of another tenant (exit 2, no request)', async () => {
    const changed = path.join(home, 'changed');
    await cp(earlier(), changed, { recursive: true });
    await writeFile(path.join(changed, 'billing.csv'), (await read(changed, 'billing.csv')).replace(/,\d+(\.\d+)?,/, ',1,'));
    const other = path.join(home, 'other');
    await cp(earlier(), other, { recursive: true });
    const manifest = JSON.parse(await read(other, 'meterdata-manifest.json'));
    await writeFile(
      path.join(other, 'meterdata-manifest.json'),
      JSON.stringify({ ...manifest, tenant: { id: sandbox.dataset.tenants()[1]!.id, name: 'Immobilien Süd KG' } }),
    );
    const before = count(CONSUMPTION);
    const a = await runBin(['export', '--year', '2025', '--compare', changed, '--out', path.join(home, 'x1')], env);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^meterdata: --compare .*changed: billing\.csv does not match the manifest/);
    const b = await runBin(['export', '--year', '2025', '--compare', other, '--out', path.join(home, 'x2')], env);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/that export belongs to "Immobilien Süd KG", not to this connection's "Hausverwaltung Nordlicht GmbH"/);
    const c = await runBin(['export', '--year', '2025', '--compare', path.join(home, 'nowhere'), '--out', path.join(home, 'x3')], env);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/no meterdata export there/);
    expect(count(CONSUMPTION)).toBe(before);
  }, 120_000);
});
