// A hostile server: the sandbox behind a proxy that rewrites answers into what a broken or
// malicious service could send. Implausible values must end up not billed (0) with their
// own not_billed finding and no file holding Infinity, NaN or a 300-digit number; an
// answer for another object or another range must stop the built binary with exit 5,
// a message naming the request, and nothing under a final name.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startRewritingProxy, type Rewrite } from '../helpers/rewriting-proxy.js';
import { assertBuilt, FINAL, folder, report, runBin, signedIn } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 20, rateLimitPerMinute: 0 }));
}, 60_000);
afterAll(async () => sandbox?.close());

type Json = Record<string, any>;
const consumption = (p: string) => /^\/v1\/usage-units\/[^/]+\/consumption$/.test(p);

/** Rewrites the first segment of every unit point that has one (the same for every unit). */
const everySegment =
  (change: (seg: Json, point: Json) => void): Rewrite =>
  (p, json) => {
    if (!consumption(p)) return undefined;
    for (const point of json.measuring_points as Json[]) {
      const seg = point.segments[0];
      if (!seg || !['measured', 'substituted', 'calculated'].includes(seg.period_consumption.status)) continue;
      change(seg, point);
    }
    return json;
  };

interface Scenario {
  name: string;
  rewrite: Rewrite;
  /** exit 0 with this not_billed code in review.csv, or exit 5 with this message. */
  expect: { code: 0; finding: string } | { code: 5; message: RegExp };
}

const WRONG_ID = '00000000-0000-4000-8000-00000000beef';
const SCENARIOS: Scenario[] = [
  {
    name: 'two segments of 1e308',
    rewrite: everySegment((seg, point) => {
      seg.period_consumption = { ...seg.period_consumption, billable_value: 1e308, weighted_billable_value: 1e308, end_value: 1e308 };
      point.segments = [seg, { ...seg, device_id: `${seg.device_id}-b`, installed_at: '2099-01-01' }];
    }),
    expect: { code: 0, finding: 'IMPLAUSIBLE_VALUE' },
  },
  {
    name: 'negative billable value',
    rewrite: everySegment((seg, point) => Object.assign(seg.period_consumption, { billable_value: -7, weighted_billable_value: -7 * (point.unit_share ?? 1) })),
    expect: { code: 0, finding: 'IMPLAUSIBLE_VALUE' },
  },
  {
    name: 'end value below the start value',
    rewrite: everySegment((seg) => Object.assign(seg, { baseline_value: seg.period_consumption.end_value + 1000 })),
    expect: { code: 0, finding: 'IMPLAUSIBLE_VALUE' },
  },
  { name: 'unit_share 1.5', rewrite: everySegment((_, point) => (point.unit_share = 1.5)), expect: { code: 0, finding: 'IMPLAUSIBLE_SHARE' } },
  {
    name: 'weighted value ≠ billable × share',
    rewrite: everySegment((seg) => (seg.period_consumption.weighted_billable_value = seg.period_consumption.billable_value * 3 + 1)),
    expect: { code: 0, finding: 'WEIGHTED_VALUE_MISMATCH' },
  },
  {
    name: 'answer for another unit',
    rewrite: (p, json) => (consumption(p) ? { ...json, usage_unit_id: WRONG_ID } : undefined),
    expect: { code: 5, message: /answered GET \/v1\/usage-units\/[^/ ]+\/consumption for usage unit 0+-0000-4000-8000-00000000beef instead of/ },
  },
  {
    name: 'readings of another point',
    rewrite: (p, json) => (/\/readings$/.test(p) ? { ...json, measuring_point_id: WRONG_ID } : undefined),
    expect: { code: 5, message: /answered GET \/v1\/measuring-points\/[^/ ]+\/readings for measuring point .*beef instead of/ },
  },
  {
    name: 'echoed range not capped',
    rewrite: (p, json) => (consumption(p) ? { ...json, to: '2026-01-31' } : undefined),
    expect: { code: 5, message: /range rules cannot produce: it ends after the requested month \(2025-12-31\)/ },
  },
  {
    name: 'echoed range of another start',
    rewrite: (p, json) => (consumption(p) ? { ...json, from: '2024-07-01' } : undefined),
    expect: { code: 5, message: /range rules cannot produce: it should start on 2025-01-01/ },
  },
  {
    name: 'a number beyond a double (1e400)',
    rewrite: (p, json) =>
      consumption(p) && (json.measuring_points as Json[]).some((mp) => mp.segments.length)
        ? JSON.stringify(json).replace(/"billable_value":[0-9.]+/, '"billable_value":1e400')
        : undefined,
    expect: { code: 5, message: /breaks the API contract: .*billable_value should be a number/ },
  },
];

describe('hostile answers', () => {
  it('implausible values are not billed and named; wrong objects and ranges stop with exit 5; no file holds Infinity', async () => {
    const token = (await runBin(['token'], env)).stdout.trim();
    const lost: string[] = [];
    let passed = 0;
    for (const [i, s] of SCENARIOS.entries()) {
      const proxy = await startRewritingProxy(sandbox.url, s.rewrite);
      const out = path.join(home, `hostile-${i}`);
      const r = await runBin([...ARGS, '--out', out], { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base });
      await proxy.close();
      const got = await folder(out);
      const text = (n: string) => got.get(n)?.toString('utf8') ?? '';
      const problems = [
        proxy.rewritten.length === 0 && 'the proxy rewrote nothing',
        r.code !== s.expect.code && `exit ${r.code}, not ${s.expect.code}: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`,
        /^\s+at /m.test(r.stderr) && 'a stack trace was printed',
      ];
      if (s.expect.code === 0) {
        problems.push(
          !new RegExp(`^not_billed,${s.expect.finding},`, 'm').test(text('review.csv')) && `no not_billed ${s.expect.finding} in review.csv`,
          /Infinity|NaN|\d{30}/.test(text('billing.csv') + text('segments.csv') + text('readings.csv')) &&
            'a CSV file holds Infinity, NaN or an overflowing number',
          !got.has('billing.xlsx') && 'no billing.xlsx',
          /Infinity|NaN/.test(await xlsxText(path.join(out, 'billing.xlsx'))) && 'billing.xlsx holds Infinity or NaN',
        );
      } else {
        const left = [...got.keys()].filter((n) => FINAL.includes(n));
        problems.push(!s.expect.message.test(r.stderr) && `message: ${r.stderr.trim().split('\n')[0]}`, left.length > 0 && `left [${left.join(', ')}]`);
      }
      const failed = problems.filter(Boolean);
      if (failed.length) lost.push(`${s.name}: ${failed.join(', ')}`);
      else passed++;
      console.log(
        `[faults]   ${s.name} → exit ${r.code}${s.expect.code === 0 ? `, ${s.expect.finding} in review.csv` : `: ${r.stderr.trim().split('\n')[0]!.slice(0, 160)}`}`,
      );
    }
    report({
      scenario: `hostile answers (${SCENARIOS.length} classes: values not billed, wrong object or range stops)`,
      trials: SCENARIOS.length,
      passed,
      lost,
    });
    expect(lost).toEqual([]);
  }, 240_000);
});

/** The workbook's sheet XML, unzipped with exceljs's own reader (what a spreadsheet would read). */
async function xlsxText(file: string): Promise<string> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(file).catch(() => Buffer.alloc(0))) as unknown as ArrayBuffer).catch(() => undefined);
  const cells: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => cells.push(String(c.value)))));
  return cells.join('\n');
}
