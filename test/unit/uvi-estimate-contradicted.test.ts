// An estimated month-end reading (calculated, substituted or synthetic) that the device's own read
// counts rule out: above the next one or the end value, below the previous one or the start value.
// The months resting on it have no figure, on the unit's letter and through the Property's sums.
import { describe, expect, it } from 'vitest';
import type { DeviceSegment } from '../../src/api/types.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { pointMonths } from '../../src/uvi/point-months.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { PROPERTY, aPlantPoint, aReading, aUnitEntry } from '../helpers/builders.js';
import { MONTHS, type R, cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

// 100 a month from 1,000: 31 May 2025 (index 6) reads 1,700, 30 June 1,800, 31 July 1,900.
const BASE = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000, 2100, 2200, 2300];
const JUNE = 7;
const withJune = (june: R, values: readonly R[] = BASE): R[] => values.map((v, i) => (i === JUNE ? june : v));
const months = (seg: DeviceSegment, metric = 'heat') => pointMonths(point(metric, [seg]), MONTHS, 1).months;
const values = (seg: DeviceSegment, metric?: string) => months(seg, metric).map((m) => n(m.value));
const reasons = (seg: DeviceSegment, metric?: string) => months(seg, metric).map((m) => m.reasons.join(','));
const hundreds = (missing: number[]) => MONTHS.map((_, i) => (missing.includes(i) ? null : 100));
const contradictedAt = (missing: number[]) => MONTHS.map((_, i) => (missing.includes(i) ? 'estimate_contradicted' : ''));

