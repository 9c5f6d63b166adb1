// A hostile server breaking the contract's structure: the sandbox behind a proxy that
// doubles segments, readings and points of WE 01's cold water (Musterstraße) or of the
// plant heat meter. The built binary must bill none of it (never the doubled figure), name
// it in review.csv with its own not_billed finding, exit 6 under --strict with one finding
// more than the clean run, and a run resumed from the journal must write the same files.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { assertBuilt, csvRows, differences, exportBehindProxy, report, runBin, signedIn } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
let token: string;

beforeAll(async () => {
  assertBuilt();
  // 30 units: Musterstraße (21 fixed units) and Lindenhof, so a run can fail at the second Property
  ({ sandbox, env, home } = await signedIn({ units: 30, rateLimitPerMinute: 0 }));
  token = (await runBin(['token'], env)).stdout.trim();
}, 60_000);
afterAll(async () => sandbox?.close());

type Json = Record<string, any>;
const MUSTER = 'Musterstraße 1-5';

/** Rewrites WE 01's cold-water point (in Musterstraße) or the plant heat meter's readings; learns the ids from the lists it passes on. */
function proxyRewrite(change: {
  unitPoint?: (point: Json, points: Json[], ids: { plantHeat: string; we02Cold: string }) => void;
  /** WE 02's cold-water point in WE 02's answer. */
  we02Point?: (point: Json) => void;
  plantHeat?: (answer: Json) => void;
  failOthers?: boolean;
}): Rewrite {
  let muster: string | null = null;
  let we01: string | null = null;
  let we02: string | null = null;
  let we02Cold: string | null = null;
  const musterUnits = new Set<string>();
  const plantHeat = new Set<string>();
  return (p, json, query) => {
    if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
    if (p === '/v1/usage-units' && query.get('property_id') === muster) {
      for (const u of json.data as Json[]) musterUnits.add(u.id);
      we01 = (json.data as Json[]).find((u) => u.name === 'WE 01')?.id ?? we01;
      we02 = (json.data as Json[]).find((u) => u.name === 'WE 02')?.id ?? we02;
    }
    if (p === `/v1/properties/${muster}/measuring-points`) {
      for (const mp of json.data as Json[]) if (mp.usage_unit_id === null && mp.metric === 'heat') plantHeat.add(mp.id);
      we02Cold = (json.data as Json[]).find((mp) => mp.usage_unit_id === we02 && mp.metric === 'water_cold')?.id ?? we02Cold;
    }
    const unit = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p)?.[1];
    if (unit && change.failOthers && !musterUnits.has(unit)) return { ...json, usage_unit_id: '00000000-0000-4000-8000-00000000beef' };
    if (unit === we01 && change.unitPoint) {
      const points = json.measuring_points as Json[];
      change.unitPoint(
        points.find((x) => x.metric === 'water_cold')!,
        points,
        { plantHeat: [...plantHeat][0]!, we02Cold: we02Cold! },
      );
      return json;
    }
    if (unit === we02 && change.we02Point) return (change.we02Point((json.measuring_points as Json[]).find((x) => x.metric === 'water_cold')!), json);
    const point = /^\/v1\/measuring-points\/([^/]+)\/readings$/.exec(p)?.[1];
    if (point && plantHeat.has(point) && change.plantHeat) return (change.plantHeat(json), json);
    return undefined;
  };
}

const rows = csvRows;
const we01 = (billing: string, metric: string) =>
  rows(billing).find((r) => r.property_name === MUSTER && r.usage_unit_name === 'WE 01' && r.metric === metric)!;
const we01Cold = (billing: string) => we01(billing, 'water_cold');
const plantHeatRow = (plant: string) => rows(plant).find((r) => r.property_name === MUSTER && r.metric === 'heat')!;
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? NaN);

interface Scenario {
  name: string;
  rewrite: Rewrite;
  finding: string;
  /** What WE 01's cold-water row (or the plant heat meter's) must show, given the clean run's. */
  expect: (clean: Record<string, string>) => Record<string, string>;
  plant?: boolean;
  /** WE 01's heat row instead of its cold water. */
  heat?: boolean;
  /** Points not billed beyond the clean run's, where not one. */
  notBilled?: number;
}

