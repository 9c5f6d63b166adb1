// readings.csv over real HTTP when a unit that sorts first carries a shared meter the Property
// does not list for it: the sandbox behind a proxy that adds to WE 01's consumption answer a copy
// of its own heat meter under the id of Musterstraße's WE 14/WE 15 heat meter (unit_share 0.5,
// readings at 10 times). Billing refuses that copy (POINT_NOT_LISTED in WE 01, billed 0) and bills
// WE 14 and WE 15 from their own copies (device WMZ-18937510, end value 62298.694 on 2025-12-31),
// but readings.csv takes the meter's readings from the first unit in unit order that has it: the
// refused copy's device WMZ-89100223 at 388623.26, with "WE 01, WE 14, WE 15" as its units.
// The file a reviewer checks the bill against contradicts segments.csv with no finding about it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { assertBuilt, csvRows, exportBehindProxy, runBin, signedIn } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
const MUSTER = 'Musterstraße 1-5';
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

/** readings.csv by header, read with quoting (its usage_unit_name column holds commas). */
function readingsOf(files: Map<string, Buffer>, id: string): Record<string, string>[] {
  const [head, ...body] = parseCsv(files.get('readings.csv')!.toString('utf8'), ',');
  return body.map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? '']))).filter((x) => x.measuring_point_id === id);
}

describe('a shared meter that a unit sorting first carries unlisted', () => {
  it("has in readings.csv the billed copies' device and month ends, not the refused copy's", async () => {
    let muster: string | null = null;
    let shared: string | null = null;
    const names = new Map<string, string>();
    const learn: Rewrite = (p, json, query) => {
      if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
      if (p === '/v1/usage-units' && query.get('property_id') === muster) for (const u of json.data as Json[]) names.set(u.id, u.name);
      if (p === `/v1/properties/${muster}/measuring-points`)
        shared ??= (json.data as Json[]).find((x) => x.metric === 'heat' && x.allocations?.length === 2)?.id;
      return undefined;
    };
    const clean = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, 'clean'), learn);
    expect(clean.r.code, clean.r.stderr).toBe(6);
    const id = shared!;
    const we01 = [...names].find(([, n]) => n === 'WE 01')![0];
    const planted: Rewrite = (p, json) => {
      if (p !== `/v1/usage-units/${we01}/consumption`) return undefined;
      const fake = structuredClone((json.measuring_points as Json[]).find((x) => x.metric === 'heat')!);
      fake.measuring_point_id = id;
      fake.unit_share = 0.5;
      for (const seg of fake.segments) for (const r of seg.readings) r.value *= 10;
      (json.measuring_points as Json[]).push(fake);
      return json;
    };
    const { r, rewritten, files } = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, 'planted'), planted);
    expect(rewritten).toBe(1);
    expect(r.code, r.stderr).toBe(6);
    const billedSegments = csvRows(files.get('segments.csv')!.toString('utf8')).filter((s) => s.measuring_point_id === id && Number(s.billed_value) > 0);
    const readings = readingsOf(files, id);
    const cleanReadings = readingsOf(clean.files, id);
    console.log(
      `[faults]   WE 01 carrying the WE 14/WE 15 heat meter unlisted → billed from ${[...new Set(billedSegments.map((s) => s.serial))].join(', ')}, readings.csv ${readings.at(-1)?.serial} ${readings.at(-1)?.at} ${readings.at(-1)?.value} for ${readings.at(-1)?.usage_unit_name} (clean ${cleanReadings.at(-1)?.serial} ${cleanReadings.at(-1)?.value} for ${cleanReadings.at(-1)?.usage_unit_name})`,
    );
    expect(billedSegments.map((s) => names.get(s.usage_unit_id!))).toEqual(['WE 14', 'WE 15']);
    expect(readings.length).toBeGreaterThan(0);
    expect(readings).toEqual(cleanReadings);
  }, 120_000);
});
