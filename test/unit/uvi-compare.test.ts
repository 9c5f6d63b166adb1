// The comparisons of the letter (previous month, same month last year, average user) as
// numbers and in words, and the benchmark's monthly distribution and refusals.
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/billing/decimal.js';
import { BENCHMARK_LIMIT, DEFAULT_BENCHMARK, HEATING_PER_MILLE, benchmarkMonth, benchmarkProblems, monthShare } from '../../src/uvi/benchmark.js';
import { comparisons, monthWords, reasonWords } from '../../src/uvi/compare.js';
import { thirteenMonths, rangeOf } from '../../src/uvi/months.js';
import type { ServiceMonth, UnitService } from '../../src/uvi/types.js';
import { MONTH, MONTHS } from '../helpers/uvi-fixtures.js';

/** A heating service whose kWh are given per month (null: missing), with a benchmark of `bench` kWh in every month. */
function service(kwh: (number | null)[], bench: number | null = null, native?: (number | null)[]): UnitService {
  const months: ServiceMonth[] = MONTHS.map((month, i) => ({
    month,
    kwh: kwh[i] == null ? null : dec(kwh[i]!),
    native: (native ?? kwh)[i] == null ? null : dec((native ?? kwh)[i]!),
    converted: false,
    estimated: false,
    native_estimated: false,
    reasons: [],
    benchmark_kwh: bench === null ? null : dec(bench),
  }));
  return { service: 'HEATING', method: 'heat_meter', native_unit: 'kWh', months };
}

const with3 = (lastYear: number | null, previous: number | null, current: number | null) => {
  const k = Array<number | null>(13).fill(1);
  k[0] = lastYear;
  k[11] = previous;
  k[12] = current;
  return k;
};

describe('the comparisons in words', () => {
  it('12 % weniger als im Oktober 2025; 10 % mehr als im November 2024; 12 % weniger als der Durchschnittsnutzer', () => {
    const [prev, year, avg] = comparisons(service(with3(80, 100, 88), 100), MONTH, 'de');
    expect(prev).toMatchObject({ kind: 'previous_month', month: '2025-10', percent: 12, direction: 'less', words: '12 % weniger als im Oktober 2025' });
    expect(year).toMatchObject({ kind: 'same_month_last_year', month: '2024-11', percent: 10, direction: 'more', words: '10 % mehr als im November 2024' });
    expect(avg).toMatchObject({ kind: 'benchmark', percent: 12, direction: 'less', words: '12 % weniger als der Durchschnittsnutzer' });
  });

  it('the same in English', () => {
    const words = comparisons(service(with3(80, 100, 88), 100), MONTH, 'en').map((c) => c.words);
    expect(words).toEqual(['12 % less than in October 2025', '10 % more than in November 2024', '12 % less than the average user']);
  });

  it('percent rounds half up on the magnitude (12.5 → 13, −12.5 → 13 less), below 0.5 % reads as about the same', () => {
    expect(
      comparisons(service(with3(200, 200, 225)), MONTH, 'de')
        .map((c) => c.percent)
        .slice(0, 2),
    ).toEqual([13, 13]);
    expect(comparisons(service(with3(200, 200, 175)), MONTH, 'de')[0]).toMatchObject({ percent: 13, direction: 'less' });
    expect(comparisons(service(with3(1000, 1000, 1004)), MONTH, 'de')[0]).toMatchObject({
      percent: 0,
      direction: 'same',
      words: 'etwa so viel wie im Oktober 2025',
    });
  });

  it('a large change is written with the German thousands separator', () => {
    expect(comparisons(service(with3(1, 1, 16)), MONTH, 'de')[0]!.words).toBe('1.500 % mehr als im Oktober 2025');
  });

  it('against a month of 0: more, without a percentage; 0 against 0: the same', () => {
    expect(comparisons(service(with3(0, 0, 5)), MONTH, 'de')[0]).toMatchObject({
      percent: null,
      direction: 'more',
      words: 'mehr als im Oktober 2025 (damals kein Verbrauch)',
    });
    expect(comparisons(service(with3(0, 0, 0)), MONTH, 'de')[0]).toMatchObject({ percent: 0, direction: 'same' });
  });

  it('a missing month on either side: no comparison, said as such (never against 0)', () => {
    const [prev, year, avg] = comparisons(service(with3(null, 100, 88)), MONTH, 'de');
    expect(prev!.direction).toBe('less');
    expect(year).toMatchObject({ percent: null, direction: null, words: 'kein Vergleich möglich: für November 2024 liegt kein Wert vor' });
    expect(avg).toMatchObject({ percent: null, words: 'kein Vergleich mit dem Durchschnittsnutzer möglich' });
    const none = comparisons(service(with3(80, 100, null), 100), MONTH, 'de');
    expect(none.every((c) => c.percent === null && c.words === 'für diesen Monat liegt kein Wert vor, daher kein Vergleich')).toBe(true);
  });

  it('allocator units without kWh: compared in units with the months before, never with the average user in kWh', () => {
    const s = service(Array(13).fill(null), 100, with3(40, 50, 45));
    const [prev, , avg] = comparisons(s, MONTH, 'de');
    expect(prev).toMatchObject({ percent: 10, direction: 'less' });
    expect(avg!.percent).toBeNull();
  });
});

