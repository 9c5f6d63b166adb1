// Monthly consumption of one measuring point from month-end readings: segments, factor,
// share, gaps, statuses and hostile answers. Expectations are worked out by hand here.
import { describe, expect, it } from 'vitest';
import { pointMonths, sumMonths } from '../../src/uvi/point-months.js';
import type { DeviceSegment } from '../../src/api/types.js';
import { aSegment } from '../helpers/builders.js';
import { BEFORE, ENDS, MONTHS, type R, cumulative, differences, n, point, readings, series } from '../helpers/uvi-fixtures.js';

/** A device installed on `day` with its own start value (dated that day unless given) and month-end readings. */
function installed(day: string, start: number, values: R[], more: Partial<DeviceSegment> = {}): DeviceSegment {
  return aSegment({ installed_at: day, baseline_value: start, baseline_date: day, baseline_origin: 'recorded', readings: readings(values), ...more });
}
const AFTER_MARCH_12: R[] = [null, null, null, null, 6, 14, 20, 22, 23, 24, 30, 40, 52];

const values = (p: ReturnType<typeof pointMonths>) => p.months.map((m) => n(m.value));
const reasons = (p: ReturnType<typeof pointMonths>) => p.months.map((m) => m.reasons.join(','));

describe('one device over 13 months', () => {
  const monthly = [30, 55, 80, 70, 60, 35, 15, 5, 3, 4, 12, 28, 50];
  const rs = cumulative(1000, monthly);

  it('each month is its end reading less the one before, the first from the baseline at the month end before', () => {
    const p = pointMonths(point('heat', [series(1000, rs)]), MONTHS, 1);
    expect(values(p)).toEqual(differences(1000, rs));
    expect(values(p)).toEqual(monthly);
    expect(p.months.map((m) => m.month)).toEqual(MONTHS);
    expect(p.months.every((m) => !m.estimated && m.reasons.length === 0)).toBe(true);
  });

  it('times the factor and the unit share, exactly (0.1 steps, factor 1.25, share 1/3 sent as 0.3333)', () => {
    const tenths = [10.1, 10.3, 10.6, 10.7, 10.9, 11.2, 11.3, 11.5, 11.8, 11.9, 12.1, 12.4, 13.1];
    const p = pointMonths(point('hca', [series(10, tenths, { factor: 1.25 })], 0.3333), MONTHS, 0.3333);
    // 0.1 × 1.25 × 0.3333 = 0.04166250; 0.7 × 1.25 × 0.3333 = 0.29163750
    expect(p.months[0]!.value!.toFixed()).toBe('0.0416625');
    expect(p.months[12]!.value!.toFixed()).toBe('0.2916375');
  });

  it('an impossible share (0, above 1) gives no month at all, not 0', () => {
    for (const share of [0, 1.5, -0.5, Number.NaN]) {
      const p = pointMonths(point('heat', [series(1000, rs)]), MONTHS, share);
      expect(values(p)).toEqual(MONTHS.map(() => null));
      expect(new Set(reasons(p))).toEqual(new Set(['implausible_share']));
    }
  });

  it('a factor of 0, below 0 or not finite gives no months', () => {
    for (const factor of [0, -1, Number.POSITIVE_INFINITY]) {
      const p = pointMonths(point('hca', [series(1000, rs, { factor })]), MONTHS, 1);
      expect(values(p).every((v) => v === null)).toBe(true);
      expect(reasons(p)[5]).toBe('implausible_value');
    }
  });
});

