// Whole exports against a hostile server (the sandbox behind a rewriting proxy on
// loopback): values that cannot be right are not billed and are named in review.csv, no
// file holds Infinity; an answer for another object or range stops with exit 5 and
// nothing committed; the summary says when nothing had data and when the service
// shortened the range, and the default folder and the manifest carry the effective range.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startRewritingProxy, type Rewrite } from '../helpers/rewriting-proxy.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

/** The sandbox runs on this computer's date, so its "last completed month" is the client's. */
const TODAY = new Date();
const YEAR = TODAY.getUTCFullYear();
const LAST_COMPLETED = new Date(Date.UTC(YEAR, TODAY.getUTCMonth(), 0)).toISOString().slice(0, 10);
/** A range the service must shorten in every month (in January `--year` would lie entirely after the last completed month: 400). */
const SHORTENED = { from: `${LAST_COMPLETED.slice(0, 4)}-01-01`, to: new Date(Date.UTC(YEAR, TODAY.getUTCMonth() + 1, 0)).toISOString().slice(0, 10) };
/** A completed year inside the sandbox's data (its horizon is 2026-12-31): the year before this one would have none from 2028 on. */
const PAST = 2025;
const FINAL = ['billing.csv', 'billing.xlsx', 'meterdata-manifest.json', 'plant-points.csv', 'plausibility.csv', 'readings.csv', 'review.csv', 'segments.csv'];

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
let token: string;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ clock: TODAY.toISOString().slice(0, 10), units: 12, homePrefix: 'md-export-trust-' }));
  token = (await runCli(['token'], { env, cwd: home })).stdout.trim();
}, 60_000);
afterAll(async () => sandbox?.close());

/** Runs `meterdata export ARGS` through a proxy applying `rewrite`. */
async function hostileExport(args: string[], rewrite: Rewrite) {
  const proxy = await startRewritingProxy(sandbox.url, rewrite);
  try {
    const r = await runCli(['export', ...args], { env: { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base }, cwd: home });
    return { ...r, rewritten: proxy.rewritten };
  } finally {
    await proxy.close();
  }
}

type Json = Record<string, any>;
const isConsumption = (p: string) => /^\/v1\/usage-units\/[^/]+\/consumption$/.test(p);
/** The first unit whose consumption answer has a point with a segment, chosen once per export. */
function onOneUnit(change: (point: Json) => void): { rewrite: Rewrite; unit: () => string | null } {
  let chosen: string | null = null;
  const rewrite: Rewrite = (p, json) => {
    if (!isConsumption(p)) return undefined;
    const point = (json.measuring_points as Json[]).find((mp) => mp.segments.length > 0);
    if (!point || (chosen !== null && chosen !== json.usage_unit_id)) return undefined;
    chosen = json.usage_unit_id as string;
    change(point);
    return json;
  };
  return { rewrite, unit: () => chosen };
}

function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .map((l) => l.split(','));
}

async function finalFiles(out: string): Promise<string[]> {
  return (await readdir(out).catch(() => [] as string[])).filter((n) => FINAL.includes(n));
}

describe('values that cannot be right', () => {
  it('two segments of 1e308 and a negative value: exit 0, not billed, named in review.csv, no Infinity in billing.csv or billing.xlsx', async () => {
    const huge = onOneUnit((point) => {
      const seg = point.segments[0];
      seg.period_consumption = { ...seg.period_consumption, status: 'measured', billable_value: 1e308, weighted_billable_value: 1e308, end_value: 1e308 };
      point.segments = [seg, { ...seg, device_id: `${seg.device_id}-2`, installed_at: '2099-01-01' }];
    });
    const negative = onOneUnit((point) => {
      const pc = point.segments[0].period_consumption;
      point.segments[0].period_consumption = { ...pc, status: 'measured', billable_value: -5, weighted_billable_value: -5 * (point.unit_share ?? 1) };
    });
    const out = path.join(home, 'hostile-values');
    // The first unit answered gets the 1e308 segments, the next one the negative value.
    const r = await hostileExport(['--year', String(PAST), '--out', out], (p, json, q) => huge.rewrite(p, json, q) ?? negative.rewrite(p, json, q));
    expect(r.code, r.stderr).toBe(0);
    expect(huge.unit()).not.toBeNull();
    expect(negative.unit()).not.toBeNull();

    const billing = await readFile(path.join(out, 'billing.csv'), 'utf8');
    expect(billing).not.toMatch(/Infinity|NaN|e\+|\d{30}/);
    const [head, ...rows] = csvRows(billing);
    const col = (name: string) => head!.indexOf(name);
    for (const unit of [huge.unit()!, negative.unit()!]) {
      const flagged = rows.filter((x) => x[col('usage_unit_id')] === unit && x[col('review_flags')]!.includes('IMPLAUSIBLE_VALUE'));
      expect(flagged.length, unit).toBeGreaterThan(0);
    }
    const review = await readFile(path.join(out, 'review.csv'), 'utf8');
    expect(review).toMatch(new RegExp(`not_billed,IMPLAUSIBLE_VALUE,[^,]*,[^,]*,${huge.unit()},.*received: 1e\\+308`));
    expect(review).toMatch(new RegExp(`not_billed,IMPLAUSIBLE_VALUE,[^,]*,[^,]*,${negative.unit()},.*billable_value, received: -5\\)`));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
    const numbers: number[] = [];
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => typeof c.value === 'number' && numbers.push(c.value))));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.filter((v) => !Number.isFinite(v) || Math.abs(v) > 1e15)).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8'));
    expect(manifest.flags.not_billed).toBeGreaterThanOrEqual(3);
  });

  it('an answer for another usage unit: exit 5 naming the request, nothing committed', async () => {
    const out = path.join(home, 'wrong-object');
    let asked = '';
    const r = await hostileExport(['--year', String(PAST), '--out', out], (p, json) => {
      if (!isConsumption(p) || asked) return undefined;
      asked = json.usage_unit_id as string;
      return { ...json, usage_unit_id: '00000000-0000-4000-8000-00000000beef' };
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `^meterdata: The metering service answered GET /v1/usage-units/${asked}/consumption for usage unit 00000000-0000-4000-8000-00000000beef instead of ${asked}`,
      ),
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(await finalFiles(out)).toEqual([]);
  });

  it('an echoed range the range rules cannot produce: exit 5, nothing committed', async () => {
    const out = path.join(home, 'wrong-range');
    const r = await hostileExport(['--year', String(PAST), '--out', out], (p, json) => (isConsumption(p) ? { ...json, from: `${PAST - 1}-01-01` } : undefined));
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /^meterdata: The metering service answered GET \/v1\/usage-units\/[^/]+\/consumption for \d{4}-01-01 to \d{4}-12-31 when .* was requested, which the API's range rules cannot produce/,
    );
    expect(await finalFiles(out)).toEqual([]);
  });
});

