// A point with no device yet (a flat new this year) or any more measured nothing and adds 0
// to the Property's sums (allocator units, warm-water volume, the units' heat meters); a month
// between a removal and the next installation, or a point without coverage, stays unknown and
// leaves the sums missing. Every expected figure is worked out here by plain arithmetic.
import { describe, expect, it } from 'vitest';
import type { DeviceSegment, MeasuringPointConsumption } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { pointMonths } from '../../src/uvi/point-months.js';
import { propertyUvi, type PlantPoints } from '../../src/uvi/property.js';
import type { Service } from '../../src/uvi/types.js';
import { PROPERTY, aSegment, aUnitEntry } from '../helpers/builders.js';
import { MONTHS, type R, cumulative, n, point, readings, series } from '../helpers/uvi-fixtures.js';

/** Readings counted up from `start`; a null month has no reading at its end (the device was not there). */
const counted = (start: number, monthly: (number | null)[]): R[] =>
  cumulative(
    start,
    monthly.map((m) => m ?? 0),
  ).map((v, i) => (monthly[i] === null ? null : v));
const metered = (metric: string, monthly: number[]) => point(metric, [series(1000, counted(1000, monthly))]);
/** A device installed on `day` with start value 0, counting `monthly` (null: before it). */
function fromDay(day: string, monthly: (number | null)[]): DeviceSegment {
  return aSegment({ installed_at: day, baseline_value: 0, baseline_date: day, baseline_origin: 'recorded', readings: readings(counted(0, monthly)) });
}
function plantHeat(monthly: number[]): MeasuringPointConsumption {
  const { unit_share: _omit, ...rest } = metered('heat', monthly);
  return rest;
}
const run = (units: ReturnType<typeof aUnitEntry>[], plant: PlantPoints, removed: ReadonlySet<string> = new Set()) =>
  propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units, plant, benchmark: DEFAULT_BENCHMARK, removed });
const months = (r: ReturnType<typeof run>, i: number, s: Service) => r.units[i]!.services.find((x) => x.service === s)!.months;
const noPlant: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [] };

const hcaA = [40, 35, 50, 45, 30, 20, 5, 2, 2, 2, 10, 25, 30];
const hcaB = [60, 65, 50, 55, 50, 30, 5, 1, 1, 2, 15, 35, 50];
const plant = [3000, 3500, 4000, 3600, 2800, 1800, 700, 600, 600, 800, 1500, 2600, 3200];
const NEW = [null, null, null, null];

describe('a flat new from 1 March 2025 in a Property with allocators behind a plant heat meter', () => {
  // WE 03: allocator and warm-water meter installed 2025-03-01, start value 0; nothing before.
  const hcaC = [...NEW, 20, 10, 3, 1, 1, 1, 8, 20, 25];
  const wwC = [...NEW, 1, 1, 1, 1, 1, 1, 1, 1, 1];
  const units = () => [
    aUnitEntry('WE 01', [metered('hca', hcaA), metered('water_warm', Array(13).fill(2))]),
    aUnitEntry('WE 02', [metered('hca', hcaB), metered('water_warm', Array(13).fill(1))]),
    aUnitEntry('WE 03', [point('hca', [fromDay('2025-03-01', hcaC)]), point('water_warm', [fromDay('2025-03-01', wwC)])]),
  ];

  it("counts 0 for the new flat before March: the others' kWh, the warm-water and heating heat are there in every month", () => {
    const r = run(units(), { ...noPlant, heat: [plantHeat(plant)] });
    const volume = MONTHS.map((_, i) => 2 + 1 + (wwC[i] ?? 0));
    const heating = MONTHS.map((_, i) => plant[i]! - 2.5 * volume[i]! * (60 - 10));
    const units3 = MONTHS.map((_, i) => hcaA[i]! + hcaB[i]! + (hcaC[i] ?? 0));
    expect(r.warmWaterHeat!.map((m) => n(m.value))).toEqual(volume.map((v) => 125 * v));
    expect(r.heatingHeat!.map((m) => n(m.value))).toEqual(heating);
    months(r, 0, 'HEATING').forEach((m, i) => expect(n(m.kwh)).toBeCloseTo((heating[i]! * hcaA[i]!) / units3[i]!, 9));
    months(r, 1, 'HEATING').forEach((m, i) => expect(n(m.kwh)).toBeCloseTo((heating[i]! * hcaB[i]!) / units3[i]!, 9));
    // November 2024 by hand: 3000 − 2.5 × 3 m³ × 50 K = 2625 kWh, WE 01's 40 of 100 units.
    expect(n(months(r, 0, 'HEATING')[0]!.kwh)).toBeCloseTo(1050, 9);
    // The new flat itself has no value before March (its letter shows –, not 0), and its own from March.
    const c = months(r, 2, 'HEATING');
    expect(c.slice(0, 4).map((m) => [m.kwh, m.native, m.reasons])).toEqual(Array(4).fill([null, null, ['no_device']]));
    expect(n(c[4]!.kwh)).toBeCloseTo((heating[4]! * 20) / units3[4]!, 9);
  });

  it('the heat meter of a new flat subtracts 0 before it was installed, its kWh after', () => {
    const heatD = [...NEW, 300, 200, 50, 10, 10, 20, 100, 250, 300];
    const r = run(
      [
        aUnitEntry('WE 01', [metered('hca', hcaA)]),
        aUnitEntry('WE 02', [metered('hca', hcaB)]),
        aUnitEntry('WE 04', [point('heat', [fromDay('2025-03-01', heatD)])]),
      ],
      { ...noPlant, heat: [plantHeat(plant)] },
    );
    expect(r.heatingHeat!.map((m) => n(m.value))).toEqual(plant.map((p, i) => p - (heatD[i] ?? 0)));
    expect(n(months(r, 0, 'HEATING')[0]!.kwh)).toBeCloseTo((3000 * 40) / 100, 9);
  });

  it('a second allocator in a flat, new in March, adds 0 to the flat before it; the flat counts its first one', () => {
    const r = run([aUnitEntry('WE 01', [metered('hca', hcaA), point('hca', [fromDay('2025-03-01', [...NEW, 5, 5, 5, 5, 5, 5, 5, 5, 5])])])], noPlant);
    expect(months(r, 0, 'HEATING').map((m) => n(m.native))).toEqual(hcaA.map((a, i) => a + (i < 4 ? 0 : 5)));
  });
});

