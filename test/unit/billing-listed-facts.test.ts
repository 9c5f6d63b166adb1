// What an answer says of a listed meter that the Property's list says otherwise: the listed active
// device's installation day, removal day or K-factor, and whether the point is a difference meter.
// Each changes the figure (a removal on 30 Dec freed the end value: 4041.489 m³ billed instead of
// 44.393; a factor of 2.55 for the list's 0.85) and was billed with at most an info. Over HTTP:
// faults/listed-facts.
import { describe, expect, it } from 'vitest';
import type { Device, DeviceSegment, MeasuringPoint } from '../../src/api/types.js';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { PROPERTY, RANGE, aPlantPoint, aPointConsumption, aReading, aSegment, aUnitEntry, pointListOf } from '../helpers/builders.js';

const listed = (seg: DeviceSegment, over: Partial<Device> = {}): Device => ({
  id: seg.device_id,
  serial: seg.serial,
  manufacturer: seg.manufacturer,
  installed_at: seg.installed_at,
  deinstalled_at: null,
  replacement_reason: null,
  resolution: null,
  factor: seg.factor,
  ...over,
});

/** WE 01's cold water with one segment, listed with the given device (built from the honest segment) and difference flag. */
function bill(sent: Partial<DeviceSegment>, device: Partial<Device> = {}, point: Partial<MeasuringPoint> = {}) {
  const honest = aSegment({ period_consumption: { billable_value: 44.393, weighted_billable_value: 44.393 } });
  const seg = { ...honest, ...sent };
  const e = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [seg] })]);
  const points = pointListOf({ property: PROPERTY, units: [e] }).map((p) => ({
    ...p,
    active_device: listed(honest, device),
    is_difference_meter: false,
    ...point,
  }));
  return billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points });
}
/** WE 01's cold water with the given segments, the list showing `device` as the point's active device. */
function billSegments(segments: DeviceSegment[], device: Device) {
  const e = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments })]);
  const points = pointListOf({ property: PROPERTY, units: [e] }).map((p) => ({ ...p, active_device: device, is_difference_meter: false }));
  return billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points });
}
const rows = (b: ReturnType<typeof bill>) => b.billing.map((r) => [r.billable_value, r.review_flags]);
const found = (b: ReturnType<typeof bill>, code: string) => b.flags.filter((f) => f.code === code).map((f) => [f.severity, f.facts]);

