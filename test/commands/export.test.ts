import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 40, admin: true, homePrefix: 'md-export-' }));
});
afterAll(async () => sandbox?.close());

const apiRequests = () => sandbox.log.total;

describe('export flags are checked before any request', () => {
  const cases: [string[], RegExp][] = [
    [[], /--year/],
    [['--year', '25'], /--year/],
    [['--year', '2025', '--from', '2025-01-01'], /--year/],
    [['--from', '2025-02-30', '--to', '2025-03-01'], /--from/],
    [['--from', '2025-01-01'], /--to/],
    [['--from', '2025-05-01', '--to', '2025-04-01'], /--to/],
    [['--year', '2025', '--property', 'abc'], /--property/],
    [['--year', '2025', '--metric', 'heat,steam'], /--metric: unknown metric "steam"/],
    [['--year', '2025', '--format', 'pdf'], /--format/],
    [['--year', '2025', '--rate-limit', '0'], /--rate-limit/],
    [['--year', '2025', '--template', 'fancy'], /--template/],
    [['--year', '2025', '--template', './missing.json'], /--template/],
  ];
  for (const [argv, msg] of cases) {
    it(`rejects ${argv.join(' ') || '(no period)'}`, async () => {
      const before = apiRequests();
      const r = await runCli(['export', ...argv], { env, cwd: home });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^meterdata: /);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(apiRequests()).toBe(before);
    });
  }
});

describe('export against the sandbox', () => {
  it('writes every file and a manifest, and exits 0 with flags', async () => {
    const out = path.join(home, 'out1');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--json'], { env, cwd: home });
    expect(r.stderr).toMatch(/property 1\/\d+ "/);
    expect(r.code).toBe(0);
    const names = (await readdir(out)).sort();
    expect(names).toEqual([
      'billing.csv',
      'billing.xlsx',
      'meterdata-manifest.json',
      'plant-points.csv',
      'plausibility.csv',
      'readings.csv',
      'review.csv',
      'segments.csv',
    ]);
    const summary = JSON.parse(r.stdout);
    expect(summary.range).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    const tenant = sandbox.dataset.tenants()[0]!.id;
    expect(summary.counts.properties).toBe(sandbox.dataset.propertiesOf(tenant).length);
    const billing = await readFile(path.join(out, 'billing.csv'), 'utf8');
    expect(billing.split('\r\n')[0]).toBe(
      'property_id,property_name,usage_unit_id,usage_unit_name,unit_type,metric,unit,from,to,billable_value,points,review_flags',
    );
  });
});

describe('export output modes', () => {
  it('--quiet prints nothing, --json one summary object; --strict exits 6 after writing', async () => {
    const out = path.join(home, 'strict');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--quiet', '--json', '--strict'], { env, cwd: home });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^meterdata: --strict: \d+ findings need attention/);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    const s = JSON.parse(r.stdout);
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['out', 'files', 'range', 'counts', 'flags', 'requests']));
    expect((await readdir(out)).sort()).toContain('billing.xlsx');
  });

  it('writes the de layout with a BOM, semicolons and German headers', async () => {
    const out = path.join(home, 'de');
    const r = await runCli(['export', '--from', '2025-03-15', '--to', '2025-05-02', '--template', 'de', '--format', 'csv', '--metric', 'heat', '--out', out], {
      env,
      cwd: home,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      'billing.csv',
      'meterdata-manifest.json',
      'plant-points.csv',
      'plausibility.csv',
      'readings.csv',
      'review.csv',
      'segments.csv',
    ]);
    const csv = await readFile(path.join(out, 'billing.csv'));
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [head, first] = csv.toString('utf8').slice(1).split('\r\n');
    expect(head).toMatch(/^Liegenschaft-ID;Liegenschaft;/);
    expect(first).toMatch(/;01\.03\.2025;31\.05\.2025;\d+(,\d+)?;/); // the widened range the server echoed
    expect(first).toMatch(/;Wärme;/); // the de layout writes the contract's codes as German words
  });

  it('refuses an --out folder holding an export of other arguments, before any request', async () => {
    const out = path.join(home, 'strict'); // written above for --year 2025 with --strict
    const before = apiRequests();
    const r = await runCli(['export', '--year', '2024', '--out', out], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .* already holds an export made with other arguments/);
    expect(apiRequests()).toBe(before);
  });

  it('uses the default folder name from the range', async () => {
    const r = await runCli(['export', '--year', '2025', '--property', sandbox.dataset.propertiesOf(sandbox.dataset.tenants()[0]!.id)[1]!.id, '--quiet'], {
      env,
      cwd: home,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(await readdir(path.join(home, 'meterdata-2025-01-01_2025-12-31'))).toContain('billing.csv');
  });
});