describe('a meter removed without a successor', () => {
  // WE 02's allocator removed on 30 September 2025 (its value that day also its September reading).
  const rs = counted(1000, hcaB.slice(0, 11));
  const removed = series(1000, [...rs, null, null], {
    deinstalled_at: '2025-09-30',
    period_consumption: { end_value: rs[10] as number, billable_value: 0, weighted_billable_value: undefined, status: 'measured' },
  });
  const gone = point('hca', [removed]);
  const units = () => [aUnitEntry('WE 01', [metered('hca', hcaA)]), aUnitEntry('WE 02', [gone])];

  it('from the month after its removal adds 0 where the list confirms it: the other flat takes the heating heat', () => {
    const r = run(units(), { ...noPlant, heat: [plantHeat(plant)] }, new Set([gone.measuring_point_id]));
    const a = months(r, 0, 'HEATING');
    expect(n(a[10]!.kwh)).toBeCloseTo((1500 * 10) / 25, 9);
    expect([n(a[11]!.kwh), n(a[12]!.kwh)]).toEqual([2600, 3200]);
    expect(
      months(r, 1, 'HEATING')
        .slice(11)
        .map((m) => m.reasons),
    ).toEqual([['no_device'], ['no_device']]);
  });

  it('a removal the list does not confirm (a device still shown there) leaves the months after it unknown', () => {
    const r = run(units(), { ...noPlant, heat: [plantHeat(plant)] });
    expect(
      months(r, 1, 'HEATING')
        .slice(10)
        .map((m) => m.reasons),
    ).toEqual([[], ['removal_unconfirmed'], ['removal_unconfirmed']]);
    expect(
      months(r, 0, 'HEATING')
        .slice(11)
        .map((m) => m.reasons),
    ).toEqual([['allocator_sum_incomplete'], ['allocator_sum_incomplete']]);
  });
});