describe('gaps and statuses', () => {
  const rs = cumulative(500, [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130]);

  it('a month-end reading absent: both months it bounds are missing, never 0, and nothing is carried across the gap', () => {
    const gap = rs.map((v, i) => (i === 4 ? null : v)); // no reading at 2025-03-31
    const p = pointMonths(point('heat', [series(500, gap)]), MONTHS, 1);
    expect(values(p)).toEqual([10, 20, 30, 40, null, null, 70, 80, 90, 100, 110, 120, 130]);
    expect(reasons(p)[4]).toBe('no_reading');
    expect(reasons(p)[5]).toBe('no_reading');
  });

  it('a reading with status missing or calibration_expired is never consumption, whatever value it carries', () => {
    for (const status of ['missing', 'calibration_expired'] as const) {
      const r = rs.map((v, i) => (i === 7 ? ([v, status] as [number, string]) : v));
      const p = pointMonths(point('heat', [series(500, r)]), MONTHS, 1);
      expect(values(p)).toEqual([10, 20, 30, 40, 50, 60, 70, null, null, 100, 110, 120, 130]);
      expect(reasons(p)[7]).toBe(status);
      expect(reasons(p)[8]).toBe(status);
    }
  });

  it('a calculated reading gives both months it bounds a value marked estimated', () => {
    const r = rs.map((v, i) => (i === 10 ? ([v, 'calculated'] as [number, string]) : v));
    const p = pointMonths(point('hca', [series(500, r)]), MONTHS, 1);
    expect(values(p)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130]);
    expect(p.months.map((m) => m.estimated)).toEqual(MONTHS.map((_, i) => i === 10 || i === 11));
  });

  it('a status the contract does not name, a value no meter shows, or a negative reading: no value', () => {
    const odd = rs.map((v, i) => (i === 2 ? ([v, 'frozen'] as [number, string]) : i === 6 ? 1e300 : i === 9 ? -5 : v));
    const p = pointMonths(point('heat', [series(500, odd)]), MONTHS, 1);
    expect(reasons(p)).toEqual([
      '',
      '',
      'unknown_status',
      'unknown_status',
      '',
      '',
      'implausible_value',
      'implausible_value',
      '',
      'implausible_value',
      'implausible_value',
      '',
      '',
    ]);
  });

  it('a reading below the one before is no negative consumption but a missing month', () => {
    const down = [...rs];
    down[3] = rs[2]! - 1;
    const p = pointMonths(point('heat', [series(500, down)]), MONTHS, 1);
    expect(values(p)[3]).toBeNull();
    expect(reasons(p)[3]).toBe('negative');
    expect(values(p)[4]).toBe(rs[4]! - down[3]!);
  });

  it('the same reading twice at one month end counts once; two different readings there count for neither month', () => {
    const seg = series(500, rs);
    const twice = { ...seg, readings: [...seg.readings, { ...seg.readings[6]! }] };
    expect(values(pointMonths(point('heat', [twice]), MONTHS, 1))).toEqual(differences(500, rs));
    const clash = { ...seg, readings: [...seg.readings, { ...seg.readings[6]!, value: rs[6]! + 7 }] };
    const p = pointMonths(point('heat', [clash]), MONTHS, 1);
    expect(values(p)[6]).toBeNull();
    expect(values(p)[7]).toBeNull();
    expect(reasons(p)[6]).toBe('duplicate_reading');
    expect(values(p)[5]).toBe(60);
  });

  it('a difference meter (no segments) has no values', () => {
    const p = pointMonths(point('heat', [], 1, { is_difference_meter: true }), MONTHS, 1);
    expect(new Set(reasons(p))).toEqual(new Set(['difference_meter']));
  });
});

