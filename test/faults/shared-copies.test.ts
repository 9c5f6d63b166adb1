// A shared meter whose copies in its units' answers disagree, over real HTTP: the sandbox behind
// a proxy that sends WE 15's copy of Musterstraße's WE 14/WE 15 heat meter at 1.5 times (billable
// and weighted values). Before, WE 15 was billed 5457.514 in place of 3638.343 with no finding and
// --strict's counts as clean. The built binary must bill the meter in neither unit, name it in
// review.csv (COPIES_DISAGREE, once per unit) and count two more not billed under --strict.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const run = (out: string, rewrite: Rewrite) => exportBehindProxy(sandbox, env, token, ARGS, out, rewrite);
const rows = csvRows;
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? NaN);

describe("a shared meter whose copies in two units' answers disagree", () => {
  it('is billed in neither unit, named in review.csv for both, and counted by --strict', async () => {
    let muster: string | null = null;
    let shared: { id: string; units: string[] } | null = null;
    const names = new Map<string, string>();
    const learn: Rewrite = (p, json, query) => {
      if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
      if (p === '/v1/usage-units' && query.get('property_id') === muster) for (const u of json.data as Json[]) names.set(u.id, u.name);
      if (p === `/v1/properties/${muster}/measuring-points`) {
        const mp = (json.data as Json[]).find((x) => x.metric === 'heat' && x.allocations?.length === 2);
        if (mp) shared ??= { id: mp.id, units: mp.allocations.map((a: Json) => a.usage_unit_id) };
      }
      return undefined;
    };
    const clean = await run(path.join(home, 'clean'), learn);
    expect(clean.r.code, clean.r.stderr).toBe(6);
    expect(shared).not.toBeNull();
    const { id, units } = shared!;
    const second = units[1]!;
    const segmentsOf = (files: Map<string, Buffer>) => rows(files.get('segments.csv')!.toString('utf8')).filter((s) => s.measuring_point_id === id);
    expect(segmentsOf(clean.files).every((s) => Number(s.billed_value) > 0)).toBe(true);

    const inflated: Rewrite = (p, json) => {
      if (p !== `/v1/usage-units/${second}/consumption`) return undefined;
      const pt = (json.measuring_points as Json[]).find((x) => x.measuring_point_id === id)!;
      for (const seg of pt.segments) {
        seg.period_consumption.billable_value *= 1.5;
        seg.period_consumption.weighted_billable_value *= 1.5;
      }
      return json;
    };
    const { r, rewritten, files } = await run(path.join(home, 'inflated'), inflated);
    expect(rewritten).toBe(1);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    const billed = segmentsOf(files);
    const review = files.get('review.csv')!.toString('utf8');
    console.log(
      `[faults]   ${names.get(second)}'s copy of the ${units.map((u) => names.get(u)).join('/')} heat meter at 1.5 times → exit ${r.code}, billed ${billed.map((s) => `${names.get(s.usage_unit_id!)} ${s.billed_value}`).join(', ')} (clean ${segmentsOf(
        clean.files,
      )
        .map((s) => `${names.get(s.usage_unit_id!)} ${s.billed_value}`)
        .join(', ')}), ${review.match(/^not_billed,COPIES_DISAGREE,/gm)?.length ?? 0} COPIES_DISAGREE`,
    );
    expect(new Set(billed.map((s) => s.usage_unit_id))).toEqual(new Set(units));
    expect(billed.map((s) => s.billed_value)).toEqual(billed.map(() => '0'));
    expect(review.match(/^not_billed,COPIES_DISAGREE,/gm)).toHaveLength(2);
    expect(notBilled(r.stderr)).toBe(notBilled(clean.r.stderr) + 2);
  }, 120_000);
});