describe('one export, one period', () => {
  it('units answered for two different (each legitimate) periods: exit 5, nothing committed, no mixed folder', async () => {
    const out = path.join(home, 'two-periods');
    let changed = false;
    const r = await hostileExport(['--year', String(PAST), '--out', out], (p, json) => {
      if (!isConsumption(p) || changed) return undefined;
      changed = true; // as if the service's last completed month moved on between two requests
      return { ...json, to: `${PAST}-11-30` };
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `^meterdata: The service answered for ${PAST}-01-01 to ${PAST}-(11-30|12-31) for unit "[^"]+" of "[^"]+", but for ${PAST}-01-01 to ${PAST}-(11-30|12-31) earlier in this export \\(a month ended in between, or the service answers units for different periods\\): one export must not mix two periods`,
      ),
    );
    expect(r.stderr).toMatch(/Run the same command again: it starts over/);
    expect(r.stderr).not.toMatch(/Run the same command again to continue/);
    expect(await finalFiles(out)).toEqual([]);
    // The same command (a cron job's fixed --out) recovers: the progress saved for the other period is not resumed.
    const again = await runCli(['export', '--year', String(PAST), '--out', out], { env, cwd: home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/resuming/);
    const manifest = JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8'));
    expect(manifest.range).toEqual({ from: `${PAST}-01-01`, to: `${PAST}-12-31` });
  });
});

describe('the summary says what happened', () => {
  it('no point has data at all: one line says so; DATA_GAP is review', async () => {
    const out = path.join(home, 'no-data');
    const empty = (c: Json) => ({ ...c, data_gap: true, segments: [] });
    const r = await hostileExport(['--year', String(PAST), '--out', out], (p, json) => {
      if (isConsumption(p)) return { ...json, measuring_points: (json.measuring_points as Json[]).map(empty) };
      if (/\/readings$/.test(p)) return empty(json);
      return undefined;
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('no data:'));
    expect(lines).toEqual([
      expect.stringMatching(/^no data: none of the \d+ measuring points has values for \d{4}-01-01 to \d{4}-12-31, so nothing was billed/),
    ]);
    const review = await readFile(path.join(out, 'review.csv'), 'utf8');
    expect(review).toMatch(/^review,DATA_GAP,/m);
    expect(review).not.toMatch(/^info,DATA_GAP,/m);
  });

  it('a normal export has no such line', async () => {
    const r = await runCli(['export', '--year', String(PAST), '--out', path.join(home, 'normal'), '--metric', 'heat'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^(no data|range shortened):/m);
  });

  it('a range the service shortened: its own line; the default folder and the manifest carry the effective range', async () => {
    const r = await runCli(['export', '--from', SHORTENED.from, '--to', SHORTENED.to, '--format', 'csv', '--metric', 'heat', '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const folder = path.join(home, `meterdata-${SHORTENED.from}_${LAST_COMPLETED}`);
    expect(JSON.parse(r.stdout)).toMatchObject({ out: folder, range: { from: SHORTENED.from, to: LAST_COMPLETED }, requested_range: SHORTENED });
    expect(r.stderr).toMatch(
      new RegExp(`^range shortened: requested ${SHORTENED.from} to ${SHORTENED.to}, the service answered for ${SHORTENED.from} to ${LAST_COMPLETED} `, 'm'),
    );
    const manifest = JSON.parse(await readFile(path.join(folder, 'meterdata-manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ range: { from: SHORTENED.from, to: LAST_COMPLETED }, requested_range: { to: SHORTENED.to } });
  });
});
