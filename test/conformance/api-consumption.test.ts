// Range rules, segments, baselines, shares and every special data case of the default data set,
// checked by value through /v1 (plain fetch) and against the raw model where that is independent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { musterstrasse, startApi, sum, type Harness } from '../helpers/api-harness.js';

let h: Harness;
let m: Awaited<ReturnType<typeof musterstrasse>>;
const Y2025 = 'from=2025-01-01&to=2025-12-31';
beforeAll(async () => {
  h = await startApi();
  m = await musterstrasse(h);
});
afterAll(() => h.close());

const consumption = async (unit: string, q = Y2025) => {
  const r = await h.get(`/usage-units/${m.unit(unit).id}/consumption?${q}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const pointOf = async (unit: string, metric: string, nth = 0) => (await consumption(unit)).measuring_points.filter((p: any) => p.metric === metric)[nth];
const readings = async (pointId: string, q = Y2025, hh = h) => {
  const r = await hh.get(`/measuring-points/${pointId}/readings?${q}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const monthEnds = (s: any) => s.readings.map((r: any) => r.at);

describe('range rules', () => {
  it('widens to whole months and echoes the effective range', async () => {
    const c = await consumption('WE 01', 'from=2025-01-15&to=2025-03-10');
    expect([c.from, c.to]).toEqual(['2025-01-01', '2025-03-31']);
    expect(c.external_ref).toBeNull();
    const heat = c.measuring_points.find((p: any) => p.metric === 'heat');
    expect(monthEnds(heat.segments[0])).toEqual(['2025-01-31', '2025-02-28', '2025-03-31']);
  });
  it('caps `to` at the last completed month by the clock (2026-11-22 → 2026-10-31)', async () => {
    const c = await consumption('WE 01', 'from=2026-01-01&to=2026-12-31');
    expect(c.to).toBe('2026-10-31');
    const heat = c.measuring_points.find((p: any) => p.metric === 'heat');
    expect(heat.segments[0].readings.at(-1).at).toBe('2026-10-31');
    expect(heat.segments[0].readings).toHaveLength(10);
    expect((await consumption('WE 01', 'from=2026-10-05&to=2026-10-06')).to).toBe('2026-10-31');
  });
  it('a range entirely after the last completed month gives 400', async () => {
    const r = await h.get(`/usage-units/${m.unit('WE 01').id}/consumption?from=2026-11-01&to=2026-11-30`);
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/'from'.*last completed month.*2026-10-31/);
  });
  it('sandbox horizon: shortened at 2026-12-31; a range starting after it has no values', async () => {
    const later = await startApi({ clock: '2027-03-10' });
    try {
      const unit = (await later.get('/usage-units?limit=1')).body.data[0];
      const a = (await later.get(`/usage-units/${unit.id}/consumption?from=2026-06-01&to=2027-02-28`)).body;
      expect(a.to).toBe('2026-12-31');
      for (const p of a.measuring_points) for (const s of p.segments) expect(s.readings.at(-1).at).toBe('2026-12-31');
      const b = (await later.get(`/usage-units/${unit.id}/consumption?from=2027-01-01&to=2027-02-28`)).body;
      expect(b.measuring_points.length).toBeGreaterThan(0);
      for (const p of b.measuring_points) expect(p).toMatchObject({ data_gap: true, segments: [] });
    } finally {
      await later.close();
    }
  });
  it('metric filter', async () => {
    const c = await consumption('WE 08', `${Y2025}&metric=hca,water_warm`);
    expect(c.measuring_points.map((p: any) => p.metric)).toEqual(['water_warm', 'hca', 'hca', 'hca']);
  });
});

describe('shares and billing invariants', () => {
  it('unit_share and weighted_billable_value = billable_value × unit_share; readings endpoint has neither', async () => {
    const heat14 = await pointOf('WE 14', 'heat');
    const heat15 = await pointOf('WE 15', 'heat');
    expect(heat14.measuring_point_id).toBe(heat15.measuring_point_id);
    expect([heat14.unit_share, heat15.unit_share]).toEqual([0.6, 0.4]);
    const b = heat14.segments[0].period_consumption.billable_value;
    expect(heat14.segments[0].period_consumption.weighted_billable_value).toBe(round3(b * 0.6));
    expect(heat15.segments[0].period_consumption.weighted_billable_value).toBe(round3(b * 0.4));
    const own = await pointOf('WE 14', 'water_cold');
    expect(own.unit_share).toBe(1);
    expect(own.segments[0].period_consumption.weighted_billable_value).toBe(own.segments[0].period_consumption.billable_value);
    const r = await readings(heat14.measuring_point_id);
    expect('unit_share' in r).toBe(false);
    expect('weighted_billable_value' in r.segments[0].period_consumption).toBe(false);
  });
  it('sector sum: weighted values over the sharing units equal the point’s billable from /readings', async () => {
    for (const [units, metric] of [
      [['WE 14', 'WE 15'], 'heat'],
      [['WE 16', 'WE 17', 'WE 18'], 'water_warm'],
    ] as const) {
      const pts = [];
      for (const u of units) pts.push((await consumption(u)).measuring_points.find((p: any) => p.metric === metric && p.unit_share < 1));
      const id = pts[0].measuring_point_id;
      expect(pts.every((p) => p.measuring_point_id === id)).toBe(true);
      expect(sum(pts.map((p) => p.unit_share))).toBe(1);
      const billed = sum((await readings(id)).segments.map((s: any) => s.period_consumption.billable_value));
      const weighted = sum(pts.flatMap((p) => p.segments.map((s: any) => s.period_consumption.weighted_billable_value)));
      expect(Math.abs(weighted - billed)).toBeLessThanOrEqual(0.001 * pts.length);
      expect(billed).toBeGreaterThan(0);
    }
  });
  it('billable = (end − baseline) × factor for every billable segment of Musterstraße; substituted never occurs', async () => {
    let segments = 0;
    for (const u of m.units) {
      const c = (await h.get(`/usage-units/${u.id}/consumption?${Y2025}`)).body;
      for (const p of c.measuring_points) {
        expect(p.obis).toBeNull();
        for (const s of p.segments) {
          segments++;
          expect(s.resolution).toBeNull();
          const pc = s.period_consumption;
          if (pc.status === 'missing' || pc.status === 'calibration_expired') expect(pc.billable_value).toBe(0);
          else expect(Math.abs(pc.billable_value - (pc.end_value - s.baseline_value) * s.factor)).toBeLessThanOrEqual(0.0005 + 1e-9);
          for (const r of s.readings) expect(r.status).not.toBe('substituted');
          expect(pc.status).not.toBe('substituted');
        }
      }
    }
    expect(segments).toBeGreaterThan(60);
  });
  it('matches values computed independently from the raw model (WE 01 heat, WE 03 replacement)', async () => {
    const raw = (unit: string, metric: string) => {
      const u = h.ds.unit(m.unit(unit).id)!;
      return h.ds.pointsOfUnit(u).find((x) => x.point.metric === metric)!.point;
    };
    const heat = raw('WE 01', 'heat');
    const d = heat.devices[0]!;
    const expected = (h.ds.valueAt(d, '2025-12-31') - h.ds.valueAt(d, '2024-12-31')) / 1000;
    const api = (await pointOf('WE 01', 'heat')).segments[0];
    expect(api.period_consumption.weighted_billable_value).toBe(round3(expected));
    for (const r of api.readings) expect(r.value).toBe(h.ds.valueAt(d, r.at) / 1000);
    const [old, neu] = raw('WE 03', 'heat').devices;
    const total = (h.ds.valueAt(old!, '2025-06-15') - h.ds.valueAt(old!, '2024-12-31') + h.ds.valueAt(neu!, '2025-12-31') - neu!.startMilli) / 1000;
    const segs = (await pointOf('WE 03', 'heat')).segments;
    expect(sum(segs.map((s: any) => s.period_consumption.weighted_billable_value))).toBe(round3(total));
  });
});

describe('data cases of the default data set', () => {
  it('WE 03: device replacement mid-2025 starts a new segment at the new device’s start value', async () => {
    const [a, b] = (await pointOf('WE 03', 'heat')).segments;
    expect(a).toMatchObject({
      deinstalled_at: '2025-06-15',
      replacement_reason: 'DeviceReplacement',
      baseline_origin: 'month_end_before_range',
      baseline_date: '2024-12-31',
    });
    expect(a.period_consumption.status).toBe('measured');
    expect(monthEnds(a)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']);
    expect(a.period_consumption.end_value).toBeGreaterThan(a.readings.at(-1).value);
    expect(b).toMatchObject({
      installed_at: '2025-06-15',
      deinstalled_at: null,
      baseline_origin: 'recorded',
      baseline_value: 12.5,
      baseline_date: '2025-06-15',
    });
    expect(b.readings).toHaveLength(7);
    expect(b.device_id).not.toBe(a.device_id);
  });
  it('WE 04: removal without replacement inside the range; the point has no active device', async () => {
    const p = await pointOf('WE 04', 'water_warm');
    const s = p.segments[0];
    expect(s).toMatchObject({ deinstalled_at: '2025-09-10', replacement_reason: 'DeviceRemoval' });
    expect(s.readings.at(-1).at).toBe('2025-08-31');
    expect(s.period_consumption.status).toBe('measured');
    expect(s.period_consumption.end_value).toBeGreaterThan(s.readings.at(-1).value);
    expect((await h.get(`/measuring-points/${p.measuring_point_id}`)).body.active_device).toBeNull();
    const summary = m.unit('WE 04').measuring_points.find((x: any) => x.measuring_point_id === p.measuring_point_id);
    expect(summary.active_device_serial).toBeNull();
    // A later range: no device, no coverage, still listed (never silently omitted).
    const later = (await consumption('WE 04', 'from=2026-01-01&to=2026-06-30')).measuring_points.find(
      (x: any) => x.measuring_point_id === p.measuring_point_id,
    );
    expect(later).toMatchObject({ data_gap: true, segments: [] });
  });
  it('WE 05: removal on a month end: that value is also the month’s reading', async () => {
    const s = (await pointOf('WE 05', 'water_cold')).segments[0];
    expect(s.deinstalled_at).toBe('2025-08-31');
    expect(s.readings.at(-1)).toMatchObject({ at: '2025-08-31', value: s.period_consumption.end_value });
  });
  it('WE 06 / WE 07: unknown installed_at: month end before from, else the first known value in the range', async () => {
    const a = (await pointOf('WE 06', 'heat')).segments[0];
    expect(a).toMatchObject({ installed_at: null, baseline_origin: 'month_end_before_range', baseline_date: '2024-12-31' });
    const b = (await pointOf('WE 07', 'water_cold')).segments[0];
    expect(b).toMatchObject({ installed_at: null, baseline_origin: 'first_known_in_range', baseline_date: '2025-04-30' });
    expect(b.baseline_value).toBe(b.readings[0].value);
    expect(b.readings[0].at).toBe('2025-04-30');
  });
  it('WE 08: assumed_zero start of a replacement heat cost allocator; K-factors 1.25 and 0.85', async () => {
    const hcas = (await consumption('WE 08')).measuring_points.filter((p: any) => p.metric === 'hca');
    expect(hcas.map((p: any) => p.unit)).toEqual(['unit', 'unit', 'unit']);
    const [old, neu] = hcas[0].segments;
    expect(old.factor).toBe(1.25);
    expect(neu).toMatchObject({ baseline_origin: 'assumed_zero', baseline_value: 0, baseline_date: '2025-03-12', factor: 1.25, installed_at: '2025-03-12' });
    expect(hcas[1].segments[0].factor).toBe(0.85);
  });
  it('WE 09: calibration_expired, billable 0, partly synthetic without a method', async () => {
    const s = (await pointOf('WE 09', 'heat')).segments[0];
    const expired = s.readings.filter((r: any) => r.status === 'calibration_expired');
    expect(expired[0].at).toBe('2025-08-31');
    expect(expired).toHaveLength(5);
    expect(expired.some((r: any) => r.is_synthetic && r.substitution_method === null)).toBe(true);
    expect(s.period_consumption).toMatchObject({ status: 'calibration_expired', billable_value: 0, weighted_billable_value: 0 });
  });
  it('WE 10: calculated month ends with the right substitution methods', async () => {
    const c = (await consumption('WE 10')).measuring_points;
    const calc = (metric: string) => c.find((p: any) => p.metric === metric).segments[0].readings.filter((r: any) => r.status === 'calculated');
    expect(calc('heat')).toEqual([expect.objectContaining({ at: '2025-02-28', is_synthetic: true, substitution_method: 'degree_day_weighted' })]);
    expect(calc('hca')).toEqual([expect.objectContaining({ at: '2025-11-30', is_synthetic: true, substitution_method: 'degree_day_weighted' })]);
    expect(calc('water_cold')).toEqual([expect.objectContaining({ at: '2025-05-31', is_synthetic: true, substitution_method: 'linear_interpolation' })]);
    const ww = c.find((p: any) => p.metric === 'water_warm').segments[0];
    expect(ww.period_consumption.status).toBe('calculated');
    expect(ww.period_consumption.billable_value).toBeGreaterThan(0);
    for (const p of c)
      for (const r of p.segments[0].readings) if (r.status === 'measured') expect([r.is_synthetic, r.substitution_method]).toEqual([false, null]);
  });
  it('WE 11: missing values; missing at the end of the range → status missing, nothing carried forward; portal_rule baseline', async () => {
    const c = (await consumption('WE 11')).measuring_points;
    const ww = c.find((p: any) => p.metric === 'water_warm').segments[0];
    const missing = ww.readings.filter((r: any) => r.status === 'missing');
    expect(missing.map((r: any) => r.at)).toEqual(['2025-04-30', '2025-12-31']);
    expect(ww.readings).toHaveLength(12);
    expect(ww.period_consumption).toMatchObject({ status: 'missing', billable_value: 0, end_value: 0 });
    const heat = c.find((p: any) => p.metric === 'heat').segments[0];
    expect(heat).toMatchObject({ baseline_origin: 'portal_rule', baseline_date: '2024-11-30' });
  });
  it('WE 12: data_gap: no coverage at all → empty readings, baseline_origin none, never omitted', async () => {
    const p = (await consumption('WE 12')).measuring_points.find((x: any) => x.metric === 'water_cold');
    expect(p.data_gap).toBe(true);
    expect(p.segments).toHaveLength(1);
    expect(p.segments[0]).toMatchObject({ readings: [], baseline_origin: 'none', period_consumption: { status: 'missing', billable_value: 0 } });
    // data_gap is omitted (default false) elsewhere.
    expect('data_gap' in (await pointOf('WE 12', 'heat'))).toBe(false);
  });
  it('WE 13: replacement without a recorded start value → baseline first_reading', async () => {
    const segs = (await pointOf('WE 13', 'water_cold')).segments;
    expect(segs[1]).toMatchObject({ installed_at: '2025-10-07', baseline_origin: 'first_reading', baseline_date: '2025-10-31' });
    expect(segs[1].baseline_value).toBe(segs[1].readings[0].value);
  });
  it('GE 01: difference meter: no segments, no values, no active device', async () => {
    const p = (await consumption('GE 01')).measuring_points.find((x: any) => x.is_difference_meter);
    expect(p).toMatchObject({ segments: [], is_difference_meter: true });
    expect('data_gap' in p).toBe(false);
    expect((await h.get(`/measuring-points/${p.measuring_point_id}`)).body).toMatchObject({ active_device: null, is_difference_meter: true });
  });
  it('WE 02: is_system_linked false (omitted elsewhere, default true); WE 01: water_outdoor in m3', async () => {
    expect((await pointOf('WE 02', 'heat')).is_system_linked).toBe(false);
    expect('is_system_linked' in (await pointOf('WE 01', 'heat'))).toBe(false);
    const pt = m.points.find((p: any) => p.metric === 'heat' && p.usage_unit_id === m.unit('WE 02').id);
    expect(pt.is_system_linked).toBe(false);
    expect(await pointOf('WE 01', 'water_outdoor')).toMatchObject({ unit: 'm3', unit_share: 1 });
  });
  it('plant-room and main meters: readable by id, never in a unit’s consumption', async () => {
    const plant = m.points.filter((p: any) => p.usage_unit_id === null);
    const r = await readings(plant[0].id);
    expect(r.segments[0].readings).toHaveLength(12);
    expect(r.segments[0].period_consumption.billable_value).toBeGreaterThan(0);
    for (const u of m.units) {
      const c = (await h.get(`/usage-units/${u.id}/consumption?${Y2025}`)).body;
      for (const p of c.measuring_points) expect(plant.map((x: any) => x.id)).not.toContain(p.measuring_point_id);
    }
  });
  it('one reading per month end inside the installation window', async () => {
    const r = await readings(m.unit('WE 01').measuring_points[0].measuring_point_id, 'from=2018-01-01&to=2019-12-31');
    // WE 01's meters were installed 2019-05-14: first reading 2019-05-31; the baseline is the recorded start value.
    expect(r.segments[0].readings[0].at).toBe('2019-05-31');
    expect(r.segments[0].readings).toHaveLength(8);
    expect(r.segments[0]).toMatchObject({ baseline_origin: 'recorded', baseline_date: '2019-05-14' });
  });
});
