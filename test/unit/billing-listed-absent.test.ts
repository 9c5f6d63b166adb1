// What the Property's lists show and the answers leave out: a meter listed for a unit that its
// answer lacks, a replacement's new device without its segment, a unit the unit list lacks. None
// may be billed as if the answer were whole. Over HTTP: faults/listed-absent.
import { describe, expect, it } from 'vitest';
import type { Device, MeasuringPoint } from '../../src/api/types.js';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { PROPERTY, RANGE, aPlantPoint, aPointConsumption, aPointSummary, aReading, aSegment, aUnitEntry, pointListOf } from '../helpers/builders.js';

const device = (over: Partial<Device> = {}): Device => ({
  id: 'd-new',
  serial: 'NEW-1',
  manufacturer: 'Qundis',
  device_type: 'water',
  installed_at: '2025-06-30',
  deinstalled_at: null,
  replacement_reason: null,
  resolution: null,
  factor: 1,
  ...over,
});

describe('a meter the Property lists for a unit that its answer leaves out', () => {
  const cold = aPointConsumption({ metric: 'water_cold', unit: 'm3' });
  const heat = aPointConsumption({ metric: 'heat', unit: 'kWh' });
  const whole = aUnitEntry('WE 01', [cold, heat]);
  const points = pointListOf({ property: PROPERTY, units: [whole] });
  const short = { ...whole, consumption: { ...whole.consumption, measuring_points: [heat] } };

  it('is not billed silently: the metric keeps its row (0, no points) with a not_billed finding naming the meter', () => {
    const bill = billProperty({ property: PROPERTY, range: RANGE, units: [short], plantPoints: [], points });
    expect(bill.billing.map((r) => [r.metric, r.billable_value, r.points, r.review_flags])).toEqual([
      ['heat', '10', 1, []],
      ['water_cold', '0', 0, ['LISTED_POINT_NOT_SENT']],
    ]);
    const flag = bill.flags.find((f) => f.code === 'LISTED_POINT_NOT_SENT')!;
    expect([flag.severity, flag.usage_unit_id, flag.measuring_point_id]).toEqual(['not_billed', whole.unit.id, cold.measuring_point_id]);
    expect(flagMessage(flag, 'de')).toMatch(
      /^Für diese Nutzeinheit verzeichnete Messstelle fehlt in ihren Verbrauchsdaten: nicht abgerechnet \(Verbrauchsart: Kaltwasser\)/,
    );
    // the whole answer raises nothing
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [whole], plantPoints: [], points }).flags).toEqual([]);
  });

  it("a meter whose metric neither list names has no row of its own: each of the unit's rows carries the finding", () => {
    const list = points.map((p) => (p.id === cold.measuring_point_id ? { id: p.id, property_id: p.property_id, usage_unit_id: p.usage_unit_id } : p));
    const bill = billProperty({ property: PROPERTY, range: RANGE, units: [short], plantPoints: [], points: list });
    expect(bill.billing.map((r) => [r.metric, r.billable_value, r.review_flags])).toEqual([['heat', '10', ['LISTED_POINT_NOT_SENT']]]);
    expect(bill.flags.map((f) => [f.code, f.measuring_point_id])).toEqual([['LISTED_POINT_NOT_SENT', cold.measuring_point_id]]);
  });

  it('a meter of a metric the run did not ask for (--metric) is rightly not in the answer', () => {
    const summary = aPointSummary({ measuring_point_id: cold.measuring_point_id, metric: 'water_cold', unit: 'm3' });
    const unit = { ...short, unit: { ...short.unit, measuring_points: [summary] } };
    const bill = billProperty({ property: PROPERTY, range: RANGE, units: [unit], plantPoints: [], points, metrics: ['heat'] });
    expect(bill.flags).toEqual([]);
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [unit], plantPoints: [], points, metrics: ['heat', 'water_cold'] }).flags).toHaveLength(1);
    // nor is one of a metric the contract does not list: billing could not bill it (the export names its list entry)
    const unknown = points.map((p) => (p.id === cold.measuring_point_id ? { ...p, metric: 'district_cooling' as never } : p));
    expect(billProperty({ property: PROPERTY, range: RANGE, units: [short], plantPoints: [], points: unknown }).flags).toEqual([]);
  });

  it("named only by the unit's own list of meters (the Property's list has no entry for it) it is not billed either", () => {
    const summary = aPointSummary({ measuring_point_id: cold.measuring_point_id, metric: 'water_cold', unit: 'm3' });
    const unit = { ...short, unit: { ...short.unit, measuring_points: [summary] } };
    const bill = billProperty({ property: PROPERTY, range: RANGE, units: [unit], plantPoints: [], points: points.filter((p) => p.metric === 'heat') });
    expect(bill.billing.map((r) => [r.metric, r.billable_value, r.review_flags])).toEqual([
      ['heat', '10', []],
      ['water_cold', '0', ['LISTED_POINT_NOT_SENT']],
    ]);
  });

  it('a shared meter one unit leaves out is not billed there; the other unit is billed and gives the readings', () => {
    const shared = aPointConsumption({
      metric: 'heat',
      unit: 'kWh',
      unit_share: 0.5,
      segments: [aSegment({ period_consumption: { billable_value: 20, weighted_billable_value: 10 } })],
    });
    const we01 = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3' })]);
    const we02 = aUnitEntry('WE 02', [shared]);
    const list: MeasuringPoint[] = [
      ...pointListOf({ property: PROPERTY, units: [we01] }),
      {
        id: shared.measuring_point_id,
        property_id: PROPERTY.id,
        usage_unit_id: we01.unit.id,
        metric: 'heat',
        unit: 'kWh',
        allocations: [we01, we02].map((u) => ({ usage_unit_id: u.unit.id, share: 0.5 })),
      },
    ];
    const bill = billProperty({ property: PROPERTY, range: RANGE, units: [we01, we02], plantPoints: [], points: list });
    expect(bill.billing.map((r) => [r.usage_unit_name, r.metric, r.billable_value, r.review_flags.filter((c) => c === 'LISTED_POINT_NOT_SENT')])).toEqual([
      ['WE 01', 'water_cold', '10', []],
      ['WE 01', 'heat', '0', ['LISTED_POINT_NOT_SENT']],
      ['WE 02', 'heat', '10', []],
    ]);
    expect(bill.readings.filter((r) => r.measuring_point_id === shared.measuring_point_id)).toHaveLength(1);
  });
});

