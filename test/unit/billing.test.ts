// Billing rules 1-8 of the contract with hand-computed values.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { billPlantPoint, billProperty, billUnit, dec, formatDecimal, segmentValue, type PropertyBill } from '../../src/billing/index.js';
import { PROPERTY, RANGE, aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, sharedCopies, uuid } from '../helpers/builders.js';

function billOne(points: Parameters<typeof aUnitEntry>[1]) {
  const { unit, consumption } = aUnitEntry('WE 01', points);
  return billUnit({ property: PROPERTY, unit, consumption });
}
const valueOf = (bill: { billing: { metric: string; billable_value: string }[] }, metric: string) =>
  bill.billing.find((r) => r.metric === metric)?.billable_value;

describe('formatDecimal', () => {
  it.each([
    [0.1 + 0.2, '0.30000000000000004'],
    [dec(0.1).plus(0.2), '0.3'],
    ['12.500000', '12.5'],
    [-0, '0'],
    ['-0.000', '0'],
    [1e-7, '0.0000001'],
    [1e21, '1000000000000000000000'],
    ['-2.5e-3', '-0.0025'],
    [42, '42'],
  ])('%s → %s', (input, expected) => {
    expect(formatDecimal(input)).toBe(expected);
  });

  it('refuses non-finite values instead of writing "NaN" into a bill', () => {
    expect(() => formatDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => formatDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('rule 2: per unit, sum of weighted_billable_value over segments', () => {
  it('sums decimals without float drift: 0.1 + 0.2 = 0.3', () => {
    const point = aPointConsumption({
      segments: [
        aSegment({ installed_at: '2020-01-01', deinstalled_at: '2025-06-01', period_consumption: { billable_value: 0.1, weighted_billable_value: 0.1 } }),
        aSegment({ installed_at: '2025-06-01', period_consumption: { billable_value: 0.2, weighted_billable_value: 0.2 } }),
      ],
    });
    const bill = billOne([point]);
    expect(valueOf(bill, 'heat')).toBe('0.3');
    expect(bill.billing[0]!.points).toBe(1);
  });

  it('adds several points of the same metric into one row', () => {
    const bill = billOne([
      aPointConsumption({ segments: [aSegment({ period_consumption: { weighted_billable_value: 12.5 } })] }),
      aPointConsumption({ segments: [aSegment({ period_consumption: { weighted_billable_value: 7.25 } })] }),
      aPointConsumption({ metric: 'water_warm', unit: 'm3', segments: [aSegment({ period_consumption: { weighted_billable_value: 3.1 } })] }),
    ]);
    expect(bill.billing.map((r) => [r.metric, r.unit, r.billable_value, r.points])).toEqual([
      ['heat', 'kWh', '19.75', 2],
      ['water_warm', 'm3', '3.1', 1],
    ]);
  });

  it('bills the weighted value, not billable_value: shares of 1/3 over three units', () => {
    const third = 1 / 3;
    const copies = sharedCopies(100, [third, third, third]);
    const out = billProperty(aPropertyInput({ units: copies.map((p, i) => aUnitEntry(`WE 0${i + 1}`, [p])) }));
    expect(out.billing.map((r) => r.billable_value)).toEqual(['33.33333333333333', '33.33333333333333', '33.33333333333333']);
    // 3 x 0.3333333333333333 = 0.9999999999999999: within tolerance, no mismatch.
    expect(out.flags.filter((f) => f.code === 'SHARE_SUM_MISMATCH')).toEqual([]);
    const total = out.billing.reduce((s, r) => s.plus(r.billable_value), dec(0));
    expect(total.minus(100).abs().lessThan(1e-12)).toBe(true);
    expect(out.segments.map((s) => s.unit_share)).toEqual(['0.3333333333333333', '0.3333333333333333', '0.3333333333333333']);
  });

  it('takes the server value as it is when a K-factor applies (rule 4: never last minus first)', () => {
    // HCA with factor 1.5: readings go 20 → 120, the server bills (120 - 20) x 1.5 = 150.
    const seg = aSegment({
      factor: 1.5,
      baseline_value: 20,
      readings: [aReading({ at: '2025-06-30', value: 70 }), aReading({ at: '2025-12-31', value: 120 })],
      period_consumption: { end_value: 120, billable_value: 150, weighted_billable_value: 150 },
    });
    const bill = billOne([aPointConsumption({ metric: 'hca', unit: 'unit', segments: [seg] })]);
    expect(valueOf(bill, 'hca')).toBe('150');
    expect(bill.segments[0]).toMatchObject({ factor: '1.5', baseline_value: '20', end_value: '120', billable_value: '150', billed_value: '150' });
  });

  it('includes the baseline before the range and a replacement device from its own start value', () => {
    // First device: baseline 100 (month end before range) to 160 → 60. New device starts at 5, ends 25 → 20.
    const oldDevice = aSegment({
      installed_at: null,
      baseline_date: '2024-12-31',
      deinstalled_at: '2025-06-30',
      replacement_reason: 'DeviceReplacement',
      readings: [aReading({ at: '2025-01-31', value: 120 }), aReading({ at: '2025-06-30', value: 160 })],
      period_consumption: { end_value: 160, billable_value: 60, weighted_billable_value: 60 },
    });
    const newDevice = aSegment({
      installed_at: '2025-06-30',
      baseline_date: '2025-06-30',
      baseline_value: 5,
      readings: [aReading({ at: '2025-12-31', value: 25 })],
      period_consumption: { end_value: 25, billable_value: 20, weighted_billable_value: 20 },
    });
    const bill = billOne([aPointConsumption({ segments: [newDevice, oldDevice] })]);
    expect(valueOf(bill, 'heat')).toBe('80');
    expect(bill.segments.map((s) => s.device_id)).toEqual([oldDevice.device_id, newDevice.device_id]);
  });

  it('falls back to billable_value x unit_share where the weighted value is absent', () => {
    const seg = (billable: number) => aSegment({ period_consumption: { billable_value: billable, weighted_billable_value: undefined } });
    const shared = billOne([aPointConsumption({ unit_share: 0.25, segments: [seg(10)] })]);
    expect(valueOf(shared, 'heat')).toBe('2.5');
    expect(shared.flags.map((f) => f.code)).toContain('WEIGHTED_VALUE_ABSENT');
    const whole = billOne([aPointConsumption({ unit_share: undefined, segments: [seg(10)] })]);
    expect(valueOf(whole, 'heat')).toBe('10');
    expect(whole.segments[0]!.weighted_billable_value).toBeNull();
  });
});

describe('rule 5: calibration_expired, missing and unknown statuses are never billed', () => {
  it.each([
    ['calibration_expired', 'CALIBRATION_EXPIRED', 'not_billed'],
    ['missing', 'MISSING_VALUE', 'not_billed'],
    ['frozen', 'UNKNOWN_ENUM_VALUE', 'review'],
  ])('%s counts 0 whatever value it carries, flagged %s', (status, code, severity) => {
    const bad = aSegment({
      installed_at: '2020-01-01',
      deinstalled_at: '2025-07-01',
      period_consumption: { status, billable_value: 42, weighted_billable_value: 42 },
    });
    const good = aSegment({ installed_at: '2025-07-01', period_consumption: { billable_value: 8, weighted_billable_value: 8 } });
    const bill = billOne([aPointConsumption({ segments: [bad, good] })]);
    expect(valueOf(bill, 'heat')).toBe('8');
    expect(bill.segments.map((s) => s.billed_value)).toEqual(['0', '8']);
    const flag = bill.flags.find((f) => f.code === code)!;
    expect(flag).toMatchObject({ severity, device_id: bad.device_id, measuring_point_id: bill.points[0]!.measuring_point_id });
    if (code === 'UNKNOWN_ENUM_VALUE') expect(flag.facts).toEqual({ field: 'status', value: 'frozen' });
    expect(bill.billing[0]!.review_flags).toContain(code);
  });

  it.each(['measured', 'substituted', 'calculated'])('%s counts', (status) => {
    const bill = billOne([aPointConsumption({ segments: [aSegment({ period_consumption: { status, weighted_billable_value: 4.5 } })] })]);
    expect(valueOf(bill, 'heat')).toBe('4.5');
  });

  it('applies to plant points too', () => {
    const plant = aPlantPoint({
      consumption: { segments: [aSegment({ period_consumption: { status: 'calibration_expired', billable_value: 9, weighted_billable_value: undefined } })] },
    });
    const { row } = billPlantPoint({ property: PROPERTY, ...plant });
    expect(row.billable_value).toBe('0');
    expect(row.status).toBe('calibration_expired');
    expect(row.review_flags).toEqual(['CALIBRATION_EXPIRED', 'UNALLOCATED_POINT']);
  });

  it('segmentValue says what a segment contributes', () => {
    expect(segmentValue(aSegment({ period_consumption: { status: 'missing', billable_value: 3 } }), 1).billed.toString()).toBe('0');
    expect(segmentValue(aSegment({ period_consumption: { billable_value: 3, weighted_billable_value: 1.5 } }), 0.5).billed.toString()).toBe('1.5');
    expect(segmentValue(aSegment({ period_consumption: { billable_value: 3, weighted_billable_value: 1.5 } }), null).billed.toString()).toBe('3');
  });
});

describe('water_outdoor is never part of the water billed to residents', () => {
  it('gets its own row, flagged, and the water rows exclude it', () => {
    const water = (metric: string, v: number) =>
      aPointConsumption({ metric, unit: 'm3', segments: [aSegment({ period_consumption: { weighted_billable_value: v } })] });
    const bill = billOne([water('water_cold', 30), water('water_outdoor', 12), water('water_warm', 20), water('water_cold', 5)]);
    expect(bill.billing.map((r) => [r.metric, r.billable_value, r.review_flags])).toEqual([
      ['water_cold', '35', []],
      ['water_outdoor', '12', ['WATER_OUTDOOR']],
      ['water_warm', '20', []],
    ]);
  });
});

describe('rule 1 and rule 8: plant-room and main points', () => {
  it('bills the sum of billable_value over the segments, flagged unallocated', () => {
    const plant = aPlantPoint({
      consumption: {
        segments: [
          aSegment({
            installed_at: '2019-01-01',
            deinstalled_at: '2025-05-01',
            period_consumption: { billable_value: 300.4, weighted_billable_value: undefined },
          }),
          aSegment({ installed_at: '2025-05-01', period_consumption: { billable_value: 199.7, weighted_billable_value: undefined } }),
        ],
      },
    });
    const { row, flags, segments } = billPlantPoint({ property: PROPERTY, ...plant });
    expect(row).toMatchObject({ billable_value: '500.1', metric: 'water_cold', localization: 'Heizungskeller', is_system_linked: true, status: 'measured' });
    expect(flags.filter((f) => f.code === 'UNALLOCATED_POINT')).toEqual([
      { code: 'UNALLOCATED_POINT', severity: 'info', property_id: PROPERTY.id, usage_unit_id: null, measuring_point_id: plant.point.id, device_id: null },
    ]);
    expect(segments.map((s) => [s.usage_unit_id, s.unit_share, s.billed_value])).toEqual([
      [null, null, '300.4'],
      [null, null, '199.7'],
    ]);
  });

  it("a unit point whose consumption answer omits is_system_linked takes it from the Property's point list", () => {
    const c = aPointConsumption();
    delete c.is_system_linked;
    const entry = aUnitEntry('WE 02', [c]);
    const listed = aPlantPoint({
      point: {
        id: c.measuring_point_id,
        metric: c.metric,
        unit: c.unit,
        is_system_linked: false,
        usage_unit_id: entry.unit.id,
        allocations: [{ usage_unit_id: entry.unit.id, share: 1 }],
      },
    }).point;
    const out = billProperty(aPropertyInput({ units: [entry], points: [listed] }));
    expect(out.billing[0]!.review_flags).toEqual(['NOT_SYSTEM_LINKED']);
    expect(out.segments[0]!.is_system_linked).toBe(false);
    expect(out.billing[0]!.billable_value).toBe('10'); // still billed: clarify, not drop
    const linked = billProperty(aPropertyInput({ units: [entry], points: [{ ...listed, is_system_linked: true }] }));
    expect(linked.billing[0]!.review_flags).toEqual([]);
  });

  it('no unit and no system link are independent: a plant point can be both', () => {
    const both = billPlantPoint({ property: PROPERTY, ...aPlantPoint({ point: { is_system_linked: false } }) });
    expect(both.row.review_flags).toEqual(['NOT_SYSTEM_LINKED', 'UNALLOCATED_POINT']);
    expect(both.row.is_system_linked).toBe(false);
    expect(both.row.billable_value).toBe('500');
    const unitPoint = billOne([aPointConsumption({ is_system_linked: false })]);
    expect(unitPoint.billing[0]!.review_flags).toEqual(['NOT_SYSTEM_LINKED']);
    expect(valueOf(unitPoint, 'heat')).toBe('10');
  });
});

describe('points without segments', () => {
  it.each([
    ['difference meter', { is_difference_meter: true, segments: [] }, 'DIFFERENCE_METER'],
    ['data gap', { data_gap: true, segments: [] }, 'DATA_GAP'],
  ])('a %s gets one segment row with empty device fields and bills 0', (_name, overrides, code) => {
    const bill = billOne([aPointConsumption(overrides)]);
    expect(bill.segments).toHaveLength(1);
    expect(bill.segments[0]).toMatchObject({ device_id: null, serial: null, status: null, billable_value: null, billed_value: '0', review_flags: [code] });
    expect(bill.billing[0]).toMatchObject({ billable_value: '0', points: 1, review_flags: [code] });
  });
});

describe('billProperty', () => {
  it('emits the readings of a shared point once, sorted by point and date', () => {
    const copies = sharedCopies(40, [0.5, 0.5]);
    copies.forEach((c) => (c.segments[0]!.readings = [aReading({ at: '2025-12-31', value: 140 }), aReading({ at: '2025-06-30', value: 120 })]));
    const out = billProperty(aPropertyInput({ units: [aUnitEntry('B', [copies[0]!]), aUnitEntry('A', [copies[1]!])] }));
    expect(out.readings.map((r) => [r.at, r.value])).toEqual([
      ['2025-06-30', '120'],
      ['2025-12-31', '140'],
    ]);
    expect(out.billing.map((r) => [r.usage_unit_name, r.billable_value])).toEqual([
      ['A', '20'],
      ['B', '20'],
    ]);
  });

  it('sorts billing rows by unit name, then id, then metric, and echoes the range', () => {
    const a2 = aUnitEntry('WE 02', [aPointConsumption({ metric: 'water_cold', unit: 'm3' }), aPointConsumption()]);
    const a1 = aUnitEntry('WE 01', [aPointConsumption()]);
    const out: PropertyBill = billProperty(aPropertyInput({ units: [a2, a1] }));
    expect(out.billing.map((r) => [r.usage_unit_name, r.metric, r.from, r.to, r.property_name])).toEqual([
      ['WE 01', 'heat', RANGE.from, RANGE.to, PROPERTY.name],
      ['WE 02', 'heat', RANGE.from, RANGE.to, PROPERTY.name],
      ['WE 02', 'water_cold', RANGE.from, RANGE.to, PROPERTY.name],
    ]);
  });

  it('bills an unknown metric in its own row as received, flagged', () => {
    const out = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption({ metric: 'steam' })])] }));
    expect(out.billing[0]).toMatchObject({ metric: 'steam', billable_value: '10', review_flags: ['UNKNOWN_ENUM_VALUE'] });
    expect(out.flags[0]!.facts).toEqual({ field: 'metric', value: 'steam' });
  });

  it('lists plant points by metric and id, with their segments after the units', () => {
    const p1 = aPlantPoint({ consumption: { metric: 'water_cold', measuring_point_id: uuid(900) } });
    const p2 = aPlantPoint({ consumption: { metric: 'heat', unit: 'kWh', measuring_point_id: uuid(901) } });
    const out = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption()])], plantPoints: [p1, p2] }));
    expect(out.plant.map((p) => p.metric)).toEqual(['heat', 'water_cold']);
    expect(out.segments.map((s) => s.usage_unit_id === null)).toEqual([false, true, true]);
    expect(out.readings).toHaveLength(3);
  });
});

describe('purity', () => {
  it('billing imports nothing from node:, fs, the network or process', () => {
    const dir = new URL('../../src/billing/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:|fs|http|https|net|undici|child_process)/);
      expect(text, file).not.toMatch(/\bprocess\./);
    }
  });
});