describe('what stays unknown', () => {
  it('months between a removal and the next installation: the gap, and every allocator flat of the Property without kWh', () => {
    // WE 02's allocator removed on 15 January 2025, the next one installed on 10 March: 16 January to 9 March had no device, yet heat flowed.
    const rs = counted(1000, hcaB.slice(0, 2));
    const old = series(1000, [...rs, ...Array(11).fill(null)], {
      deinstalled_at: '2025-01-15',
      period_consumption: { end_value: 1150, billable_value: 0, weighted_billable_value: undefined, status: 'measured' },
    });
    const next = fromDay('2025-03-10', [...NEW, 30, 30, 5, 1, 1, 2, 15, 35, 50]);
    const gap = point('hca', [old, next]);
    expect(pointMonths(gap, MONTHS, 1).months.map((m) => m.reasons.join())).toEqual(['', '', 'device_gap', 'device_gap', 'device_gap', ...Array(8).fill('')]);
    const r = run([aUnitEntry('WE 01', [metered('hca', hcaA)]), aUnitEntry('WE 02', [gap])], { ...noPlant, heat: [plantHeat(plant)] });
    const a = months(r, 0, 'HEATING');
    expect(a.slice(2, 5).map((m) => [m.kwh, m.reasons])).toEqual(Array(3).fill([null, ['allocator_sum_incomplete']]));
    // December before the gap; April after it: WE 02's new allocator 60 − 30 = 30 units beside WE 01's 20.
    expect(n(a[1]!.kwh)).toBeCloseTo((3500 * 35) / 100, 9);
    expect(n(a[5]!.kwh)).toBeCloseTo((1800 * 20) / 50, 9);
  });

  it('days between a removal and the next installation inside a month, or across a month end: those months are gaps too', () => {
    // Removed on 15 January after 25 units since December's 1125; the next allocator from 25 January (start 0): 10 days unmeasured.
    const old = (removed: string) =>
      series(1000, [1060, 1125, ...Array(11).fill(null)], {
        deinstalled_at: removed,
        period_consumption: { end_value: 1150, billable_value: 0, weighted_billable_value: undefined, status: 'measured' },
      });
    const reasons = (segs: DeviceSegment[]) => pointMonths(point('hca', segs), MONTHS, 1).months.map((m) => (m.value === null ? m.reasons.join() : n(m.value)));
    expect(reasons([old('2025-01-15'), fromDay('2025-01-25', [null, null, 8, 40])]).slice(2, 4)).toEqual(['device_gap', 40]);
    // Removed 20 January, installed 5 February: the end of January and the start of February were not measured.
    expect(reasons([old('2025-01-20'), fromDay('2025-02-05', [null, null, null, 30, 60])]).slice(2, 5)).toEqual(['device_gap', 'device_gap', 60]);
    // The same day or the next: no day between, the month counts both devices (25 + 8).
    expect(reasons([old('2025-01-15'), fromDay('2025-01-15', [null, null, 8, 40])])[2]).toBe(33);
    expect(reasons([old('2025-01-15'), fromDay('2025-01-16', [null, null, 8, 40])])[2]).toBe(33);
  });

  it('a point without coverage in the range (data_gap, no segments) is no answer, not a flat without devices', () => {
    const none = point('hca', [], 1, { data_gap: true });
    expect(new Set(pointMonths(none, MONTHS, 1).months.map((m) => m.reasons.join()))).toEqual(new Set(['no_reading']));
    const r = run([aUnitEntry('WE 01', [metered('hca', hcaA)]), aUnitEntry('WE 02', [none])], { ...noPlant, heat: [plantHeat(plant)] });
    expect(new Set(months(r, 0, 'HEATING').map((m) => `${m.kwh}:${m.reasons.join()}`))).toEqual(new Set(['null:allocator_sum_incomplete']));
  });

  it('a device dated as removed before it was installed is no device "not installed": its point and the sums are unknown', () => {
    const inverted = point(
      'hca',
      [fromDay('2025-06-01', [...NEW, null, null, 5, 5, 5, 5, 5, 5, 5])].map((seg) => ({ ...seg, deinstalled_at: '2025-03-01' })),
    );
    expect(new Set(pointMonths(inverted, MONTHS, 1).months.map((m) => m.reasons.join()))).toEqual(new Set(['implausible_value']));
    const r = run([aUnitEntry('WE 01', [metered('hca', hcaA)]), aUnitEntry('WE 02', [inverted])], { ...noPlant, heat: [plantHeat(plant)] });
    expect(new Set(months(r, 0, 'HEATING').map((m) => m.reasons.join()))).toEqual(new Set(['allocator_sum_incomplete']));
  });

  it('a plant heat meter not yet installed leaves the heating heat unknown (the heat went through unmeasured)', () => {
    const late = point('heat', [fromDay('2025-03-01', [...NEW, ...plant.slice(4)])]);
    const { unit_share: _omit, ...plantLate } = late;
    const r = run([aUnitEntry('WE 01', [metered('hca', hcaA)]), aUnitEntry('WE 02', [metered('hca', hcaB)])], { ...noPlant, heat: [plantLate] });
    expect(r.heatingHeat!.slice(0, 5).map((m) => (m.value === null ? m.reasons.join() : n(m.value)))).toEqual([...Array(4).fill('plant_heat_missing'), 2800]);
  });
});
