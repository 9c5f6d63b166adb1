// The built binary against the sandbox over real HTTP: totals, faults, future contract,
// kill-and-resume, withdrawn access. Needs `npm run build` (npm test does it).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { miOf } from '../../src/sandbox/data/dates.js';
import { weightedValue } from '../../src/sandbox/data/index.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EPOCH = '1767225600'; // 2026-01-01T00:00:00Z: same export time in every run below
const FINAL = ['billing.csv', 'billing.xlsx', 'meterdata-manifest.json', 'plant-points.csv', 'plausibility.csv', 'readings.csv', 'review.csv', 'segments.csv'];

/** A sandbox of the test's own and a home signed in to it, exporting at the same time in every run. */
const fresh = (opts: SandboxOptions = {}) => signedIn({ ...opts, homePrefix: 'md-e2e-export-', env: { SOURCE_DATE_EPOCH: EPOCH } });

async function files(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const n of (await readdir(dir)).sort()) out.set(n, await readFile(path.join(dir, n)));
  return out;
}

function parseCsv(text: string): Record<string, string>[] {
  // generic layout, test data without quoted fields in the columns read here
  const [head, ...lines] = text.trimEnd().split('\r\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

const started: Sandbox[] = [];
let clean: Map<string, Buffer>;
let cleanRequests = 0;

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
});
afterAll(async () => {
  for (const s of started) await s.close();
});

