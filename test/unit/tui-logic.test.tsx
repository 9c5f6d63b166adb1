// The browser's pure parts (range input, monthly series, fitting text) and the
// command's refusal without a terminal.
import { describe, expect, it } from 'vitest';
import { bar, compact, fit, monthlySeries, monthsOf, statusMark, wordWrap } from '../../src/tui/format.js';
import { parseRangeInput, rangeLabel } from '../../src/tui/range.js';
import { filterRows, row } from '../../src/tui/rows.js';
import { windowStart } from '../../src/tui/view.js';
import { runCli } from '../helpers/run-cli.js';
import { aPointConsumption, aSegment } from '../helpers/builders.js';
import { monthly } from '../helpers/tui-fake.js';

describe('range input', () => {
  it.each([
    ['2024', { from: '2024-01-01', to: '2024-12-31' }],
    [' 2025-01-01..2025-06-30 ', { from: '2025-01-01', to: '2025-06-30' }],
    ['2025-01-01 2025-06-30', { from: '2025-01-01', to: '2025-06-30' }],
  ])('accepts %j', (text, range) => {
    expect(parseRangeInput(text)).toEqual({ ok: true, range });
  });

  it.each([
    ['', 'type a year'],
    ['202', '"202" is not a year'],
    // The bounds of src/core/dates.ts, as for export's and browse's --year.
    ['1899', '1899 lies outside the years 1900 to 2999'],
    ['2025-02-30..2025-03-31', '"2025-02-30" is not a date; use yyyy-mm-dd'],
    ['2025-06-30..2025-01-01', 'the end 2025-01-01 lies before the start 2025-06-30.'],
    ['a b c', 'neither a year nor from..to'],
  ])('refuses %j with a reason', (text, message) => {
    const r = parseRangeInput(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });

  it('labels a range', () => {
    expect(rangeLabel({ from: '2025-01-01', to: '2025-12-31' })).toBe('2025');
    expect(rangeLabel({ from: '2025-01-01', to: '2025-06-30' })).toBe('2025-01-01..2025-06-30');
  });
});

describe('monthly series', () => {
  it('takes differences from the baseline, applies the K-factor and joins a replacement month', () => {
    const point = aPointConsumption({
      segments: [
        // replaced on 31 March: each device's windows and readings its own (overlapping windows are not charted)
        aSegment({
          baseline_value: 10,
          factor: 2,
          deinstalled_at: '2025-03-31',
          readings: monthly([12, 15, 20]),
          period_consumption: { end_value: 20, billable_value: 20 },
        }),
        aSegment({
          baseline_value: 0,
          installed_at: '2025-03-31',
          baseline_date: '2025-03-31',
          readings: monthly([4, 9], [], 3),
          period_consumption: { end_value: 9, billable_value: 9 },
        }),
      ],
    });
    const s = monthlySeries(point, { from: '2025-01-01', to: '2025-04-30' });
    expect(s).toEqual([
      { month: '2025-01', status: 'measured', use: 4 },
      { month: '2025-02', status: 'measured', use: 6 },
      { month: '2025-03', status: 'measured', use: 14 },
      { month: '2025-04', status: 'measured', use: 5 },
    ]);
  });

  it('shows no bar for missing and calibration-expired months, nor for the month after a missing one', () => {
    const point = aPointConsumption({
      segments: [
        aSegment({
          baseline_value: 0,
          readings: monthly([1, 0, 5, 6, 8], ['measured', 'missing', 'measured', 'calibration_expired', 'measured']),
          period_consumption: { end_value: 0, billable_value: 0, status: 'missing' },
        }),
      ],
    });
    expect(monthlySeries(point, { from: '2025-01-01', to: '2025-06-30' }).map((m) => [m.status, m.use])).toEqual([
      ['measured', 1],
      ['missing', null],
      ['measured', null],
      ['calibration_expired', null],
      ['measured', 2],
      [null, null],
    ]);
  });

  it('a reading no meter can show (IMPLAUSIBLE_VALUE in billing) draws no bar, nor the month after it: no "1e+2" under the chart', () => {
    const point = aPointConsumption({
      segments: [aSegment({ baseline_value: 0, readings: monthly([1, 1e300, 5, 6]), period_consumption: { end_value: 6, billable_value: 6 } })],
    });
    const s = monthlySeries(point, { from: '2025-01-01', to: '2025-04-30' });
    expect(s.map((m) => [m.status, m.use])).toEqual([
      ['measured', 1],
      ['measured', null],
      ['measured', null],
      ['measured', 1],
    ]);
  });

  it('marks a status outside the contract with ? instead of failing', () => {
    expect(statusMark('frozen')).toMatchObject({ letter: '?', label: 'unknown status "frozen"' });
    expect(statusMark(null).letter).toBe('·');
  });

  it('draws bars and compact numbers that fit their cells', () => {
    expect(monthsOf({ from: '2024-11-01', to: '2025-02-28' })).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(bar(16, 16)).toEqual(['█', '█']);
    expect(bar(4, 16)).toEqual([' ', '▄']);
    expect(bar(null, 16)).toEqual([' ', ' ']);
    for (const n of [0, 0.5, 7.25, 50, 412, 1234, 98765, 123456]) expect(compact(n).length).toBeLessThanOrEqual(4);
    expect([compact(50), compact(1234), compact(0.5)]).toEqual(['50', '1.2k', '0.5']);
  });
});

describe('lists', () => {
  it('fits text with an ellipsis and filters rows by the text as typed', () => {
    expect(fit('Lindenstraße 12', 8)).toBe('Lindens…');
    expect(fit('WE 01', 5)).toBe('WE 01');
    expect(wordWrap('The device was replaced during the period.', 16)).toEqual(['The device was', 'replaced during', 'the period.']);
    const rows = [row('a', [{ text: 'WE 01 residential' }]), row('b', [{ text: 'Laden commercial' }])];
    expect(filterRows(rows, '01 RESID').map((r) => r.key)).toEqual(['a']);
    expect(filterRows(rows, 'we 01').map((r) => r.key)).toEqual(['a']);
    expect(filterRows(rows, 'WE 1').map((r) => r.key)).toEqual([]);
    expect(filterRows(rows, '').map((r) => r.key)).toEqual(['a', 'b']);
  });

  it('keeps the cursor inside the visible window', () => {
    for (const cursor of [0, 5, 17, 39]) {
      const start = windowStart(cursor, 40, 18);
      expect(cursor).toBeGreaterThanOrEqual(start);
      expect(cursor).toBeLessThan(start + 18);
      expect(start + 18).toBeLessThanOrEqual(40);
    }
  });
});

describe('meterdata browse without a terminal', () => {
  it('refuses with a usage error that points to export', async () => {
    const r = await runCli(['browse', '--year', '2025'], { tty: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`meterdata browse` is interactive and needs a terminal');
    expect(r.stderr).toContain('meterdata export --year 2025');
  });

  it('refuses a bad year before anything else', async () => {
    const r = await runCli(['browse', '--year', '25'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"25" is not a year');
  });
});

describe('monthly series of a removed device', () => {
  it('puts the stretch from the last month end to the removal day into the removal month', () => {
    const point = aPointConsumption({
      segments: [
        aSegment({
          baseline_value: 100,
          deinstalled_at: '2025-03-15',
          readings: monthly([110, 120]),
          period_consumption: { end_value: 125, billable_value: 25, status: 'measured' },
        }),
        aSegment({ installed_at: '2025-03-15', baseline_value: 0, readings: monthly([7], [], 3), period_consumption: { end_value: 7, billable_value: 7 } }),
      ],
    });
    expect(monthlySeries(point, { from: '2025-01-01', to: '2025-03-31' }).map((m) => m.use)).toEqual([10, 10, 12]);
  });
});