describe('device replacements', () => {
  it('replaced mid-month: the old device to its removal value, the new one from its own start value, each times its own factor', () => {
    const old = series(100, [110, 125, 140, 150, null, null, null, null, null, null, null, null, null], {
      deinstalled_at: '2025-03-12',
      replacement_reason: 'DeviceReplacement',
      factor: 2,
      period_consumption: { end_value: 154, billable_value: 108, status: 'measured' },
    });
    const fresh = installed('2025-03-12', 0, AFTER_MARCH_12, { factor: 1.5 });
    const p = pointMonths(point('hca', [fresh, old]), MONTHS, 1);
    // March: (154 − 150) × 2 + (6 − 0) × 1.5 = 8 + 9 = 17; April: (14 − 6) × 1.5 = 12
    expect(values(p)).toEqual([20, 30, 30, 20, 17, 12, 9, 3, 1.5, 1.5, 9, 15, 18]);
  });

  it('replaced on a month end: that month from the old device, the next from the new start value', () => {
    const old = series(100, [110, 120, 130, 140, 150, null, null, null, null, null, null, null, null], {
      deinstalled_at: '2025-03-31',
      period_consumption: { end_value: 150, billable_value: 50, status: 'measured' },
    });
    const fresh = installed('2025-03-31', 5, [null, null, null, null, 5, 9, 12, 14, 15, 16, 20, 25, 31]);
    expect(values(pointMonths(point('heat', [old, fresh]), MONTHS, 1))).toEqual([10, 10, 10, 10, 10, 4, 3, 2, 1, 1, 4, 5, 6]);
  });

  it("a new device's reading below its own start value (the old device's count taken as its start) is no value, not a negative one", () => {
    const old = series(100, [110, 120, 130, 140, null, null, null, null, null, null, null, null, null], {
      deinstalled_at: '2025-03-12',
      period_consumption: { end_value: 145, billable_value: 45, status: 'measured' },
    });
    const fresh = installed('2025-03-12', 145, [null, null, null, null, 3, 8, 9, 9, 9, 9, 9, 9, 9]);
    const p = pointMonths(point('heat', [old, fresh]), MONTHS, 1);
    expect(values(p)[4]).toBeNull();
    expect(reasons(p)[4]).toBe('negative');
    expect(values(p)[5]).toBe(5);
  });

  it("the old device's removal value with status calibration_expired is no consumption: the month of the replacement is missing", () => {
    const old = series(100, [110, 120, 130, 140, null, null, null, null, null, null, null, null, null], {
      deinstalled_at: '2025-03-12',
      period_consumption: { end_value: 150, billable_value: 0, status: 'calibration_expired' },
    });
    const p = pointMonths(point('heat', [old, installed('2025-03-12', 0, AFTER_MARCH_12)]), MONTHS, 1);
    expect(values(p).slice(3, 6)).toEqual([10, null, 8]);
    expect(reasons(p)[4]).toBe('calibration_expired');
  });

  it('two devices claiming the same days (the old one never removed): those months are missing, earlier ones stand', () => {
    const old = series(100, [110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230]);
    const fresh = installed('2025-03-12', 0, AFTER_MARCH_12);
    const p = pointMonths(point('heat', [old, fresh]), MONTHS, 1);
    expect(values(p).slice(0, 4)).toEqual([10, 10, 10, 10]);
    expect(values(p).slice(4)).toEqual(Array(9).fill(null));
    expect(new Set(reasons(p).slice(4))).toEqual(new Set(['overlapping_segments']));
  });

  it('an assumed start value (a replacement allocator taken from 0) marks the month estimated', () => {
    const fresh = installed('2025-03-12', 0, AFTER_MARCH_12, { baseline_origin: 'assumed_zero' });
    const p = pointMonths(point('hca', [fresh]), MONTHS, 1);
    expect(values(p)[4]).toBe(6);
    expect(p.months[4]!.estimated).toBe(true);
    expect(p.months[5]!.estimated).toBe(false);
  });

  it('a start value dated after the installation (first reading) gives no value for the month installed', () => {
    const fresh = installed('2025-03-12', 6, AFTER_MARCH_12, { baseline_date: '2025-03-31', baseline_origin: 'first_reading' });
    const p = pointMonths(point('hca', [fresh]), MONTHS, 1);
    expect(values(p)[4]).toBeNull();
    expect(reasons(p)[4]).toBe('no_start_value');
    expect(values(p)[5]).toBe(8);
  });

  it('baseline_origin none: no start value for the first month', () => {
    const seg = series(0, cumulative(0, Array(13).fill(5)), { baseline_origin: 'none' });
    const p = pointMonths(point('heat', [seg]), MONTHS, 1);
    expect(reasons(p)[0]).toBe('no_start_value');
    expect(values(p)[1]).toBe(5);
  });
});

