// The monthly information uses only what the export's billing would bill: billing's verdict on
// the same answers (billProperty → uviVerdict) takes a refused meter out of every figure it
// feeds, which is then missing, never 0; its finding is in the letters' review in billing's
// words. Each case is an answer that reached a letter with a wrong figure before.
import { describe, expect, it } from 'vitest';
import type { DeviceSegment } from '../../src/api/types.js';
import type { Flag } from '../../src/billing/index.js';
import { uviFlagMessage, uviReviewRows } from '../../src/uvi/portal/index.js';
import { shownFinding } from '../../src/uvi/verdict.js';
import { PROPERTY, aPointSummary, aSegment, pointListOf } from '../helpers/builders.js';
import { codes, flat, metered, nov, plantHeat, run, unit } from '../helpers/uvi-billed.js';

describe('a meter billing refuses is in no uvi figure', () => {
  it('a zero-length segment inside another device’s window (SEGMENTS_OVERLAP): the heating is missing, not 5,000 kWh more', () => {
    const heat = metered('heat', flat(100));
    const stray = aSegment({
      installed_at: '2025-11-10',
      deinstalled_at: '2025-11-10',
      baseline_value: 0,
      baseline_date: '2025-11-10',
      readings: [],
      period_consumption: { end_value: 5000, billable_value: 5000, weighted_billable_value: undefined },
    });
    const run1 = run([unit('WE 01', [{ ...heat, segments: [...heat.segments, stray] }])]);
    expect(codes(run1)).toContain('SEGMENTS_OVERLAP');
    expect(nov(run1, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('a point neither the unit nor the Property lists (POINT_NOT_LISTED): the unit’s heating is missing, not doubled', () => {
    const own = metered('heat', flat(100));
    const we01 = unit('WE 01', [own]);
    const points = pointListOf({ property: PROPERTY, units: [we01] });
    we01.consumption.measuring_points.push(metered('heat', flat(100)));
    const r = run([we01], [], points);
    expect(codes(r)).toContain('POINT_NOT_LISTED');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('a point the Property does not list, though the unit’s own measuring_points name it: missing, not doubled (review 34a F1)', () => {
    const we01 = unit('WE 01', [metered('heat', flat(100))]);
    const points = pointListOf({ property: PROPERTY, units: [we01] });
    const extra = metered('heat', flat(100));
    we01.consumption.measuring_points.push(extra);
    we01.unit.measuring_points.push(aPointSummary({ measuring_point_id: extra.measuring_point_id, metric: 'heat', unit: 'kWh' }));
    const r = run([we01], [], points);
    expect(codes(r)).toContain('POINT_NOT_LISTED');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('one point under ids differing only in case (POINT_REPEATED): missing, not counted twice', () => {
    const a = metered('heat', flat(100), 1, { measuring_point_id: 'mp-a' });
    const r = run([unit('WE 01', [a, { ...a, measuring_point_id: 'MP-A' }])]);
    expect(codes(r)).toContain('POINT_REPEATED');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('a plant heat meter sent as mp-p and MP-P counts once: two allocator flats of 50 units share 3,000 kWh as 1,500 each', () => {
    const units = [unit('WE 01', [metered('hca', flat(50))]), unit('WE 02', [metered('hca', flat(50))])];
    const main = plantHeat('mp-p', flat(3000));
    const upper = { point: { ...main.point, id: 'MP-P' }, consumption: { ...main.consumption, measuring_point_id: 'MP-P' } };
    const r = run(units, [main, upper]);
    expect(nov(r, 0, 'HEATING').kwh).toBeCloseTo(1500, 6);
    expect(nov(r, 1, 'HEATING').kwh).toBeCloseTo(1500, 6);
  });

  it('one heat meter at share 1 in two units (SHARE_SUM_ABOVE_ONE): neither unit gets its 100 kWh', () => {
    const shared = metered('heat', flat(100));
    const r = run([unit('WE 01', [shared]), unit('WE 02', [structuredClone(shared)])]);
    expect(codes(r)).toContain('SHARE_SUM_ABOVE_ONE');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('readings outside a device’s window (READING_OUTSIDE_WINDOW): the allocator sum is not formed, the other flat gets no 3,000 kWh', () => {
    const early = metered('hca', flat(50));
    const removed: DeviceSegment = { ...early.segments[0]!, deinstalled_at: '2025-06-30', replacement_reason: 'DeviceRemoval' };
    const units = [unit('WE 01', [{ ...early, segments: [removed] }]), unit('WE 02', [metered('hca', flat(50))])];
    const r = run(units, [plantHeat('mp-p', flat(3000))]);
    expect(codes(r)).toContain('READING_OUTSIDE_WINDOW');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
  });

  it('a value without its November reading (READINGS_MISSING) or with an end value its reading does not show (END_VALUE_NOT_AS_READ): no month is used', () => {
    // read to October only, the end value October's: October's 100 kWh came from its readings before
    const unread = metered('heat', flat(100));
    const seg = unread.segments[0]!;
    const toOctober = { ...seg, readings: seg.readings.slice(0, 12), period_consumption: { ...seg.period_consumption, end_value: 2200, billable_value: 1200 } };
    const r = run([unit('WE 01', [{ ...unread, segments: [toOctober] }])]);
    expect(codes(r)).toContain('READINGS_MISSING');
    expect(r.r.units[0]!.services.find((x) => x.service === 'HEATING')!.months[11]).toMatchObject({ kwh: null, reasons: ['not_billed'] });
    const off = metered('heat', flat(100));
    off.segments[0]!.period_consumption = { ...off.segments[0]!.period_consumption, end_value: 2307, billable_value: 1307 };
    const r2 = run([unit('WE 01', [off])]);
    expect(codes(r2)).toContain('END_VALUE_NOT_AS_READ');
    expect(nov(r2, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it.each([
    ['a difference meter with segments', { is_difference_meter: true }],
    ['a data_gap point with readings', { data_gap: true }],
  ])('%s (CONTRADICTORY_VALUES) is not used', (_, more) => {
    const r = run([unit('WE 01', [metered('heat', flat(100), 1, more)])]);
    expect(codes(r)).toContain('CONTRADICTORY_VALUES');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('a plant meter a unit’s answer carries is not that unit’s heat meter, and the allocator flats get no figure from it', () => {
    const main = plantHeat('mp-p', flat(3000));
    const carried = metered('heat', flat(3000), 1, { measuring_point_id: 'mp-p' }, 5000);
    const units = [unit('WE 01', [carried]), unit('WE 02', [metered('hca', flat(50))])];
    const points = [...pointListOf({ property: PROPERTY, units: [units[1]!] }), main.point];
    const r = run(units, [main], points);
    expect(codes(r)).toContain('POINT_NOT_LISTED');
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['unit_heat_incomplete'] });
  });

  it('a heat meter in a unit of measure the contract does not list (MWh) is not taken as kWh', () => {
    const r = run([unit('WE 01', [metered('heat', flat(100), 1, { unit: 'MWh' })])]);
    expect(r.bill.flags.some((f) => f.code === 'UNKNOWN_ENUM_VALUE' && f.facts?.value === 'MWh')).toBe(true);
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['not_billed'] });
  });

  it('an allocator the Property lists for a unit that no answer carries: no allocator flat gets kWh, not the others more', () => {
    const units = [unit('WE 01', [metered('hca', flat(50))]), unit('WE 02', [metered('hca', flat(50))])];
    const main = plantHeat('mp-p', flat(3000));
    const points = pointListOf({ property: PROPERTY, units, plant: [main] });
    points.push({ id: 'mp-gone', usage_unit_id: units[1]!.unit.id, property_id: PROPERTY.id, metric: 'hca' });
    const r = run(units, [main], points);
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
    // WE 02's own figure would lack the meter: its month is missing for that reason, not another unit's
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['own_point_not_sent'] });
    expect(r.r.findings).toContainEqual(expect.objectContaining({ code: 'POINT_NOT_SENT', usage_unit_id: units[1]!.unit.id }));
    const portal = {
      property: PROPERTY,
      month: '2025-11',
      units: r.r.units.map((uvi, i) => ({ unit: units[i]!.unit, erpRef: null, uvi })),
      findings: r.r.findings,
    };
    expect(uviReviewRows(portal, 'de')).toContainEqual(
      expect.objectContaining({
        letter: 'check',
        code: 'POINT_NOT_SENT',
        usage_unit_name: 'WE 02',
        message: expect.stringContaining('mp-gone (Heizkostenverteiler)'),
      }),
    );
  });

  it('a unit heat meter the Property lists that no answer carries: the allocator flats’ heating heat is not known', () => {
    const units = [unit('WE 01', [metered('hca', flat(50))]), unit('WE 02', [metered('hca', flat(50))])];
    const main = plantHeat('mp-p', flat(3000));
    const points = [
      ...pointListOf({ property: PROPERTY, units, plant: [main] }),
      { id: 'mp-heat', usage_unit_id: units[0]!.unit.id, property_id: PROPERTY.id, metric: 'heat' },
    ];
    const r = run(units, [main], points);
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: null, reasons: ['own_point_not_sent', 'unit_heat_incomplete'] });
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['unit_heat_incomplete'] });
  });

  it('a shared allocator one of its units does not carry: no allocator flat gets kWh (the others got 4,347.8 instead of 4,000)', () => {
    // mp-s: WE 01 0.5, WE 02 0.3, WE 03 0.2 in the Property's list; WE 03's answer leaves it out
    const one = metered('hca', flat(100), 1, { measuring_point_id: 'mp-s' });
    const shared = (s: number) => ({ ...structuredClone(one), unit_share: s });
    const units = [
      unit('WE 01', [shared(0.5)]),
      unit('WE 02', [shared(0.3)]),
      unit('WE 03', [metered('hca', flat(50))]),
      unit('WE 04', [metered('hca', flat(100))]),
    ];
    const main = plantHeat('mp-p', flat(10000));
    const allocations = [0.5, 0.3, 0.2].map((share, i) => ({ usage_unit_id: units[i]!.unit.id, share }));
    const points = pointListOf({ property: PROPERTY, units: units.slice(1), plant: [main] }).map((p) => (p.id === 'mp-s' ? { ...p, allocations } : p));
    const r = run(units, [main], points);
    for (const i of [0, 1, 3]) expect(nov(r, i, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
    expect(nov(r, 2, 'HEATING')).toEqual({ kwh: null, reasons: ['own_point_not_sent'] });
    expect(r.r.findings.filter((f) => f.code === 'POINT_NOT_SENT')).toEqual([
      expect.objectContaining({ code: 'POINT_NOT_SENT', usage_unit_id: units[2]!.unit.id, facts: { measuring_point_id: 'mp-s', metric: 'hca' } }),
    ]);
  });

  it('a shared allocator whose shares add up to 0.8 (SHARE_SUM_MISMATCH): no allocator flat gets kWh, and the finding is shown', () => {
    const one = metered('hca', flat(100), 1, { measuring_point_id: 'mp-s' });
    const shared = (s: number) => ({ ...structuredClone(one), unit_share: s });
    const units = [unit('WE 01', [shared(0.5)]), unit('WE 02', [shared(0.3)]), unit('WE 03', [metered('hca', flat(100))])];
    const main = plantHeat('mp-p', flat(10000));
    const allocations = [0.5, 0.3].map((share, i) => ({ usage_unit_id: units[i]!.unit.id, share }));
    const points = pointListOf({ property: PROPERTY, units: units.slice(1), plant: [main] }).map((p) => (p.id === 'mp-s' ? { ...p, allocations } : p));
    const r = run(units, [main], points);
    expect(codes(r)).toContain('SHARE_SUM_MISMATCH');
    for (const i of [0, 1, 2]) expect(nov(r, i, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
    expect(r.bill.flags.filter(shownFinding).map((f) => f.code)).toContain('SHARE_SUM_MISMATCH');
    expect(r.r.findings.map((f) => f.code)).not.toContain('POINT_NOT_SENT');
  });

  // No segments is no coverage whatever data_gap says (billing's DATA_GAP): without the flag it was "no meter installed" (0).
  it.each([
    ['data_gap', { data_gap: true }],
    ['no segments without data_gap', {}],
  ])('an allocator removed before the 13 months (%s, no active device in the list) measured nothing: the others share the heat', (_, flag) => {
    // as the sandbox sends an ordinary removal (DeviceRemoval): no segment in the range, active_device null
    const { data_gap: _sent, ...bare } = metered('hca', flat(0));
    const gone = { ...bare, segments: [], ...flag };
    const units = [unit('WE 01', [metered('hca', flat(100)), gone]), unit('WE 02', [metered('hca', flat(300))])];
    const main = plantHeat('mp-p', flat(10000));
    const listed = pointListOf({ property: PROPERTY, units, plant: [main] });
    const removed = run(
      units,
      [main],
      listed.map((p) => (p.id === gone.measuring_point_id ? { ...p, active_device: null } : p)),
    );
    expect(nov(removed, 0, 'HEATING')).toEqual({ kwh: 2500, reasons: [] });
    expect(nov(removed, 1, 'HEATING')).toEqual({ kwh: 7500, reasons: [] });
    // the list still shows a device: the point has no answer, and the sum stays unknown
    const active = run(units, [main], listed);
    expect(nov(active, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
  });

  it('an allocator removed inside the 13 months counts 0 afterwards only where the list shows no device there any more', () => {
    const base = metered('hca', flat(100));
    const seg = base.segments[0]!;
    const pc = { ...seg.period_consumption, end_value: seg.baseline_value + 50, billable_value: 50, weighted_billable_value: 50 };
    const early = { ...base, segments: [{ ...seg, deinstalled_at: '2024-11-15', readings: [], period_consumption: pc }] };
    const units = [unit('WE 01', [metered('hca', flat(100)), early]), unit('WE 02', [metered('hca', flat(300))])];
    const main = plantHeat('mp-p', flat(10000));
    const listed = pointListOf({ property: PROPERTY, units, plant: [main] });
    const confirmed = run(
      units,
      [main],
      listed.map((p) => (p.id === early.measuring_point_id ? { ...p, active_device: null } : p)),
    );
    expect([nov(confirmed, 0, 'HEATING'), nov(confirmed, 1, 'HEATING')]).toEqual([
      { kwh: 2500, reasons: [] },
      { kwh: 7500, reasons: [] },
    ]);
    // the list still shows its device installed: the months after the removal are unknown, not "no meter installed"
    const active = run(units, [main], listed);
    expect(nov(active, 0, 'HEATING').reasons).toContain('removal_unconfirmed');
    expect(nov(active, 1, 'HEATING')).toEqual({ kwh: null, reasons: ['allocator_sum_incomplete'] });
  });

  it('an honest Property is unchanged by the verdict: each flat’s heat meter as measured', () => {
    const r = run([unit('WE 01', [metered('heat', flat(918))]), unit('WE 02', [metered('heat', flat(100))])]);
    expect(nov(r, 0, 'HEATING')).toEqual({ kwh: 918, reasons: [] });
    expect(nov(r, 1, 'HEATING')).toEqual({ kwh: 100, reasons: [] });
  });
});

describe('the letters’ review names billing’s finding in its words', () => {
  it('a refused meter and an unknown metric are review lines worded as the export’s review.csv, in German too', () => {
    const we01 = unit('WE 01', [metered('heat', flat(100))]);
    const points = pointListOf({ property: PROPERTY, units: [we01] });
    const stranger = metered('heat', flat(100));
    we01.consumption.measuring_points.push(stranger, metered('steam', flat(1)));
    const { bill, r } = run([we01], [], points);
    const shown = bill.flags.filter(shownFinding);
    const portal = {
      property: PROPERTY,
      month: '2025-11',
      units: r.units.map((uvi) => ({ unit: we01.unit, erpRef: null, uvi })),
      findings: r.findings,
    };
    const rows = uviReviewRows(portal, 'de', shown);
    const notListed = shown.find((f: Flag) => f.code === 'POINT_NOT_LISTED' && f.measuring_point_id === stranger.measuring_point_id)!;
    expect(rows).toContainEqual(
      expect.objectContaining({ letter: 'check', code: 'POINT_NOT_LISTED', usage_unit_name: 'WE 01', message: uviFlagMessage(notListed, 'de') }),
    );
    expect(rows.some((x) => x.code === 'UNKNOWN_ENUM_VALUE' && x.message.includes('steam'))).toBe(true);
    // billing's info findings stay in the export's review.csv
    expect(rows.some((x) => x.code === 'WEIGHTED_VALUE_ABSENT')).toBe(false);
  });
});
