// A shared meter the Property's list gives with usage_unit_id null (a plant-room or main
// meter) while its allocations and the units' answers split it: over real HTTP, Musterstraße's
// WE 14/WE 15 heat meter with only its list entry's usage_unit_id set to null. Before, it was
// billed to WE 14 (5457.514) and WE 15 (3638.343) and stood in plant-points.csv as well
// (9095.857 kWh, "5 plant-room/main" in the summary) with only UNALLOCATED_POINT, whose text asks
// for an own allocation key: following it billed the meter twice, and --strict counted nothing.
// Now it is billed nowhere: 0 in WE 14 and WE 15 with PLANT_POINT_ALLOCATED, no plant row.
// Likewise with both usage_unit_id and allocations dropped from the entry (the contract requires
// only property_id): read as a plant-room meter and listed for any unit, it was billed the same
// three times; now PLANT_POINT_IN_UNITS.
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
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? NaN);

type Variant = [string, (mp: Json) => void, string];
const VARIANTS: Variant[] = [
  ['usage_unit_id null with allocations', (mp) => (mp.usage_unit_id = null), 'PLANT_POINT_ALLOCATED'],
  [
    'neither usage_unit_id nor allocations',
    (mp) => {
      delete mp.usage_unit_id;
      delete mp.allocations;
    },
    'PLANT_POINT_IN_UNITS',
  ],
];

describe('a shared meter the Property lists as a plant-room meter', () => {
  it.each(VARIANTS)(
    '%s: billed nowhere, with a not_billed finding --strict counts, and not counted as a plant-room meter',
    async (name, edit, code) => {
      let muster: string | null = null;
      let shared: string | null = null;
      const nulled: Rewrite = (p, json) => {
        if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
        if (p !== `/v1/properties/${muster}/measuring-points`) return undefined;
        const mp = (json.data as Json[]).find((x) => x.metric === 'heat' && x.allocations?.length === 2);
        if (!mp) return undefined;
        shared = mp.id;
        edit(mp);
        return json;
      };
      const clean = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, 'clean'), () => undefined);
      const { r, rewritten, files } = await exportBehindProxy(sandbox, env, token, ARGS, path.join(home, name.replace(/\W+/g, '-')), nulled);
      expect(rewritten).toBe(1);
      const plant = csvRows(files.get('plant-points.csv')!.toString('utf8')).filter((x) => x.measuring_point_id === shared);
      const billed = csvRows(files.get('segments.csv')!.toString('utf8')).filter((x) => x.measuring_point_id === shared && Number(x.billed_value) > 0);
      console.log(
        `[faults]   WE 14/WE 15's heat meter listed with ${name} → exit ${r.code}, plant-points.csv ${plant.map((x) => `${x.billable_value} ${x.review_flags}`).join(', ')}, ${billed.length} segment rows billed (before: WE 14, WE 15 and the plant row), not billed ${notBilled(r.stderr)} (clean ${notBilled(clean.r.stderr)})`,
      );
      expect(notBilled(r.stderr)).toBe(notBilled(clean.r.stderr) + 2);
      expect(plant).toEqual([]);
      expect(billed).toEqual([]);
      const review = csvRows(files.get('review.csv')!.toString('utf8')).filter((x) => x.measuring_point_id === shared && x.severity === 'not_billed');
      expect(review.map((x) => x.code)).toEqual([code, code]);
      const plantCount = (stderr: string) => /\((\d+) plant-room\/main\)/.exec(stderr)?.[1];
      expect(plantCount(r.stderr)).toBe(plantCount(clean.r.stderr));
    },
    120_000,
  );
});
