// --month and --ww-temperature of the monthly consumption information: the month defaults to
// the last completed one by the caller's clock; a month that is not one, has not ended or lies
// before § 6a's monthly duty, and a warm-water temperature outside its range, are refused
// with one line naming the flag and a hint (UVI_*_INVALID, exit 2), in English and German.
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { parseMonth, parseUviInputs, parseWwTemperature } from '../../src/uvi/inputs/index.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

/** 5 December 2025: November has ended, December has not. */
const NOW = new Date('2025-12-05T10:00:00Z');

function refused(read: () => unknown, code: string): UsageError {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect([(e as UsageError).code, (e as UsageError).exitCode]).toEqual([code, 2]);
    expect((e as Error).message).not.toContain('\n');
    return e as UsageError;
  }
  throw new Error('the value was accepted');
}

describe('--month', () => {
  it('defaults to the last completed month by the clock, at the turn of a month too', () => {
    expect(parseMonth(undefined, NOW)).toBe('2025-11');
    expect(parseMonth(undefined, new Date('2025-12-01T00:00:00Z'))).toBe('2025-11');
    expect(parseMonth(undefined, new Date('2025-11-30T23:59:59Z'))).toBe('2025-10');
    expect(parseMonth(undefined, new Date('2026-01-10T00:00:00Z'))).toBe('2025-12');
  });

  it('takes a month that has ended, from January 2022 on', () => {
    expect(['2025-11', '2025-01', '2022-01'].map((m) => parseMonth(m, NOW))).toEqual(['2025-11', '2025-01', '2022-01']);
  });

  it.each([
    ['2025-13', '--month 2025-13: a year has no month 13.'],
    ['2025-00', '--month 2025-00: a year has no month 00.'],
    ['2025-1', '--month: "2025-1" is not a month; use yyyy-mm, e.g. 2025-11.'],
    ['11/2025', '--month: "11/2025" is not a month; use yyyy-mm, e.g. 2025-11.'],
    ['', '--month: "" is not a month; use yyyy-mm, e.g. 2025-11.'],
    ['2025-12', '--month 2025-12 has not ended yet; the last completed month is 2025-11.'],
    ['2026-03', '--month 2026-03 has not ended yet; the last completed month is 2025-11.'],
    ['2021-12', '--month 2021-12 lies before 2022-01, when the monthly information began (§ 6a HeizkostenV).'],
  ])('refuses %j with one line', (value, message) => {
    expect(refused(() => parseMonth(value, NOW), 'UVI_MONTH_INVALID').message).toBe(message);
  });

  it('names the fix in the hint, and says it in German', async () => {
    expect(refused(() => parseMonth('2025-12', NOW), 'UVI_MONTH_INVALID').hint).toBe('Give a month up to 2025-11, or leave out --month for 2025-11.');
    setLanguage('de');
    const e = refused(() => parseMonth('2025-13', NOW), 'UVI_MONTH_INVALID');
    expect(e.message).toBe('--month 2025-13: Ein Jahr hat keinen Monat 13.');
    const future = refused(() => parseMonth('2026-01', NOW), 'UVI_MONTH_INVALID');
    expect(future.message).toBe('--month 2026-01 ist noch nicht abgeschlossen; der letzte abgeschlossene Monat ist 2025-11.');
    expect(await findEnglish(`${e.message}\n${e.hint}\n${future.message}\n${future.hint}`)).toEqual([]);
  });
});

describe('--ww-temperature', () => {
  it('is 60 °C without the flag; takes whole and decimal degrees (comma or point) from 40 to 80', () => {
    expect(parseWwTemperature(undefined)).toBe(60);
    expect(['55', '55,5', '60.0', '40', '80'].map(parseWwTemperature)).toEqual([55, 55.5, 60, 40, 80]);
  });

  it.each([
    ['39.9', '--ww-temperature 39.9 °C lies outside 40 to 80 °C.'],
    ['81', '--ww-temperature 81 °C lies outside 40 to 80 °C.'],
    ['6', '--ww-temperature 6 °C lies outside 40 to 80 °C.'],
    ['600', '--ww-temperature 600 °C lies outside 40 to 80 °C.'],
    ['-60', '--ww-temperature -60 °C lies outside 40 to 80 °C.'],
    ['60°C', '--ww-temperature: "60°C" is not a temperature in °C.'],
    ['1e2', '--ww-temperature: "1e2" is not a temperature in °C.'],
    ['NaN', '--ww-temperature: "NaN" is not a temperature in °C.'],
    ['', '--ww-temperature: "" is not a temperature in °C.'],
  ])('refuses %j with one line', (value, message) => {
    const e = refused(() => parseWwTemperature(value), 'UVI_WW_TEMPERATURE_INVALID');
    expect(e.message).toBe(message);
    expect(e.hint).toBe(
      'Give the mean temperature of the hot water in °C (§ 9 (2) HeizkostenV), 40 to 80, e.g. --ww-temperature 60; without the flag 60 °C is used.',
    );
  });
});

describe('the inputs together', () => {
  it('gives the month, its 13 months, the default table and 60 °C without flags; the month is checked first', () => {
    const inputs = parseUviInputs({}, '/nonexistent', NOW);
    expect(inputs).toMatchObject({ month: '2025-11', benchmark: DEFAULT_BENCHMARK, benchmarkGiven: false, wwTemperature: 60 });
    expect(inputs.months).toEqual([
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
    ]);
    expect(
      refused(() => parseUviInputs({ month: '2025-13', wwTemperature: '6', benchmark: 'missing.csv' }, '/nonexistent', NOW), 'UVI_MONTH_INVALID').message,
    ).toMatch(/^--month 2025-13/);
  });
});
