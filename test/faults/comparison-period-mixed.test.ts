// The comparison period (--compare YEAR) over real HTTP when one unit's answers echo a shorter
// period than the others': the sandbox behind a proxy that gives each WE 02's 2024 answer
// `to` 2024-06-30 (and half of each billable value, as a half year would have). The contract
// caps `to` only at the last completed month, so a 2024 range asked in November 2026 is
// 2024-01-01 to 2024-12-31 for every unit. The export's own period refuses such a mix
// (EXPORT_PERIOD_CHANGED, exit 5), but the comparison takes the first unit's echo as its period
// and compares WE 02's whole 2025 with half of 2024 as "billed": Musterstraße's WE 02 heat
// 7550.502 against 4040.01, +86.9 %, CONSUMPTION_CHANGE on every WE 02 figure, while the About
// sheet names 2024-01-01 to 2024-12-31. A real doubling compared with a half year would show no
// change at all and go unflagged. Now such a comparison is refused as the export's own period is.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { assertBuilt, exportBehindProxy, runBin, signedIn } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--compare', '2024', '--rate-limit', '3000', '--format', 'csv', '--strict'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
let token: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 30, rateLimitPerMinute: 0 }));
  token = (await runBin(['token'], env)).stdout.trim();
}, 60_000);
afterAll(async () => sandbox?.close());

type Json = Record<string, any>;

function rowsOf(files: Map<string, Buffer>, name: string): Record<string, string>[] {
  const text = files.get(name)?.toString('utf8');
  if (text === undefined) return [];
  const [head, ...body] = parseCsv(text, ',');
  return body.filter((cells) => cells.length > 1).map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? ''])));
}

describe("a comparison period one unit's answers give shorter than the others'", () => {
  it('is not compared as if it were the whole comparison period', async () => {
    const we02 = new Set<string>();
    const learn: Rewrite = (p, json) => {
      if (p === '/v1/usage-units') for (const u of json.data as Json[]) if (u.name === 'WE 02') we02.add(u.id);
      return undefined;
    };
    const clean = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, 'clean'), learn);
    expect(clean.r.code, clean.r.stderr).toBe(6);
    const shortened: Rewrite = (p, json) => {
      const unit = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p)?.[1];
      if (!unit || !we02.has(unit) || !String(json.from).startsWith('2024')) return undefined;
      json.to = '2024-06-30';
      for (const mp of json.measuring_points as Json[]) {
        for (const seg of mp.segments as Json[]) {
          seg.period_consumption.billable_value /= 2;
          if (typeof seg.period_consumption.weighted_billable_value === 'number') seg.period_consumption.weighted_billable_value /= 2;
        }
      }
      return json;
    };
    const { r, rewritten, files } = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, 'short'), shortened);
    // refused at the first Property with such a unit: the run stops there
    expect(rewritten).toBeGreaterThanOrEqual(1);
    const compared = rowsOf(files, 'plausibility.csv').filter((x) => we02.has(x.usage_unit_id!) && x.comparison_status === 'billed');
    console.log(
      `[faults]   WE 02's 2024 answers ending 2024-06-30 → exit ${r.code}, compared as billed: ${compared.map((x) => `${x.property_name} ${x.metric} ${x.billable_value} vs ${x.comparison_value} (${x.change_percent} %)`).join('; ')}`,
    );
    // refused as the export's own period is (EXPORT_PERIOD_CHANGED): exit 5, nothing committed, WE 02 named
    expect(r.code, r.stderr).toBe(5);
    expect(compared).toEqual([]);
    expect(r.stderr).toMatch(/for unit "WE 02" of "[^"]+" with 2024-01-01 to 2024-06-30, but for unit "[^"]+" with 2024-01-01 to 2024-12-31/);
  }, 120_000);
});