describe('months and reasons in words', () => {
  it('names months in both languages', () => {
    expect(monthWords('2025-03', 'de')).toBe('März 2025');
    expect(monthWords('2025-03', 'en')).toBe('March 2025');
  });

  it('gives each reason once, in German without contract codes', () => {
    const de = reasonWords(['calibration_expired', 'calibration_expired', 'no_plant_heat_meter'], 'de');
    expect(de).toEqual([
      'die Eichfrist des Zählers ist abgelaufen',
      'kein Hauptwärmezähler für die Liegenschaft, daher keine Umrechnung der Einheiten der Heizkostenverteiler in kWh',
    ]);
    expect(de.join(' ')).not.toMatch(/_/);
  });
});

describe('the months of a letter', () => {
  it('are the 13 months ending with it, across a year end, and the range to ask for', () => {
    expect(thirteenMonths(MONTH)).toEqual(MONTHS);
    expect(thirteenMonths('2025-01')[0]).toBe('2024-01');
    expect(rangeOf(MONTHS)).toEqual({ from: '2024-11-01', to: '2025-11-30' });
  });
});

describe('the benchmark', () => {
  it('spreads heating by degree-day shares summing to 1000 ‰ (January 170 ‰, June–August 40 ‰ together)', () => {
    expect(HEATING_PER_MILLE.reduce((a, b) => a.plus(b), dec(0)).toNumber()).toBe(1000);
    expect(monthShare('HEATING', '2025-01').toNumber()).toBe(0.17);
    const summer = ['2025-06', '2025-07', '2025-08'].reduce((a, m) => a.plus(monthShare('HEATING', m)), dec(0));
    expect(summer.toNumber()).toBeCloseTo(0.04, 15);
  });

  it('spreads warm water by calendar days (29 of 366 in February 2024, 28 of 365 in 2025), a year summing to 1', () => {
    expect(monthShare('HOT_WATER', '2024-02').toNumber()).toBeCloseTo(29 / 366, 15);
    expect(monthShare('HOT_WATER', '2025-02').toNumber()).toBeCloseTo(28 / 365, 15);
    const year = thirteenMonths('2025-12')
      .slice(1)
      .reduce((a, m) => a.plus(monthShare('HOT_WATER', m)), dec(0));
    expect(year.toNumber()).toBeCloseTo(1, 15);
  });

  it('gives no value without area (null, 0, negative) or without a row for the unit type', () => {
    for (const area of [null, 0, -3, Number.NaN])
      expect(benchmarkMonth(DEFAULT_BENCHMARK, 'residential', 'HEATING', area, '2025-11')).toEqual({ missing: 'no_area' });
    expect(benchmarkMonth(DEFAULT_BENCHMARK, 'technical', 'HEATING', 50, '2025-11')).toEqual({ missing: 'no_value' });
  });

  it('refuses a table with negative, absurd or non-numeric values, duplicate rows, an unknown service or no source', () => {
    expect(benchmarkProblems(DEFAULT_BENCHMARK)).toEqual([]);
    const bad = {
      source: ' ',
      rows: [
        { unit_type: 'residential', service: 'HEATING' as const, kwh_per_m2_year: -5 },
        { unit_type: 'residential', service: 'HEATING' as const, kwh_per_m2_year: 100 },
        { unit_type: 'commercial', service: 'HOT_WATER' as const, kwh_per_m2_year: BENCHMARK_LIMIT + 1 },
        { unit_type: 'commercial', service: 'HEATING' as const, kwh_per_m2_year: Number.NaN },
        { unit_type: 'x', service: 'COOLING' as never, kwh_per_m2_year: 10 },
      ],
    };
    expect(benchmarkProblems(bad)).toEqual([
      'source',
      'value:residential/HEATING',
      'duplicate:residential/HEATING',
      'value:commercial/HOT_WATER',
      'value:commercial/HEATING',
      'service:x/COOLING',
    ]);
    // Below 1 kWh per m² and year: a month's value, or "1.000" read as 1; 1 itself is a (passive house's) year.
    const low = (v: number) => benchmarkProblems({ source: 'S', rows: [{ unit_type: 'residential', service: 'HOT_WATER', kwh_per_m2_year: v }] });
    expect([low(0.99), low(1)]).toEqual([['value:residential/HOT_WATER'], []]);
  });
});