describe("the listed active device's facts in the answer", () => {
  it('an honest answer raises nothing (the same id in capitals is the same device; without an id in the list, the same serial)', () => {
    expect(rows(bill({}))).toEqual([['44.393', []]]);
    const id = '0b7c2f4e-aaaa-4bbb-8ccc-0000000000d1';
    expect(rows(bill({ device_id: id }, { id: id.toUpperCase() }))).toEqual([['44.393', []]]);
    expect(rows(bill({}, { id: undefined as unknown as string }))).toEqual([['44.393', []]]);
    expect(rows(bill({}, { installed_at: null }))).toEqual([['44.393', []]]);
    expect(rows(bill({ installed_at: null }))).toEqual([['44.393', []]]);
  });

  it("another device id with the listed serial is another device: the listed one is not sent, whatever the other's facts", () => {
    // the id is the device's identity; before, the serial alone made it the listed device and its facts were compared
    const renamed = bill({ factor: 2.55 }, { id: '0b7c2f4e-0000-4000-8000-000000000001', factor: 0.85 });
    expect(rows(renamed)).toEqual([['0', ['LISTED_DEVICE_NOT_SENT']]]);
    expect(found(renamed, 'DEVICE_NOT_AS_LISTED')).toEqual([]);
  });

  it('a removal the list contradicts (active, deinstalled_at null) is not billed: its end value is free of any reading', () => {
    const removed = { deinstalled_at: '2025-12-30', replacement_reason: 'DeviceRemoval' as const, readings: [aReading({ at: '2025-11-30', value: 142 })] };
    const b = bill({ ...removed, period_consumption: { end_value: 4142, billable_value: 4042, weighted_billable_value: 4042, status: 'measured' } });
    expect(rows(b)).toEqual([['0', ['DEVICE_NOT_AS_LISTED', 'DEVICE_REMOVED']]]);
    expect(found(b, 'DEVICE_NOT_AS_LISTED')).toEqual([
      ['not_billed', expect.objectContaining({ field: 'deinstalled_at', received: '2025-12-30', listed: '' })],
    ]);
    const flag = b.flags.find((f) => f.code === 'DEVICE_NOT_AS_LISTED')!;
    expect(flagMessage(flag, 'de')).toMatch(
      /^Einbaudatum, Ausbaudatum oder Faktor des Geräts weicht vom Messstellenverzeichnis ab: nicht abgerechnet \(.*Feld: Ausbaudatum/,
    );
    expect(flagMessage(flag, 'de')).not.toContain('deinstalled_at');
    // a removal day in both that differs contradicts too; the same day does not
    expect(rows(bill({ deinstalled_at: '2025-12-30' }, { deinstalled_at: '2025-12-15' }))[0]![1]).toContain('DEVICE_NOT_AS_LISTED');
    expect(rows(bill({ deinstalled_at: '2025-12-30' }, { deinstalled_at: '2025-12-30' }))[0]![1]).not.toContain('DEVICE_NOT_AS_LISTED');
  });

  it('an installation day moved into the year is not billed; one left undocumented (null) on either side is no claim', () => {
    const b = bill({
      installed_at: '2025-06-01',
      baseline_value: 0,
      baseline_date: '2025-06-01',
      readings: [aReading({ at: '2025-12-31', value: 488.682 })],
      period_consumption: { end_value: 488.682, billable_value: 488.682, weighted_billable_value: 488.682, status: 'measured' },
    });
    expect(rows(b)[0]![0]).toBe('0');
    expect(found(b, 'DEVICE_NOT_AS_LISTED')).toEqual([
      ['not_billed', expect.objectContaining({ field: 'installed_at', received: '2025-06-01', listed: '2020-03-15' })],
    ]);
  });

  it("a K-factor not the list's is not billed; the same factor written otherwise (0.85 and 0.850) is the same", () => {
    const b = bill({ factor: 2.55 }, { factor: 0.85 });
    expect(rows(b)).toEqual([['0', ['DEVICE_NOT_AS_LISTED']]]);
    expect(found(b, 'DEVICE_NOT_AS_LISTED')).toEqual([['not_billed', expect.objectContaining({ field: 'factor', received: '2.55', listed: '0.85' })]]);
    expect(found(bill({ factor: 0.85 }, { factor: 0.85 }), 'DEVICE_NOT_AS_LISTED')).toEqual([]);
  });
});

describe('a meter sent as a difference meter (or as a metered one) contrary to the list', () => {
  it("a unit's metered meter sent as a difference meter is not billed (it would count as 0 with only an info)", () => {
    const b = bill({}, {}, {});
    expect(rows(b)[0]![0]).toBe('44.393');
    const honest = aSegment();
    const c = aPointConsumption({ metric: 'water_cold', unit: 'm3', is_difference_meter: true, segments: [] });
    const e = aUnitEntry('WE 01', [c]);
    const points = pointListOf({ property: PROPERTY, units: [e] }).map((p) => ({ ...p, active_device: listed(honest), is_difference_meter: false }));
    const d = billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points });
    expect(d.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['DIFFERENCE_METER', 'DIFFERENCE_NOT_AS_LISTED']]]);
    const flag = d.flags.find((f) => f.code === 'DIFFERENCE_NOT_AS_LISTED')!;
    expect([flag.severity, flag.facts]).toEqual(['not_billed', { received: 'difference_meter', listed: 'metered' }]);
    expect(flagMessage(flag, 'de')).toContain('geliefert: als Differenzzähler');
    // the list saying nothing is no contradiction
    const silent = points.map(({ is_difference_meter: _, ...p }) => p);
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points: silent }).flags.map((f) => f.code)).toEqual([
      'DIFFERENCE_METER',
    ]);
  });

  it('a plant point listed as a difference meter but sent metered is not billed', () => {
    const plant = aPlantPoint({ point: { is_difference_meter: true } });
    const b = billProperty({ property: PROPERTY, range: RANGE, units: [], plantPoints: [plant], points: [plant.point] });
    expect(b.plant.map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['DIFFERENCE_NOT_AS_LISTED', 'UNALLOCATED_POINT']]]);
    const honest = aPlantPoint();
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [], plantPoints: [honest], points: [honest.point] }).plant[0]!.billable_value).toBe('500');
  });
});