describe('meterdata export (built binary, sandbox)', () => {
  it('bills what the sandbox data adds up to', async () => {
    const { sandbox, env, home } = await fresh();
    started.push(sandbox);
    const out = path.join(home, 'out');
    const before = sandbox.log.total;
    const logBefore = new Map(sandbox.log.byEndpoint);
    const r = await runBin(['export', '--year', '2025', '--out', out], env);
    expect(r.stderr).toMatch(/wrote .* for 2025-01-01 to 2025-12-31/);
    expect(r.code).toBe(0);
    cleanRequests = sandbox.log.total - before;
    clean = await files(out);
    expect([...clean.keys()]).toEqual(FINAL);

    const ds = sandbox.dataset;
    const expected = new Map<string, Decimal>();
    for (const p of ds.properties(ds.tenants()[0]!.id)) {
      for (let u = p.unitStart; u < p.unitEnd; u++) {
        const unit = ds.unitByIndex(u)!;
        for (const { point, share } of ds.pointsOfUnit(unit)) {
          const key = `${ds.unitId(unit)}|${point.metric}`;
          let sum = expected.get(key) ?? new Decimal(0);
          for (const s of ds.consumption(point, miOf('2025-01-01'), miOf('2025-12-31')).segments) sum = sum.plus(weightedValue(s.billable, share));
          expected.set(key, sum);
        }
      }
    }
    const rows = parseCsv(clean.get('billing.csv')!.toString('utf8'));
    expect(rows.length).toBe(expected.size);
    for (const row of rows) {
      const want = expected.get(`${row.usage_unit_id}|${row.metric}`);
      expect(want, `${row.usage_unit_id} ${row.metric}`).toBeDefined();
      expect(new Decimal(row.billable_value!).equals(want!), `${row.usage_unit_name} ${row.metric}: ${row.billable_value} vs ${want}`).toBe(true);
    }

    // Plant-room and main meters: the sum of the sandbox's own billable segment values (rule 1).
    const plantWant = new Map<string, Decimal>();
    for (const p of ds.properties(ds.tenants()[0]!.id)) {
      for (const point of ds.pointsOfProperty(p).filter((x) => x.allocations.length === 0)) {
        const segs = ds.consumption(point, miOf('2025-01-01'), miOf('2025-12-31')).segments;
        plantWant.set(
          ds.pointId(point),
          segs.reduce((acc, s) => acc.plus(s.billable), new Decimal(0)),
        );
      }
    }
    const plantRows = parseCsv(clean.get('plant-points.csv')!.toString('utf8'));
    expect(plantRows.map((r) => r.measuring_point_id).sort()).toEqual([...plantWant.keys()].sort());
    for (const row of plantRows) {
      const want = plantWant.get(row.measuring_point_id!)!;
      expect(new Decimal(row.billable_value!).equals(want), `plant ${row.measuring_point_id}: ${row.billable_value} vs ${want}`).toBe(true);
    }
    expect([...plantWant.values()].some((v) => v.gt(0))).toBe(true);

    // Two cold-water meters count from a start value taken after they began to count: the days before are
    // named (src/billing/gaps.ts startValueGaps), and no other meter's; the billed figures above stay as sent.
    const late = clean
      .get('review.csv')!
      .toString('utf8')
      .split('\r\n')
      .filter((l) => l.includes(',START_VALUE_LATE,'))
      .map((l) =>
        /,(WE \d+),[^,]*,(\w+),.*\(device: [^,]+, start date: ([\d-]+), not measured from: ([\d-]+), not measured until: ([\d-]+)\)/.exec(l)?.slice(1),
      );
    expect(late).toEqual([
      ['WE 07', 'water_cold', '2025-04-30', '2025-01-01', '2025-04-29'],
      ['WE 13', 'water_cold', '2025-10-31', '2025-10-08', '2025-10-30'],
    ]);

    // No request made twice: per endpoint exactly what the walk needs, no retries in a clean run.
    const pages = (n: number) => Math.max(1, Math.ceil(n / 200));
    const props = ds.properties(ds.tenants()[0]!.id);
    const points = props.map((p) => ds.pointsOfProperty(p));
    const want: Record<string, number> = {
      'GET /whoami': 1,
      'GET /properties': pages(props.length),
      'GET /usage-units': props.reduce((n, p) => n + pages(p.unitEnd - p.unitStart), 0),
      'GET /properties/{id}/measuring-points': points.reduce((n, ps) => n + pages(ps.length), 0),
      'GET /usage-units/{id}/consumption': props.reduce((n, p) => n + p.unitEnd - p.unitStart, 0),
      'GET /measuring-points/{id}/readings': points.reduce((n, ps) => n + ps.filter((x) => x.allocations.length === 0).length, 0),
    };
    const got = Object.fromEntries([...sandbox.log.byEndpoint].map(([k, n]) => [k, n - (logBefore.get(k) ?? 0)]).filter(([, n]) => n !== 0));
    expect(got).toEqual(want);
    expect(cleanRequests).toBe(Object.values(want).reduce((a, b) => a + b, 0));
    expect(sandbox.log.byStatus.get('200')).toBe(sandbox.log.total);
  }, 120_000);

  it('writes the same bytes in one thread (in-process, as the tests and the browser run it) as the binary does with its worker threads', async () => {
    const { sandbox, env, home } = await fresh();
    started.push(sandbox);
    const out = path.join(home, 'out-in-process');
    const r = await runCli(['export', '--year', '2025', '--out', out], { env });
    expect(r.code).toBe(0);
    expect(await files(out)).toEqual(clean);
  });

  it('refuses a bad METERDATA_EXPORT_HEAP_MB before any request, naming the fix', async () => {
    const { sandbox, env, home } = await fresh();
    started.push(sandbox);
    const before = sandbox.log.total;
    const r = await runBin(['export', '--year', '2025', '--out', path.join(home, 'out')], { ...env, METERDATA_EXPORT_HEAP_MB: '64' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'meterdata: METERDATA_EXPORT_HEAP_MB=64 is not a whole number of megabytes between 128 and 65536.\n  Set it to e.g. 4096, or unset it for the default 1024.\n',
    );
    expect(sandbox.log.total).toBe(before);
  });

  it('writes the same bytes under injected 429s, 5xx, resets and truncated bodies', async () => {
    // At fixed request numbers, never the first (the sign-in's own /whoami).
    const { sandbox, env, home } = await fresh({ faults: ['429@3,9,17,26,40', '500@5,14,33', '503@7,21,45', 'drop@11,30', 'truncate@13,28,38'] });
    started.push(sandbox);
    const out = path.join(home, 'out');
    const r = await runBin(['export', '--year', '2025', '--out', out], env);
    expect(sandbox.log.faults.size).toBeGreaterThan(0);
    expect(r.code, r.stderr).toBe(0);
    const got = await files(out);
    expect([...got.keys()]).toEqual([...clean.keys()]);
    for (const [n, b] of clean) expect(got.get(n)!.equals(b), n).toBe(true);
  }, 120_000);

  it('exports future-contract answers and flags the unknown values', async () => {
    const { sandbox, env, home } = await fresh({ futureContract: true });
    started.push(sandbox);
    const out = path.join(home, 'out');
    const r = await runBin(['export', '--year', '2025', '--out', out, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const review = await readFile(path.join(out, 'review.csv'), 'utf8');
    expect(review).toContain('UNKNOWN_ENUM_VALUE');
    expect(JSON.parse(r.stdout).flags.review).toBeGreaterThan(0);
    const billing = parseCsv(await readFile(path.join(out, 'billing.csv'), 'utf8'));
    // An unknown metric is billed in its own row, under the name the service sent, and flagged.
    const unknownMetric = billing.filter((b) => b.metric === 'heat_pump_power');
    expect(unknownMetric.length).toBeGreaterThan(0);
    for (const b of unknownMetric) expect(b.review_flags!.split('|')).toContain('UNKNOWN_ENUM_VALUE');
    for (const b of billing) expect(['heat', 'hca', 'water_cold', 'water_warm', 'water_outdoor', 'heat_pump_power']).toContain(b.metric);
    // An unknown unit_type is kept as received and flags every row of that unit.
    const parking = billing.filter((b) => b.unit_type === 'parking');
    expect(parking.length).toBeGreaterThan(0);
    for (const b of parking) expect(b.review_flags!.split('|')).toContain('UNKNOWN_ENUM_VALUE');
  }, 120_000);

  it('continues a killed run and ends with the same files, fetching only what was missing', async () => {
    const { sandbox, env, home } = await fresh({ latencyMs: [150, 250] });
    started.push(sandbox);
    const out = path.join(home, 'out');
    const before = sandbox.log.total;
    let killed = false;
    const first = await runBin(['export', '--year', '2025', '--out', out], env, {
      onStderr: (text, child) => {
        if (!killed && /property 1\/\d+ /.test(text)) {
          killed = true;
          child.kill('SIGKILL');
        }
      },
    });
    expect(killed).toBe(true);
    expect(first.code).not.toBe(0);
    const left = await readdir(out);
    expect(left.filter((n) => !n.startsWith('.'))).toEqual([]); // nothing under a final name
    const firstRequests = sandbox.log.total - before;

    const mid = sandbox.log.total;
    const second = await runBin(['export', '--year', '2025', '--out', out], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resuming the export started at/);
    expect(second.stderr).toMatch(/from the journal of the interrupted run/);
    expect(sandbox.log.total - mid).toBeLessThan(cleanRequests);
    expect(firstRequests).toBeGreaterThan(0);
    const got = await files(out);
    for (const [n, b] of clean) expect(got.get(n)!.equals(b), n).toBe(true);
    expect(existsSync(path.join(home, 'state', 'exports')) ? await readdir(path.join(home, 'state', 'exports')) : []).toEqual([]);
  }, 120_000);

  it('stops cleanly on Ctrl-C, saying how far it got', async () => {
    const { sandbox, env, home } = await fresh({ latencyMs: [150, 250] });
    started.push(sandbox);
    const out = path.join(home, 'out');
    let sent = false;
    const r = await runBin(['export', '--year', '2025', '--out', out], env, {
      onStderr: (text, child) => {
        if (!sent && /property 1\/\d+ /.test(text)) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/meterdata: Interrupted\. The export stopped after 1 of 3 Properties/);
    expect(r.stderr).toMatch(/Run the same command again to continue/);
    expect(r.stderr).not.toMatch(/bug/);
    expect(existsSync(out)).toBe(false); // the folder it created is removed again: nothing looks like an export
  }, 120_000);

  it('stops with exit 4 when a Property is withdrawn mid-run', async () => {
    const { sandbox, env, home } = await fresh({ latencyMs: [150, 250] });
    started.push(sandbox);
    const ds = sandbox.dataset;
    const out = path.join(home, 'out');
    const tenant = ds.tenants()[0]!.id;
    const [, second] = ds.properties(tenant);
    const original = ds.properties.bind(ds);
    let withdrawn = false;
    const r = await runBin(['export', '--year', '2025', '--out', out], env, {
      onStderr: (text) => {
        if (!withdrawn && /property 1\/\d+ /.test(text)) {
          withdrawn = true; // the landlord takes the second Property out of the selection
          ds.properties = (t?: string) => original(t).filter((p) => p !== second);
        }
      },
    });
    ds.properties = original;
    expect(withdrawn).toBe(true);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/withdrawn/i);
    expect(r.stderr).toMatch(/stopped after 1 of 3 Properties/);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
