// A unit meter's value that stands on no reading of the period's last month end, over real HTTP:
// the sandbox behind a proxy that leaves WE 01's cold-water meter (Musterstraße) only its 31 January
// reading, or sends an end value other than its 31 December reading. Before, one reading anywhere
// in the period passed and the year's value was billed. Now the meter is not billed (0 in WE 01's
// cold-water row) with READINGS_MISSING or END_VALUE_NOT_AS_READ in review.csv, and --strict counts
// one not billed finding more than the clean run.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { csvRows, exportBehindProxy, proxyFixture } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
const f = proxyFixture({ beforeAll, afterAll });
const MUSTER = 'Musterstraße 1-5';

type Json = Record<string, any>;

/** Rewrites the segments of WE 01's cold-water point in WE 01's consumption answer; learns the ids from the lists it passes on. */
function we01Cold(change: (segment: Json) => void): Rewrite {
  let muster: string | null = null;
  let we01: string | null = null;
  return (p, json, query) => {
    if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
    if (p === '/v1/usage-units' && query.get('property_id') === muster) we01 = (json.data as Json[]).find((u) => u.name === 'WE 01')?.id ?? we01;
    if (we01 === null || p !== `/v1/usage-units/${we01}/consumption`) return undefined;
    for (const seg of (json.measuring_points as Json[]).find((x) => x.metric === 'water_cold')!.segments as Json[]) change(seg);
    return json;
  };
}

const text = (files: Map<string, Buffer>, name: string) => files.get(name)?.toString('utf8') ?? '';
const coldRow = (files: Map<string, Buffer>) =>
  csvRows(text(files, 'billing.csv')).find((r) => r.property_name === MUSTER && r.usage_unit_name === 'WE 01' && r.metric === 'water_cold')!;
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? NaN);

describe("a unit meter's value without its last month-end reading, over HTTP", () => {
  it('only the 31 January reading, or an end value other than the 31 December reading: not billed, named in review.csv', async () => {
    const run = (name: string, rewrite: Rewrite) => exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, name), rewrite);
    const clean = await run('clean', () => undefined);
    expect(clean.r.code, clean.r.stderr).toBe(6);
    expect(Number(coldRow(clean.files).billable_value)).toBeGreaterThan(0);
    const cases: [string, (seg: Json) => void, string, string][] = [
      ['only 31 January', (seg) => (seg.readings = (seg.readings as Json[]).filter((r) => r.at === '2025-01-31')), 'READINGS_MISSING', '2025-12-31'],
      // the value billed agrees with the end value (no BILLABLE_VALUE_DIFFERS): only the reading contradicts it
      [
        'end value 7 above the 31 December reading',
        (seg) => {
          const pc = seg.period_consumption as Json;
          pc.end_value += 7;
          pc.billable_value += 7 * seg.factor;
          pc.weighted_billable_value += 7 * seg.factor;
        },
        'END_VALUE_NOT_AS_READ',
        '2025-12-31',
      ],
    ];
    for (const [name, change, code, day] of cases) {
      const { r, rewritten, files } = await run(name.replace(/\W+/g, '-'), we01Cold(change));
      console.log(
        `[faults]   WE 01's cold water, ${name} → exit ${r.code}, billed ${coldRow(files)?.billable_value} (clean ${coldRow(clean.files).billable_value}), ${code}`,
      );
      expect(rewritten).toBeGreaterThan(0);
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(coldRow(files).billable_value).toBe('0');
      const review = csvRows(text(files, 'review.csv')).filter((x) => x.code === code);
      expect(review.map((x) => [x.severity, x.usage_unit_name])).toEqual([['not_billed', 'WE 01']]);
      expect(text(files, 'review.csv')).toContain(day);
      expect(notBilled(r.stderr)).toBe(notBilled(clean.r.stderr) + 1);
    }
  }, 300_000);
});
