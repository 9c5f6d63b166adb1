// What the Property's lists show and an answer leaves out, over real HTTP (the sandbox behind a
// rewriting proxy). Before, each was billed short with no finding and --strict passed: WE 01's
// answer without its cold-water meter lost its water_cold row (44.393 m³); Musterstraße's unit
// list without WE 02 lost WE 02; WE 03's heat meter without its new device's segment was billed
// 2575.873 kWh instead of 5943.306 with "old and new device added up". Pure cases: billing-listed-absent.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { csvRows, exportBehindProxy, proxyFixture } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
const MUSTER = 'Musterstraße 1-5';
const f = proxyFixture({ beforeAll, afterAll });

type Json = Record<string, any>;
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? 0);

/** Musterstraße's id and its units' ids by name, as the proxy sees them pass. */
function watch() {
  const seen = { muster: null as string | null, units: new Map<string, string>() };
  const look = (p: string, json: Json, query: URLSearchParams) => {
    if (p === '/v1/properties') seen.muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? seen.muster;
    if (p === '/v1/usage-units' && query.get('property_id') === seen.muster) for (const u of json.data as Json[]) seen.units.set(u.name, u.id);
  };
  return { seen, look };
}

async function run(name: string, rewrite: Rewrite) {
  const out = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, name), rewrite);
  const text = (file: string) => out.files.get(file)!.toString('utf8');
  return { ...out, billing: csvRows(text('billing.csv')), review: csvRows(text('review.csv')) };
}

describe("what the Property's lists show and an answer leaves out", () => {
  it('a meter listed for WE 01 left out of its answer: its row is not billed silently (LISTED_POINT_NOT_SENT, --strict counts it)', async () => {
    const { seen, look } = watch();
    const rewrite: Rewrite = (p, json, query) => {
      look(p, json, query);
      if (p !== `/v1/usage-units/${seen.units.get('WE 01')}/consumption`) return undefined;
      json.measuring_points = (json.measuring_points as Json[]).filter((x) => x.metric !== 'water_cold');
      return json;
    };
    const clean = await run('clean-point', () => undefined);
    const bad = await run('point', rewrite);
    const row = (b: typeof bad) => b.billing.find((r) => r.property_name === MUSTER && r.usage_unit_name === 'WE 01' && r.metric === 'water_cold');
    console.log(
      `[faults]   WE 01's answer without its cold-water meter → exit ${bad.r.code}, water_cold ${row(bad)?.billable_value} ${row(bad)?.review_flags} (clean ${row(clean)?.billable_value})`,
    );
    expect(bad.rewritten).toBe(1);
    expect(row(clean)?.billable_value).toBe('44.393');
    expect([row(bad)?.billable_value, row(bad)?.points, row(bad)?.review_flags]).toEqual(['0', '0', 'LISTED_POINT_NOT_SENT']);
    expect(bad.review.filter((r) => r.code === 'LISTED_POINT_NOT_SENT').map((r) => r.usage_unit_id)).toEqual([seen.units.get('WE 01')]);
    expect(bad.r.code).toBe(6);
    expect(notBilled(bad.r.stderr)).toBe(notBilled(clean.r.stderr) + 1);
  }, 300_000);

  it("WE 02 left out of Musterstraße's unit list: named at the Property (UNIT_NOT_IN_LIST, UNITS_FEWER_THAN_COUNT), the other units billed", async () => {
    const { seen, look } = watch();
    let we02: string | undefined;
    const rewrite: Rewrite = (p, json, query) => {
      look(p, json, query);
      if (p !== '/v1/usage-units' || query.get('property_id') !== seen.muster) return undefined;
      we02 = (json.data as Json[]).find((u) => u.name === 'WE 02')?.id;
      json.data = (json.data as Json[]).filter((u) => u.name !== 'WE 02');
      return json;
    };
    const bad = await run('unit', rewrite);
    const muster = bad.billing.filter((r) => r.property_name === MUSTER);
    console.log(
      `[faults]   Musterstraße's unit list without WE 02 → exit ${bad.r.code}, ${new Set(muster.map((r) => r.usage_unit_name)).size} units billed, ${bad.review.filter((r) => (r.code ?? '').startsWith('UNIT')).map((r) => r.code)}`,
    );
    expect(bad.rewritten).toBeGreaterThanOrEqual(1);
    expect(muster.some((r) => r.usage_unit_name === 'WE 01')).toBe(true);
    const found = bad.review.filter((r) => r.property_id === seen.muster && (r.code ?? '').startsWith('UNIT'));
    expect(found.map((r) => [r.code, r.severity])).toEqual([
      ['UNIT_NOT_IN_LIST', 'not_billed'],
      ['UNITS_FEWER_THAN_COUNT', 'not_billed'],
    ]);
    expect(found[0]!.message).toContain(we02!);
    expect(bad.r.code).toBe(6);
  }, 300_000);

  it('WE 03\'s heat meter without its new device\'s segment: not billed, naming the device, no "added up" (LISTED_DEVICE_NOT_SENT)', async () => {
    const { seen, look } = watch();
    let dropped: { point?: string; serial?: string } = {};
    const rewrite: Rewrite = (p, json, query) => {
      look(p, json, query);
      if (p !== `/v1/usage-units/${seen.units.get('WE 03')}/consumption`) return undefined;
      const mp = (json.measuring_points as Json[]).find((x) => x.metric === 'heat' && x.segments.length === 2);
      if (!mp) return undefined;
      dropped = { point: mp.measuring_point_id, serial: mp.segments[1].serial };
      mp.segments = [mp.segments[0]];
      return json;
    };
    const clean = await run('clean-device', () => undefined);
    const bad = await run('device', rewrite);
    const heat = (b: typeof bad) => b.billing.find((r) => r.property_name === MUSTER && r.usage_unit_name === 'WE 03' && r.metric === 'heat');
    console.log(
      `[faults]   WE 03's heat meter without ${dropped.serial}'s segment → exit ${bad.r.code}, heat ${heat(bad)?.billable_value} ${heat(bad)?.review_flags} (clean ${heat(clean)?.billable_value})`,
    );
    expect(bad.rewritten).toBe(1);
    expect(heat(clean)?.billable_value).toBe('5943.306');
    expect(heat(bad)?.billable_value).toBe('0');
    const about = bad.review.filter((r) => r.measuring_point_id === dropped.point);
    expect(about.map((r) => r.code)).toEqual(['LISTED_DEVICE_NOT_SENT']);
    expect(about[0]!.message).toContain(dropped.serial!);
    expect(bad.r.code).toBe(6);
  }, 300_000);
});