describe('a device removed for good within the year, the next one fitted after it with no installation day', () => {
  it("bills the old device's honest value (no LISTED_DEVICE_NOT_SENT): the point stood empty until the year's end", () => {
    const old = aSegment({
      installed_at: '2019-01-01',
      deinstalled_at: '2025-06-15',
      replacement_reason: 'DeviceRemoval',
      readings: [aReading({ at: '2025-05-31', value: 140 })],
      period_consumption: { end_value: 150, billable_value: 50, weighted_billable_value: 50 },
    });
    const e = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [old] })]);
    const next: Device = {
      id: 'd-next',
      serial: 'NEW-1',
      manufacturer: 'Q',
      installed_at: null,
      deinstalled_at: null,
      replacement_reason: null,
      resolution: null,
      factor: 1,
    };
    const points = pointListOf({ property: PROPERTY, units: [e] }).map((p) => ({ ...p, active_device: next }));
    const b = billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points });
    expect(b.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['50', ['DEVICE_REMOVED']]]);
    // removed for a replacement, the undocumented new device is still taken as fitted within the year
    const replaced = {
      ...e,
      consumption: {
        ...e.consumption,
        measuring_points: [{ ...e.consumption.measuring_points[0]!, segments: [{ ...old, replacement_reason: 'DeviceReplacement' as const }] }],
      },
    };
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [replaced], plantPoints: [], points }).billing[0]!.review_flags).toContain(
      'LISTED_DEVICE_NOT_SENT',
    );
  });
});

describe('a replacement, or a device fitted again, beside the list of the device installed now', () => {
  // removed on 30 June for a replacement (30 m³ from 100 to 130), the next device read 25 m³ by 31 Dec
  const old = aSegment({
    installed_at: '2019-01-01',
    deinstalled_at: '2025-06-30',
    replacement_reason: 'DeviceReplacement',
    readings: [aReading({ at: '2025-06-30', value: 130 })],
    period_consumption: { end_value: 130, billable_value: 30, weighted_billable_value: 30, status: 'measured' },
  });
  const next = aSegment({
    installed_at: '2025-06-30',
    baseline_value: 0,
    baseline_date: '2025-06-30',
    readings: [aReading({ at: '2025-12-31', value: 25 })],
    period_consumption: { end_value: 25, billable_value: 25, weighted_billable_value: 25, status: 'measured' },
  });

  it("bills an honest replacement whose old device (another id) carries the new device's serial", () => {
    const b = billSegments(
      [
        { ...old, serial: 'W-77' },
        { ...next, serial: 'W-77' },
      ],
      listed({ ...next, serial: 'W-77' }),
    );
    expect(b.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['55', ['DEVICE_REPLACED']]]);
  });

  it('bills a device removed in the year and fitted again after it (the list shows its current window)', () => {
    const stand = { ...next, deinstalled_at: '2026-02-01', replacement_reason: 'DeviceReplacement' as const };
    const b = billSegments([old, stand], listed(old, { installed_at: '2026-02-01' }));
    expect(b.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['55', ['DEVICE_REPLACED']]]);
    // fitted again within the year, its current window must be sent: an earlier window alone is short of it
    const short = billSegments([old, stand], listed(old, { installed_at: '2025-09-01' }));
    expect(short.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['LISTED_DEVICE_NOT_SENT']]]);
    // a window reaching past the list's installation day is the current one, compared as before
    const moved = billSegments([{ ...old, deinstalled_at: '2025-12-30' }], listed(old, { installed_at: '2025-06-01' }));
    expect(moved.flags.filter((f) => f.code === 'DEVICE_NOT_AS_LISTED').map((f) => f.facts?.field)).toEqual(['installed_at', 'deinstalled_at']);
  });
});

describe('a segment without its K-factor', () => {
  it('is not billed with one finding naming the factor as not sent (never "undefined" or "-∞")', () => {
    const seg = aSegment({ period_consumption: { billable_value: 10, weighted_billable_value: 10 } });
    const { factor: _, ...rest } = seg;
    const b = billSegments([rest as DeviceSegment], listed(seg));
    expect(b.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['IMPLAUSIBLE_VALUE']]]);
    expect(b.flags.map((f) => [f.code, f.facts?.field, f.facts?.received])).toEqual([['IMPLAUSIBLE_VALUE', 'factor', 'not_sent']]);
    expect(flagMessage(b.flags[0]!, 'de')).toMatch(/Feld: K-Faktor.*geliefert: nicht geliefert/);
    expect(flagMessage(b.flags[0]!, 'en')).toMatch(/field: K-factor.*received: not sent/);
  });
});
