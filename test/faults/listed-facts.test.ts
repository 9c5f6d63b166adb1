// What an answer says of WE 01's listed cold-water meter that the Property's list says otherwise,
// over real HTTP (the sandbox behind a rewriting proxy). Before, each was billed with at most an
// info and --strict passed: a removal on 30 Dec with the end value November's reading + 4,000
// billed 4041.489 m³ instead of 44.393 (DEVICE_REMOVED only); the installation day moved into the
// year billed 488.682; a tripled factor tripled the figure; sent as a difference meter it billed 0
// (DIFFERENCE_METER only). Pure cases: billing-listed-facts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { csvRows, exportBehindProxy, proxyFixture } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
const MUSTER = 'Musterstraße 1-5';
const f = proxyFixture({ beforeAll, afterAll });

type Json = Record<string, any>;
const round = (v: number) => Math.round(v * 1000) / 1000;

/** Rewrites WE 01's cold-water point in its consumption answer (Musterstraße's ids as the proxy sees them pass). */
function we01Cold(change: (mp: Json) => void): Rewrite {
  const seen = { muster: null as string | null, units: new Map<string, string>() };
  return (p, json, query) => {
    if (p === '/v1/properties') seen.muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? seen.muster;
    if (p === '/v1/usage-units' && query.get('property_id') === seen.muster) for (const u of json.data as Json[]) seen.units.set(u.name, u.id);
    if (p !== `/v1/usage-units/${seen.units.get('WE 01')}/consumption`) return undefined;
    change((json.measuring_points as Json[]).find((x) => x.metric === 'water_cold')!);
    return json;
  };
}

/** The segment's billable values after its start, end value or factor changed, as the server would compute them. */
function rebill(mp: Json, seg: Json) {
  const pc = seg.period_consumption;
  pc.billable_value = round((pc.end_value - seg.baseline_value) * seg.factor);
  pc.weighted_billable_value = round(pc.billable_value * mp.unit_share);
}

const CASES: { name: string; code: string; change: (mp: Json) => void }[] = [
  {
    name: 'removed on 30 December, the end value free of any reading (the list shows the device active)',
    code: 'DEVICE_NOT_AS_LISTED',
    change: (mp) => {
      const seg = mp.segments.at(-1);
      const nov = seg.readings.find((r: Json) => r.at === '2025-11-30');
      Object.assign(seg, { deinstalled_at: '2025-12-30', replacement_reason: 'DeviceRemoval' });
      seg.readings = seg.readings.filter((r: Json) => r.at !== '2025-12-31');
      seg.period_consumption.end_value = nov.value + 4000;
      rebill(mp, seg);
    },
  },
  {
    name: 'installed on 1 June with start value 0 (the list has the earlier day)',
    code: 'DEVICE_NOT_AS_LISTED',
    change: (mp) => {
      const seg = mp.segments.at(-1);
      Object.assign(seg, { installed_at: '2025-06-01', baseline_value: 0, baseline_date: '2025-06-01' });
      seg.readings = seg.readings.filter((r: Json) => r.at >= '2025-06-01');
      rebill(mp, seg);
    },
  },
  {
    name: 'with three times the listed factor',
    code: 'DEVICE_NOT_AS_LISTED',
    change: (mp) => {
      const seg = mp.segments.at(-1);
      seg.factor *= 3;
      rebill(mp, seg);
    },
  },
  {
    name: 'sent as a difference meter without segments (the list: metered, with a device)',
    code: 'DIFFERENCE_NOT_AS_LISTED',
    change: (mp) => Object.assign(mp, { is_difference_meter: true, segments: [] }),
  },
];

describe("WE 01's cold water sent otherwise than the Property's list shows it", () => {
  const row = (billing: Record<string, string>[]) =>
    billing.find((r) => r.property_name === MUSTER && r.usage_unit_name === 'WE 01' && r.metric === 'water_cold');

  it.each(CASES.map((c, i) => ({ ...c, i })))(
    '$name: not billed ($code), exit 6 under --strict',
    async ({ name, code, change, i }) => {
      const out = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, `case-${i}`), we01Cold(change));
      const billing = csvRows(out.files.get('billing.csv')!.toString('utf8'));
      const review = csvRows(out.files.get('review.csv')!.toString('utf8'));
      console.log(`[faults]   WE 01's cold water ${name} → exit ${out.r.code}, ${row(billing)?.billable_value} ${row(billing)?.review_flags}`);
      expect(out.rewritten).toBe(1);
      expect(row(billing)?.billable_value).toBe('0');
      expect(row(billing)?.review_flags).toContain(code);
      expect(review.filter((r) => r.code === code).map((r) => r.severity)).toEqual(['not_billed']);
      expect(out.r.code).toBe(6);
    },
    300_000,
  );

  it("the list's device with no installation day, the answer another device installed all year: not billed (LISTED_DEVICE_NOT_SENT)", async () => {
    // before, the other device's 4,041.489 m³ were billed without a finding and --strict passed
    const seen = { muster: null as string | null, units: new Map<string, string>() };
    const consumption = we01Cold((mp) => {
      const seg = mp.segments.at(-1);
      Object.assign(seg, { device_id: '5f0d9a34-1c2e-4b7a-9d3f-00000000beef', serial: 'OTHER-1', installed_at: '2019-01-01' });
      seg.period_consumption.end_value += 3997.096;
      for (const r of seg.readings) if (r.at === '2025-12-31') r.value = seg.period_consumption.end_value;
      rebill(mp, seg);
    });
    const rewrite: Rewrite = (p, json, query) => {
      if (p === '/v1/properties') seen.muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? seen.muster;
      if (p === '/v1/usage-units' && query.get('property_id') === seen.muster) for (const u of json.data as Json[]) seen.units.set(u.name, u.id);
      if (p === `/v1/properties/${seen.muster}/measuring-points`) {
        const listed = (json.data as Json[]).find((x) => x.usage_unit_id === seen.units.get('WE 01') && x.metric === 'water_cold');
        if (!listed) return undefined;
        listed.active_device.installed_at = null;
        return json;
      }
      return consumption(p, json, query);
    };
    const out = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, 'other-device'), rewrite);
    const billing = csvRows(out.files.get('billing.csv')!.toString('utf8'));
    const review = csvRows(out.files.get('review.csv')!.toString('utf8'));
    console.log(
      `[faults]   WE 01's cold water from another device all year → exit ${out.r.code}, ${row(billing)?.billable_value} ${row(billing)?.review_flags}`,
    );
    expect(out.rewritten).toBe(2);
    expect([row(billing)?.billable_value, row(billing)?.review_flags]).toEqual(['0', 'LISTED_DEVICE_NOT_SENT']);
    expect(review.filter((r) => r.code === 'LISTED_DEVICE_NOT_SENT').map((r) => r.severity)).toEqual(['not_billed']);
    expect(out.r.code).toBe(6);
  }, 300_000);

  it('the same export unchanged bills 44.393 m³ without either finding', async () => {
    const out = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, 'clean'), () => undefined);
    expect(row(csvRows(out.files.get('billing.csv')!.toString('utf8')))?.billable_value).toBe('44.393');
    expect(out.files.get('review.csv')!.toString('utf8')).not.toMatch(/DEVICE_NOT_AS_LISTED|DIFFERENCE_NOT_AS_LISTED/);
  }, 300_000);
});