describe('an estimate the next or previous read count rules out', () => {
  it('a calculated 9,000 between a measured 1,700 and 1,900: June and July have no figure, not 7,300 kWh*', () => {
    const seg = series(1000, withJune([9000, 'calculated']));
    expect(values(seg)).toEqual(hundreds([7, 8]));
    expect(reasons(seg)).toEqual(contradictedAt([7, 8]));
  });

  it('a calculated 100 below the measured 1,700 before it: June and July have no figure, not July 1,800 kWh*', () => {
    const seg = series(1000, withJune([100, 'calculated']));
    expect(values(seg)).toEqual(hundreds([7, 8]));
    expect(reasons(seg)).toEqual(contradictedAt([7, 8]));
  });

  it('a substituted 9,000 without is_synthetic is an estimate too', () => {
    const seg = series(1000, withJune([9000, 'substituted']));
    expect(seg.readings[JUNE]!.is_synthetic).toBe(false);
    expect(values(seg)).toEqual(hundreds([7, 8]));
    expect(reasons(seg)).toEqual(contradictedAt([7, 8]));
  });

  it('a measured reading marked is_synthetic is an estimate too', () => {
    const seg = series(1000, BASE);
    seg.readings[JUNE] = { ...seg.readings[JUNE]!, value: 9000, is_synthetic: true };
    expect(reasons(seg)).toEqual(contradictedAt([7, 8]));
  });

  it('a degree-day estimate 5 above the next measured count (1,850 before 1,845) is ruled out too: no 150 kWh* for June', () => {
    const overshoot = withJune([1850, 'calculated']);
    overshoot[JUNE + 1] = 1845;
    const seg = series(1000, overshoot);
    expect(values(seg).slice(6, 10)).toEqual([100, null, null, 155]);
    expect(reasons(seg)[JUNE]).toBe('estimate_contradicted');
  });

  it('the first month-end estimate below the start value: November and December 2024 have no figure', () => {
    const seg = series(
      1000,
      BASE.map((v, i): R => (i === 0 ? [900, 'calculated'] : v)),
    );
    expect(values(seg)).toEqual(hundreds([0, 1]));
    expect(reasons(seg)).toEqual(contradictedAt([0, 1]));
  });

  it("an estimate above a removed device's measured end value, with no reading after it", () => {
    const readings: R[] = [...BASE.slice(0, JUNE), [1850, 'calculated'], ...BASE.slice(JUNE + 1).map(() => null)];
    const removed = series(1000, readings, {
      deinstalled_at: '2025-07-15',
      period_consumption: { end_value: 1800, billable_value: 800, weighted_billable_value: undefined, status: 'measured' },
    });
    expect(values(removed).slice(6, 9)).toEqual([100, null, null]);
    expect(reasons(removed).slice(7, 9)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
  });
});

describe('estimates the read counts allow keep their figure, marked *', () => {
  it('a calculated 1,780 between 1,700 and 1,900: June 80 kWh*, July 120 kWh*', () => {
    const m = months(series(1000, withJune([1780, 'calculated'])));
    expect(m.slice(6, 9).map((x) => [n(x.value), x.estimated])).toEqual([
      [100, false],
      [80, true],
      [120, true],
    ]);
  });

  it('an estimate equal to the next count is no contradiction: June 200 kWh*, July 0 kWh*', () => {
    expect(values(series(1000, withJune([1900, 'calculated']))).slice(7, 9)).toEqual([200, 0]);
  });

  it('a substituted reading without is_synthetic is marked estimated', () => {
    const m = months(series(1000, withJune([1800, 'substituted'])));
    expect(m.map((x) => x.estimated)).toEqual(MONTHS.map((_, i) => i === 7 || i === 8));
    expect(m.map((x) => n(x.value))).toEqual(hundreds([]));
  });

  it("an allocator's estimate before its register starts again (450 read, 500 calculated, 20 read) keeps June; one between the two is ruled out", () => {
    const restart: R[] = [150, 200, 250, 300, 350, 400, 450, [500, 'calculated'], 20, 40, 60, 80, 100];
    expect(values(series(100, restart), 'hca').slice(6, 9)).toEqual([50, 50, null]);
    expect(reasons(series(100, restart), 'hca')[8]).toBe('negative');
    const between = restart.map((v, i): R => (i === JUNE ? [300, 'calculated'] : v));
    expect(reasons(series(100, between), 'hca').slice(7, 9)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
  });
});

describe("an allocator's register that starts again between two read counts (its yearly reading date)", () => {
  // 31 May reads 450; the allocator starts again from 0 in June; 30 June calculated 30; 31 July reads 500.
  const restarted: R[] = [150, 200, 250, 300, 350, 400, 450, [30, 'calculated'], 500, 540, 560, 580, 600];

  it('an estimate below the earlier count where the later count outgrew it: only the estimate says a restart came, so both months are missing', () => {
    const m = months(series(100, restarted), 'hca');
    expect(m.slice(6, 10).map((x) => [n(x.value), x.estimated, x.reasons.join(',')])).toEqual([
      [50, false, ''],
      [null, false, 'estimate_contradicted'],
      [null, false, 'estimate_contradicted'],
      [40, false, ''],
    ]);
    // a steady allocator: 100 calculated between 1,700 and 1,900 printed July as 1,800* (and shrank every other flat's July through the sum)
    expect(reasons(series(1000, withJune([100, 'calculated'])), 'hca')).toEqual(contradictedAt([7, 8]));
  });

  it('an estimate after a restart the read counts show (450 read, 30 calculated, 20 read) keeps its figure', () => {
    const fell: R[] = [150, 200, 250, 300, 350, 400, 450, [10, 'calculated'], 20, 40, 60, 80, 100];
    const m = months(series(100, fell), 'hca');
    expect(m.slice(8, 9).map((x) => [n(x.value), x.estimated])).toEqual([[10, true]]);
  });

  it('the same counts on a heat meter, whose register never starts again, rule the estimate out', () => {
    expect(reasons(series(100, restarted), 'heat').slice(7, 9)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
    // and one above a later count that fell: no restart explains it either (before, taken as one: June 50 kWh*)
    const fell: R[] = [150, 200, 250, 300, 350, 400, 450, [500, 'calculated'], 20, 40, 60, 80, 100];
    expect(reasons(series(100, fell), 'heat').slice(7, 9)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
  });

  it("an allocator's calculated spike above both counts is still ruled out (9,000 between 1,700 and 1,900)", () => {
    expect(reasons(series(1000, withJune([9000, 'calculated'])), 'hca')).toEqual(contradictedAt([7, 8]));
  });

  it("an allocator's estimate below the earlier count and above the later one is ruled out: no one restart gives both", () => {
    const both: R[] = [150, 200, 250, 300, 350, 400, 450, [300, 'calculated'], 200, 240, 260, 280, 300];
    expect(reasons(series(100, both), 'hca').slice(7, 9)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
  });
});

describe("the Property's sums", () => {
  const flat = (v: number) => Array<number>(13).fill(v);

  it("one flat's calculated allocator spike leaves no June figure for the honest neighbour, not 17.0 kWh*", () => {
    const plant = aPlantPoint({
      point: { localization: 'Heizzentrale' },
      consumption: { metric: 'heat', unit: 'kWh', segments: [series(5000, cumulative(5000, flat(3000)))] },
    });
    const spiked: R[] = withJune([9000, 'calculated'], cumulative(1000, flat(50)));
    const units = [
      aUnitEntry('WE 01', [point('hca', [series(1000, spiked)]), point('water_warm', [series(10, cumulative(10, flat(2)))])]),
      aUnitEntry('WE 02', [point('hca', [series(1000, cumulative(1000, flat(50)))]), point('water_warm', [series(10, cumulative(10, flat(1)))])]),
    ];
    const r = propertyUvi({ property_id: PROPERTY.id, months: MONTHS, units, plant: classifyPlant([plant]), benchmark: DEFAULT_BENCHMARK });
    const heating = (i: number) => r.units[i]!.services.find((s) => s.service === 'HEATING')!.months;
    // 3,000 kWh a month less the § 9 Abs. 2 warm water, half to each flat's 50 units: 1,312.5 kWh
    expect(heating(1).map((m) => n(m.kwh))).toEqual(MONTHS.map((_, i) => (i === 7 || i === 8 ? null : 1312.5)));
    expect(heating(1)[JUNE]!.reasons).toEqual(['allocator_sum_incomplete']);
    expect(heating(0)[JUNE]!.kwh).toBeNull();
    expect(heating(0)[JUNE]!.native).toBeNull();
    expect(heating(0)[JUNE]!.reasons).toContain('estimate_contradicted');
  });
});

// Round 32 F1, F3: a reading the contract does not give (dated between two month ends, or at a month end outside the
// range) became the count before an estimate, and an allocator estimate the month-end counts rule out got its
// figures back: 1,333.8 units* in one flat's October and every other allocator flat's October from that sum.
describe('a reading at none of the range’s month ends', () => {
  const extra = (seg: DeviceSegment, at: string, value: number): DeviceSegment => ({
    ...seg,
    readings: [...seg.readings, aReading({ at, value, status: 'measured', is_synthetic: false })],
  });

  it('between two month ends, just below a ruled-out allocator estimate: the estimate stays ruled out', () => {
    const september = BASE.map((v, i): R => (i === 10 ? [1000, 'calculated'] : v));
    const seg = extra(series(1000, september), '2025-09-15', 999);
    expect(reasons(seg, 'hca').slice(10, 12)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
    expect(values(seg, 'hca').slice(10, 12)).toEqual([null, null]);
  });

  it('at the month end before the range, just below a ruled-out first estimate: the estimate stays ruled out', () => {
    const november = BASE.map((v, i): R => (i === 0 ? [710, 'calculated'] : v));
    const seg = extra(series(1000, november), '2024-10-31', 709);
    expect(reasons(seg, 'hca').slice(0, 2)).toEqual(['estimate_contradicted', 'estimate_contradicted']);
  });

  it('beside the month-end readings of a heat meter: every month as without it', () => {
    const seg = extra(series(1000, BASE), '2025-06-15', 1750);
    expect(values(seg)).toEqual(hundreds([]));
  });
});