describe('a unit new this year', () => {
  it('months before its first device are missing (no device), not 0; the first month counts from the start value', () => {
    const fresh = installed('2025-06-15', 0, [null, null, null, null, null, null, null, 1, 2, 4, 7, 11, 16]);
    const p = pointMonths(point('water_warm', [fresh]), MONTHS, 1);
    expect(values(p)).toEqual([null, null, null, null, null, null, null, 1, 1, 2, 3, 4, 5]);
    expect(new Set(reasons(p).slice(0, 7))).toEqual(new Set(['no_device']));
  });
});

describe('a device of unknown installation', () => {
  it('before its first known value the months lack a reading (it may have been there), not a device', () => {
    const seg = aSegment({
      installed_at: null,
      baseline_value: 40,
      baseline_date: '2025-03-31',
      baseline_origin: 'first_known_in_range',
      readings: readings([null, null, null, null, 40, 45, 47, 48, 49, 50, 52, 55, 60]),
    });
    const p = pointMonths(point('heat', [seg]), MONTHS, 1);
    expect(values(p)).toEqual([null, null, null, null, null, 5, 2, 1, 1, 1, 2, 3, 5]);
    expect(new Set(reasons(p).slice(0, 5))).toEqual(new Set(['no_reading']));
  });

  it('a first known value in mid-March is no installation: March is missing (not 50 measured from the 15th), and so is the sum it is in', () => {
    const values13 = [null, null, null, null, 150, 160, 170, 180, 190, 200, 210, 220, 230];
    const first = { baseline_value: 100, baseline_date: '2025-03-15', readings: readings(values13) };
    const undocumented = aSegment({ ...first, installed_at: null, baseline_origin: 'first_known_in_range' });
    const p = pointMonths(point('hca', [undocumented]), MONTHS, 1);
    expect([values(p)[4], reasons(p)[4], values(p)[5]]).toEqual([null, 'no_reading', 10]);
    const other = pointMonths(point('hca', [series(0, cumulative(0, Array(13).fill(7)))]), MONTHS, 1);
    expect(sumMonths([p, other], MONTHS)[4]!.reasons).toEqual(['no_reading']);
    // installed on the 15th, documented: the start value is the new device's own, March counts from it
    const documented = pointMonths(point('hca', [aSegment({ ...first, installed_at: '2025-03-15', baseline_origin: 'recorded' })]), MONTHS, 1);
    expect([values(documented)[4], reasons(documented)[3]]).toEqual([50, 'no_device']);
    // undocumented, but the previous device was removed that day: it measured the days before, March is whole
    const old = series(10, [20, 30, 40, 50, null, null, null, null, null, null, null, null, null], {
      deinstalled_at: '2025-03-15',
      period_consumption: { end_value: 55, billable_value: 45, status: 'measured' },
    });
    expect(values(pointMonths(point('hca', [old, undocumented]), MONTHS, 1))[4]).toBe(55);
  });
});

describe('sums over points', () => {
  it('adds month by month; a month missing at any point is missing in the sum with its reason', () => {
    const a = pointMonths(point('heat', [series(0, cumulative(0, Array(13).fill(2)))]), MONTHS, 1);
    const b = pointMonths(
      point('heat', [
        series(
          0,
          cumulative(0, Array(13).fill(3)).map((v, i) => (i === 12 ? ([v, 'missing'] as [number, string]) : v)),
        ),
      ]),
      MONTHS,
      1,
    );
    const s = sumMonths([a, b], MONTHS);
    expect(s.map((m) => n(m.value))).toEqual([...Array(12).fill(5), null]);
    expect(s[12]!.reasons).toEqual(['missing']);
  });

  it('a plant point (share null) is taken as it is', () => {
    const p = pointMonths(point('heat', [series(7, cumulative(7, Array(13).fill(100)))]), MONTHS, null);
    expect(values(p)).toEqual(Array(13).fill(100));
    expect(ENDS.length).toBe(13);
    expect(BEFORE).toBe('2024-10-31');
  });
});