/** A made-up id, the same in every run (a resumed run is compared byte for byte). */
const madeUp = (n: number) => `00000000-0000-4000-8000-${(0xc0de0000 + n).toString(16).padStart(12, '0')}`;
const freshDevice = (seg: Json, i = 0) => ({ ...seg, device_id: madeUp(i), serial: `${seg.serial}-${i}` });
/** The point with unit_share 0.5 and its weighted values halved, as a shared point is sent. */
const halfOf = (pt: Json) => {
  pt.unit_share = 0.5;
  for (const seg of pt.segments) seg.period_consumption.weighted_billable_value = seg.period_consumption.billable_value / 2;
  return pt;
};
const SCENARIOS: Scenario[] = [
  {
    name: 'the same segment twice',
    rewrite: proxyRewrite({ unitPoint: (pt) => pt.segments.push(structuredClone(pt.segments[0])) }),
    finding: 'DEVICE_REPEATED',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    name: 'another device id over the same window',
    rewrite: proxyRewrite({ unitPoint: (pt) => pt.segments.push(freshDevice(pt.segments[0])) }),
    finding: 'SEGMENTS_OVERLAP',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    name: 'two devices installed and removed on one day',
    rewrite: proxyRewrite({
      unitPoint: (pt) => {
        // read on that day only, as a device installed for one day is
        Object.assign(pt.segments[0], {
          installed_at: '2025-12-31',
          deinstalled_at: '2025-12-31',
          readings: pt.segments[0].readings.filter((r: Json) => r.at === '2025-12-31'),
        });
        pt.segments.push(freshDevice(pt.segments[0]));
      },
    }),
    finding: 'SEGMENTS_OVERLAP',
    expect: () => ({ billable_value: '0', points: '1' }),
    // the listed device's installation and removal day moved as well (DEVICE_NOT_AS_LISTED twice): not billed either
    notBilled: 3,
  },
  {
    name: '1,000 copies under fresh device ids',
    rewrite: proxyRewrite({ unitPoint: (pt) => pt.segments.push(...Array.from({ length: 999 }, (_, i) => freshDevice(pt.segments[0], i))) }),
    finding: 'SEGMENTS_OVERLAP',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    // no window overlaps: the device is said to be removed on 30 June and a copy installed that day, each with the whole year's readings and value
    name: 'a replacement made up from a copy, readings outside each window',
    rewrite: proxyRewrite({
      unitPoint: (pt) => {
        pt.segments[0].deinstalled_at = '2025-06-30';
        pt.segments.push({ ...freshDevice(pt.segments[0]), installed_at: '2025-06-30', deinstalled_at: null });
      },
    }),
    finding: 'READING_OUTSIDE_WINDOW',
    expect: () => ({ billable_value: '0', points: '1' }),
    // the listed device, active in the list, said to be removed (DEVICE_NOT_AS_LISTED): not billed either
    notBilled: 2,
  },
  {
    name: 'a month end read twice',
    rewrite: proxyRewrite({
      unitPoint: (pt) => pt.segments[0].readings.push({ ...pt.segments[0].readings.at(-1), value: pt.segments[0].readings.at(-1).value + 41 }),
    }),
    finding: 'READING_REPEATED',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    name: 'the only device dated as removed before the year',
    rewrite: proxyRewrite({ unitPoint: (pt) => Object.assign(pt.segments[0], { deinstalled_at: '2024-06-30', readings: [] }) }),
    finding: 'SEGMENT_OUTSIDE_RANGE',
    expect: () => ({ billable_value: '0', points: '1' }),
    // the listed device, active in the list, said to be removed (DEVICE_NOT_AS_LISTED): not billed either
    notBilled: 2,
  },
  {
    name: 'a difference meter with values',
    rewrite: proxyRewrite({ unitPoint: (pt) => (pt.is_difference_meter = true) }),
    finding: 'CONTRADICTORY_VALUES',
    expect: () => ({ billable_value: '0', points: '1' }),
    // the list calls it a metered meter (DIFFERENCE_NOT_AS_LISTED): not billed either
    notBilled: 2,
  },
  {
    name: 'data_gap with values',
    rewrite: proxyRewrite({ unitPoint: (pt) => (pt.data_gap = true) }),
    finding: 'CONTRADICTORY_VALUES',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    name: 'the same point id twice',
    rewrite: proxyRewrite({ unitPoint: (pt, points) => points.push(structuredClone(pt)) }),
    finding: 'POINT_REPEATED',
    expect: () => ({ billable_value: '0', points: '1' }),
  },
  {
    name: 'a point neither the unit nor the Property lists',
    rewrite: proxyRewrite({ unitPoint: (pt, points) => points.push({ ...structuredClone(pt), measuring_point_id: madeUp(5000) }) }),
    finding: 'POINT_NOT_LISTED',
    expect: (clean) => ({ billable_value: clean.billable_value!, points: '1' }),
  },
  {
    // the shares still add up to 1: WE 02's answer gives up half of its meter
    name: "WE 02's cold-water meter under WE 01 with half of it",
    rewrite: proxyRewrite({
      unitPoint: (_, points, { we02Cold }) =>
        points.push(halfOf({ ...structuredClone(points.find((x) => x.metric === 'water_cold')!), measuring_point_id: we02Cold })),
      we02Point: (point) => halfOf(point),
    }),
    finding: 'POINT_NOT_LISTED',
    expect: (clean) => ({ billable_value: clean.billable_value!, points: clean.points! }),
    // WE 02's half contradicts the list's share of 1 (SHARE_NOT_AS_LISTED): not billed either
    notBilled: 2,
  },
  {
    name: 'the plant heat meter under WE 01 as well',
    rewrite: proxyRewrite({
      unitPoint: (_, points, { plantHeat }) => points.push({ ...structuredClone(points.find((x) => x.metric === 'heat')!), measuring_point_id: plantHeat }),
    }),
    finding: 'POINT_NOT_LISTED',
    expect: (clean) => ({ billable_value: clean.billable_value!, points: clean.points! }),
    heat: true,
  },
  {
    // WE 01's heat meter (kWh) relabelled as cold water: its kilowatt hours would be added to the cubic metres
    name: "WE 01's heat meter sent as cold water",
    rewrite: proxyRewrite({
      unitPoint: (_, points) =>
        Object.assign(
          points.find((x) => x.metric === 'heat')!,
          { metric: 'water_cold', unit: 'm3' },
        ),
    }),
    finding: 'METRIC_NOT_AS_LISTED',
    expect: (clean) => ({ billable_value: clean.billable_value! }),
  },
  {
    name: "the plant heat meter's readings in m3, the list saying kWh",
    rewrite: proxyRewrite({ plantHeat: (answer) => (answer.unit = 'm3') }),
    finding: 'METRIC_NOT_AS_LISTED',
    expect: () => ({ billable_value: '0' }),
    plant: true,
  },
  {
    name: "the plant heat meter's readings with a second device over its window",
    rewrite: proxyRewrite({ plantHeat: (answer) => answer.segments.push(freshDevice(answer.segments[0])) }),
    finding: 'SEGMENTS_OVERLAP',
    expect: () => ({ billable_value: '0' }),
    plant: true,
  },
];