describe("a replacement's new device the answer leaves out while the Property's list shows it installed", () => {
  const old = aSegment({
    installed_at: '2019-01-01',
    deinstalled_at: '2025-06-30',
    replacement_reason: 'DeviceReplacement',
    readings: [aReading({ at: '2025-06-30', value: 150 })],
    period_consumption: { billable_value: 50, weighted_billable_value: 50 },
  });
  const entry = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [old] })]);
  const listWith = (d: Device | null) => pointListOf({ property: PROPERTY, units: [entry] }).map((p) => ({ ...p, active_device: d }));
  const bill = (d: Device | null) => billProperty({ property: PROPERTY, range: RANGE, units: [entry], plantPoints: [], points: listWith(d) });

  it('is not billed, naming the device, and says neither "added up" nor "no new device follows"', () => {
    const b = bill(device());
    expect(b.billing.map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['LISTED_DEVICE_NOT_SENT']]]);
    expect(b.flags.map((f) => [f.code, f.facts])).toEqual([['LISTED_DEVICE_NOT_SENT', { serial: 'NEW-1', installed_at: '2025-06-30' }]]);
    expect(flagMessage(b.flags[0]!, 'en')).toMatch(
      /^Device the list of measuring points shows installed missing from the consumption: not billed \(device: NEW-1, installed on: 2025-06-30\)/,
    );
  });

  it('without replacement_reason it does not say "removed without replacement" either', () => {
    const plain = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [{ ...old, replacement_reason: null }] })]);
    const points = pointListOf({ property: PROPERTY, units: [plain] }).map((p) => ({ ...p, active_device: device() }));
    const b = billProperty({ property: PROPERTY, range: RANGE, units: [plain], plantPoints: [], points });
    expect(b.flags.map((f) => f.code)).toEqual(['LISTED_DEVICE_NOT_SENT']);
  });

  it("an undocumented installation day counts as within the period, unless the answer dates another device's removal after it", () => {
    expect(bill(device({ installed_at: null })).flags.map((f) => f.code)).toEqual(['LISTED_DEVICE_NOT_SENT']);
    const until = (deinstalled_at: string | null) => {
      const other = aSegment({ deinstalled_at, replacement_reason: deinstalled_at ? 'DeviceReplacement' : null });
      const current = aUnitEntry('WE 01', [aPointConsumption({ metric: 'water_cold', unit: 'm3', segments: [other] })]);
      const points = pointListOf({ property: PROPERTY, units: [current] }).map((p) => ({ ...p, active_device: device({ installed_at: null }) }));
      return billProperty({ property: PROPERTY, range: RANGE, units: [current], plantPoints: [], points }).billing.map((r) => [
        r.billable_value,
        r.review_flags,
      ]);
    };
    // replaced after the period: the listed device came after the one billed
    expect(until('2026-02-01')).toEqual([['10', []]]);
    // the answer's only device still installed while the list shows another one installed now: nothing says
    // when that one replaced it (before, 4,041.489 m³ of a device not the list's were billed without a finding)
    expect(until(null)).toEqual([['0', ['LISTED_DEVICE_NOT_SENT']]]);
  });

  it('a device installed after the period, a removal the list confirms (active_device null), and the device sent are billed as before', () => {
    expect(bill(device({ installed_at: '2026-01-15' })).flags.map((f) => f.code)).toEqual(['DEVICE_REPLACED']);
    expect(bill(null).flags.map((f) => f.code)).toEqual(['DEVICE_REPLACED']);
    expect(bill(null).billing.map((r) => r.billable_value)).toEqual(['50']);
    // the old device is the listed one (by id, in capitals the same; a serial only where the list has no id), listed as
    // the answer sends it (a list showing it not removed contradicts the answer: DEVICE_NOT_AS_LISTED, billing-listed-facts)
    const same = { installed_at: old.installed_at, deinstalled_at: old.deinstalled_at };
    expect(bill(device({ ...same, id: old.device_id.toUpperCase(), serial: 'other' })).billing.map((r) => r.billable_value)).toEqual(['50']);
    expect(bill(device({ ...same, id: undefined as unknown as string, serial: old.serial })).billing.map((r) => r.billable_value)).toEqual(['50']);
    // another id with the old device's serial is another device (serials may repeat; the id is the identity): not sent
    expect(bill(device({ ...same, id: 'x', serial: old.serial })).billing.map((r) => [r.billable_value, r.review_flags])).toEqual([
      ['0', ['LISTED_DEVICE_NOT_SENT']],
    ]);
  });
});