const run = (out: string, rewrite: Rewrite) => exportBehindProxy(sandbox, env, token, ARGS, out, rewrite);

describe("answers that break the contract's structure", () => {
  it('are never added up: not billed, named, --strict exits 6 with one finding more', async () => {
    const clean = await run(path.join(home, 'clean'), () => undefined);
    expect(clean.r.code, clean.r.stderr).toBe(6);
    const text = (files: Map<string, Buffer>, n: string) => files.get(n)?.toString('utf8') ?? '';
    const cleanCold = we01Cold(text(clean.files, 'billing.csv'));
    const cleanHeat = we01(text(clean.files, 'billing.csv'), 'heat');
    const cleanPlant = plantHeatRow(text(clean.files, 'plant-points.csv'));
    expect(Number(cleanCold.billable_value)).toBeGreaterThan(0);
    expect(Number(cleanPlant.billable_value)).toBeGreaterThan(0);
    const lost: string[] = [];
    for (const [i, s] of SCENARIOS.entries()) {
      const { r, rewritten, files } = await run(path.join(home, `break-${i}`), s.rewrite);
      const before = s.plant ? cleanPlant : s.heat ? cleanHeat : cleanCold;
      const row = s.plant ? plantHeatRow(text(files, 'plant-points.csv')) : we01(text(files, 'billing.csv'), s.heat ? 'heat' : 'water_cold');
      const want = s.expect(before);
      const review = text(files, 'review.csv');
      const problems = [
        rewritten === 0 && 'the proxy rewrote nothing',
        r.code !== 6 && `exit ${r.code}, not 6: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`,
        /^\s+at /m.test(r.stderr) && 'a stack trace was printed',
        Object.entries(want).some(([k, v]) => row?.[k] !== v) &&
          `row ${JSON.stringify(Object.fromEntries(Object.keys(want).map((k) => [k, row?.[k]])))}, not ${JSON.stringify(want)}`,
        !new RegExp(`^not_billed,${s.finding},`, 'm').test(review) && `no not_billed ${s.finding} in review.csv`,
        notBilled(r.stderr) !== notBilled(clean.r.stderr) + (s.notBilled ?? 1) &&
          `--strict counts ${notBilled(r.stderr)} not billed, the clean run ${notBilled(clean.r.stderr)}`,
      ].filter(Boolean);
      if (problems.length) lost.push(`${s.name}: ${problems.join(', ')}`);
      console.log(
        `[faults]   ${s.name} → exit ${r.code}, ${s.plant ? 'plant heat' : s.heat ? 'WE 01 heat' : 'WE 01 cold water'} ${row?.billable_value} (clean ${before.billable_value}), ${s.finding}`,
      );
    }
    report({
      scenario: `contract breaks (${SCENARIOS.length} classes: segments, readings and points twice, an unlisted point, the plant meter under a unit, the plant readings)`,
      trials: SCENARIOS.length,
      passed: SCENARIOS.length - lost.length,
      lost,
    });
    expect(lost).toEqual([]);
  }, 300_000);

  it('a point id in capitals keeps the Property list\'s "not linked to a system" (rule 7): NOT_SYSTEM_LINKED on WE 01\'s cold water', async () => {
    let coldId: string | null = null;
    const capitals: Rewrite = (p, json) => {
      // the Property lists WE 01's cold water as not linked; WE 01's answer names it in capitals, saying nothing of links
      if (p.endsWith('/measuring-points') && Array.isArray(json.data)) {
        for (const mp of json.data as Json[]) if (mp.id === coldId) mp.is_system_linked = false;
        return json;
      }
      return undefined;
    };
    const learn = proxyRewrite({ unitPoint: (pt) => ((pt.measuring_point_id = pt.measuring_point_id.toUpperCase()), delete pt.is_system_linked) });
    const { r, files } = await run(path.join(home, 'capitals'), (p, json, query) => {
      if (p === '/v1/usage-units')
        coldId ??=
          ((json.data as Json[]).find((u) => u.name === 'WE 01' && u.property.name === MUSTER)?.measuring_points as Json[] | undefined)?.find(
            (m) => m.metric === 'water_cold',
          )?.measuring_point_id ?? null;
      return capitals(p, json, query) ?? learn(p, json, query);
    });
    expect(r.code, r.stderr).toBe(6);
    expect(coldId).not.toBeNull();
    expect(we01Cold(files.get('billing.csv')!.toString('utf8')).review_flags).toContain('NOT_SYSTEM_LINKED');
  }, 60_000);

  it("shares that add up but contradict the Property list's allocations (WE 14/WE 15's heat meter sent 40/60, listed 60/40) are not billed", async () => {
    let shared: { id: string; shares: Map<string, number> } | null = null;
    const swapped: Rewrite = (p, json) => {
      if (/^\/v1\/properties\/[^/]+\/measuring-points$/.test(p)) {
        const mp = (json.data as Json[]).find((x) => x.allocations?.length === 2 && x.allocations[0].share !== x.allocations[1].share);
        if (mp) shared ??= { id: mp.id, shares: new Map(mp.allocations.map((a: Json) => [a.usage_unit_id, a.share])) };
        return undefined;
      }
      const unit = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p)?.[1];
      const pt = shared && unit && (json.measuring_points as Json[]).find((x) => x.measuring_point_id === shared!.id);
      if (!pt || !shared) return undefined;
      // the other unit's share, weighted values to match: each answer is consistent, the sum still 1
      const share = [...shared.shares].find(([u]) => u !== unit)![1];
      pt.unit_share = share;
      for (const seg of pt.segments) seg.period_consumption.weighted_billable_value = seg.period_consumption.billable_value * share;
      return json;
    };
    const { r, rewritten, files } = await run(path.join(home, 'shares-swapped'), swapped);
    expect(rewritten).toBeGreaterThanOrEqual(2);
    expect(r.code, r.stderr).toBe(6);
    const review = files.get('review.csv')!.toString('utf8');
    expect(review.match(/^not_billed,SHARE_NOT_AS_LISTED,/gm)).toHaveLength(2);
    const billed = rows(files.get('segments.csv')!.toString('utf8')).filter((s) => s.measuring_point_id === shared!.id);
    expect(billed.length).toBeGreaterThanOrEqual(2);
    console.log(
      `[faults]   shares swapped against the list → exit ${r.code}, billed ${billed.map((s) => `${(s.usage_unit_id ?? '').slice(-4)} ${s.unit_share} ${s.billed_value}`).join(', ')}`,
    );
    expect(billed.map((s) => s.billed_value)).toEqual(billed.map(() => '0'));
  }, 60_000);

  it('a run resumed from the journal writes the files of an uninterrupted run', async () => {
    const doubled = { unitPoint: (pt: Json) => pt.segments.push(freshDevice(pt.segments[0])) };
    const whole = await run(path.join(home, 'whole'), proxyRewrite(doubled));
    expect(whole.r.code, whole.r.stderr).toBe(6);
    const out = path.join(home, 'resumed');
    // the second Property's answers are for another unit: exit 5 after Musterstraße was saved
    const failed = await run(out, proxyRewrite({ ...doubled, failOthers: true }));
    expect(failed.r.code, failed.r.stderr).toBe(5);
    expect([...failed.files.keys()].filter((n) => !n.startsWith('.'))).toEqual([]);
    const resumed = await run(out, proxyRewrite({}));
    expect(resumed.r.code, resumed.r.stderr).toBe(6);
    expect(resumed.r.stderr + resumed.r.stdout).toMatch(/resum/i);
    expect(we01Cold(resumed.files.get('billing.csv')!.toString('utf8')).billable_value).toBe('0');
    expect(differences(whole.files, resumed.files)).toEqual([]);
  }, 120_000);
});