describe('a plant-room meter whose new device the readings answer leaves out', () => {
  it('is not billed in plant-points.csv, naming the device; with the device sent it is', () => {
    const plant = aPlantPoint();
    const listed = (d: Device) => ({ ...plant, point: { ...plant.point, active_device: d } });
    const billed = (d: Device) => billProperty({ property: PROPERTY, range: RANGE, units: [], plantPoints: [listed(d)], points: [listed(d).point] }).plant;
    expect(billed(device()).map((r) => [r.billable_value, r.review_flags])).toEqual([['0', ['LISTED_DEVICE_NOT_SENT', 'UNALLOCATED_POINT']]]);
    const sent = plant.consumption.segments[0]!;
    expect(billed(device({ id: sent.device_id, serial: sent.serial, installed_at: sent.installed_at })).map((r) => r.review_flags)).toEqual([
      ['UNALLOCATED_POINT'],
    ]);
  });
});

describe("a unit the Property's unit list leaves out", () => {
  const we01 = aUnitEntry('WE 01', [aPointConsumption()]);
  const we02 = aUnitEntry('WE 02', [aPointConsumption()]);
  const points = pointListOf({ property: PROPERTY, units: [we01, we02] });

  it('is named at the Property when the point list gives it meters; the other units are billed', () => {
    const b = billProperty({ property: PROPERTY, range: RANGE, units: [we01], plantPoints: [], points });
    expect(b.billing.map((r) => [r.usage_unit_name, r.billable_value])).toEqual([['WE 01', '10']]);
    expect(b.flags.map((f) => [f.code, f.severity, f.usage_unit_id, f.facts])).toEqual([
      ['UNIT_NOT_IN_LIST', 'not_billed', null, { unit_id: we02.unit.id, points: '1' }],
    ]);
    expect(flagMessage(b.flags[0]!, 'de')).toContain(`Kennung der Nutzeinheit: ${we02.unit.id}`);
  });

  it('is named when usage_unit_count says more units than listed (not where it says as many, or null)', () => {
    const only = (count: number | null) =>
      billProperty({ property: { ...PROPERTY, usage_unit_count: count }, range: RANGE, units: [we01], plantPoints: [], points: points.slice(0, 1) }).flags;
    expect(only(2).map((f) => [f.code, f.facts])).toEqual([['UNITS_FEWER_THAN_COUNT', { units_listed: '1', unit_count: '2' }]]);
    expect(only(1)).toEqual([]);
    expect(only(null)).toEqual([]);
  });
});
