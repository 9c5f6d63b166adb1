// Server values that cannot be right are never billed: each gets a not_billed finding
// saying what was received, and no row carries a number a workbook cannot hold.
import { describe, expect, it } from 'vitest';
import { BILLING_SEVERITY, billPlantPoint, billProperty, billUnit, flagMessage, type Flag } from '../../src/billing/index.js';
import { formatCell, plainNumber } from '../../src/export/output/cell-text.js';
import { TABLE_COLUMNS } from '../../src/export/output/tables.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, type SegmentOverrides } from '../helpers/builders.js';

function billOne(points: Parameters<typeof aUnitEntry>[1], range?: { from: string; to: string }) {
  const { unit, consumption } = aUnitEntry('WE 01', points);
  return billUnit({ property: PROPERTY, unit, consumption: range ? { ...consumption, ...range } : consumption });
}
/** What a meter register can hold at most (src/billing/plausible.ts METER_LIMIT). */
const METER_LIMIT = 1e12;
const codes = (flags: Flag[]) => flags.map((f) => f.code).sort();
const STYLE = { decimal: ',' as const, dateFormat: 'dd.mm.yyyy', booleans: ['ja', 'nein'] as [string, string] };

/** Every cell of every row as the CSV writer renders it: throws where a cell cannot be written. */
function renderAll(bill: ReturnType<typeof billUnit>): string {
  const cells: string[] = [];
  for (const [table, rows] of [
    ['billing', bill.billing],
    ['segments', bill.segments],
    ['readings', bill.readings],
  ] as const) {
    for (const row of rows as unknown as Record<string, unknown>[]) {
      for (const [key, type] of Object.entries(TABLE_COLUMNS[table])) cells.push(formatCell(row[key], type, STYLE));
    }
  }
  return cells.join(';');
}

/** One unit with one point holding `segments`, billed; its flags of the given code. */
function billSegments(overrides: SegmentOverrides[], share = 1) {
  const bill = billOne([aPointConsumption({ unit_share: share, segments: overrides.map((o) => aSegment(o)) })]);
  return { bill, value: bill.billing[0]!.billable_value };
}

describe('implausible values are not billed (IMPLAUSIBLE_VALUE, not_billed)', () => {
  it.each<[string, SegmentOverrides, string, string]>([
    ['negative billable_value', { period_consumption: { billable_value: -5, weighted_billable_value: -5, end_value: 95 } }, 'billable_value', '-5'],
    [
      'negative weighted_billable_value',
      { period_consumption: { billable_value: 5, weighted_billable_value: -5, end_value: 105 } },
      'weighted_billable_value',
      '-5',
    ],
    [
      'end_value below baseline_value with a positive factor',
      { baseline_value: 500, period_consumption: { end_value: 120, billable_value: 10 } },
      'end_value',
      '120',
    ],
    [
      'a negative start value whose difference looks fine',
      { baseline_value: -1000, period_consumption: { end_value: 10, billable_value: 1010, weighted_billable_value: 1010 } },
      'baseline_value',
      '-1000',
    ],
    [
      'a negative end value (with a negative factor, so the difference looks fine)',
      { factor: -1, baseline_value: 0, period_consumption: { end_value: -10, billable_value: 10, weighted_billable_value: 10 } },
      'end_value',
      '-10',
    ],
    [
      'end_value below baseline_value with a negative factor (the product looks fine)',
      { factor: -1, baseline_value: 500, period_consumption: { end_value: 120, billable_value: 380, weighted_billable_value: 380 } },
      'factor',
      '-1',
    ],
    ['a factor of 0 with a value to bill', { factor: 0, period_consumption: { billable_value: 50, weighted_billable_value: 50 } }, 'factor', '0'],
    [
      'billable_value beyond what a meter holds',
      { period_consumption: { billable_value: 2e12, weighted_billable_value: 2e12, end_value: 3e12 } },
      'billable_value',
      '2000000000000',
    ],
    ['a reading beyond what a meter holds', { readings: [aReading({ value: 1e300 })] }, 'readings.value', '1e+300'],
    ['a non-finite billable_value', { period_consumption: { billable_value: Infinity, weighted_billable_value: 10 } }, 'billable_value', '∞'],
    ['a NaN end_value', { period_consumption: { end_value: NaN } }, 'end_value', 'NaN (not a number)'],
  ])('%s: billed 0, finding names the field and what was received', (_, seg, field, received) => {
    const { bill, value } = billSegments([seg]);
    expect(value).toBe('0');
    const flag = bill.flags.find((f) => f.code === 'IMPLAUSIBLE_VALUE');
    expect(flag).toMatchObject({ severity: 'not_billed', facts: expect.objectContaining({ field, received }) });
    expect(bill.billing[0]!.review_flags).toContain('IMPLAUSIBLE_VALUE');
    expect(bill.segments[0]!.billed_value).toBe('0');
    expect(() => renderAll(bill)).not.toThrow();
    expect(renderAll(bill)).not.toMatch(/Infinity|NaN/);
  });

  it('the message says what was received and what to do, in English and German', () => {
    const { bill } = billSegments([{ period_consumption: { billable_value: -5.5, weighted_billable_value: -5.5, end_value: 94.5 } }]);
    const flag = bill.flags.find((f) => f.code === 'IMPLAUSIBLE_VALUE')!;
    expect(flagMessage(flag, 'en')).toMatch(
      /^Impossible value from the metering service: not billed \(device: SN-\d+, field: billable_value, received: -5\.5\)\. .*not billed \(counted as 0\)\. Ask the metering service/,
    );
    expect(flagMessage(flag, 'de')).toMatch(
      /^Unplausibler Wert vom Messdienst: nicht abgerechnet \(Gerät: SN-\d+, Feld: billable_value, geliefert: -5,5\)\. .*mit 0 angesetzt.*Messdienst prüfen/,
    );
  });

  it('a reading that cannot be right names its date as a date, in German as dd.mm.yyyy and without English words', () => {
    const { bill } = billSegments([{ readings: [aReading({ value: 1e300 })] }]);
    const flag = bill.flags.find((f) => f.code === 'IMPLAUSIBLE_VALUE')!;
    expect(flag.facts).toMatchObject({ field: 'readings.value', reading_date: '2025-12-31' });
    expect(flagMessage(flag, 'de')).toContain('Ablesewert vom: 31.12.2025');
    expect(flagMessage(flag, 'de')).not.toMatch(/reading /);
    expect(flagMessage(flag, 'en')).toContain('reading of: 2025-12-31');
  });

  it('two segments of 1e308 sum to nothing billed, and no row or cell holds Infinity', () => {
    const huge = { period_consumption: { billable_value: 1e308, weighted_billable_value: 1e308, end_value: 1e308 } };
    const { bill, value } = billSegments([
      { ...huge, installed_at: '2020-01-01', deinstalled_at: '2025-06-01' },
      { ...huge, installed_at: '2025-06-01' },
    ]);
    expect(value).toBe('0');
    expect(codes(bill.flags).filter((c) => c === 'IMPLAUSIBLE_VALUE').length).toBeGreaterThanOrEqual(2);
    // What the service sent is named in the finding, never written as a number cell.
    expect(bill.segments.map((s) => [s.billable_value, s.weighted_billable_value, s.end_value])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(renderAll(bill)).not.toMatch(/Infinity|NaN|e\+/);
  });

  it('a plausible segment next to an implausible one is still billed', () => {
    const { bill, value } = billSegments([
      { installed_at: '2020-01-01', deinstalled_at: '2025-06-01', period_consumption: { billable_value: -1, weighted_billable_value: -1, end_value: 99 } },
      { installed_at: '2025-06-01' },
    ]);
    expect(value).toBe('10');
    expect(bill.segments.map((s) => s.billed_value)).toEqual(['0', '10']);
  });

  it('plant-room points: a negative billable_value is not billed either', () => {
    const plant = aPlantPoint({
      consumption: { segments: [aSegment({ period_consumption: { billable_value: -500, end_value: 1500, weighted_billable_value: undefined } })] },
    });
    const bill = billPlantPoint({ property: PROPERTY, ...plant });
    expect(bill.row.billable_value).toBe('0');
    expect(codes(bill.flags)).toContain('IMPLAUSIBLE_VALUE');
  });

  it('a value at the limit and a zero consumption are plausible', () => {
    expect(
      billSegments([{ period_consumption: { billable_value: METER_LIMIT - 100, weighted_billable_value: METER_LIMIT - 100, end_value: METER_LIMIT } }]).value,
    ).toBe('999999999900');
    expect(billSegments([{ baseline_value: 110, period_consumption: { billable_value: 0, weighted_billable_value: 0, end_value: 110 } }]).bill.flags).toEqual(
      [],
    );
  });

  it('values of a segment that is not billed anyway are not shown as numbers when no cell can hold them', () => {
    const { bill } = billSegments([{ period_consumption: { status: 'missing', billable_value: 1e308, end_value: 1e308, weighted_billable_value: undefined } }]);
    expect(codes(bill.flags)).toEqual(['IMPLAUSIBLE_VALUE', 'IMPLAUSIBLE_VALUE', 'MISSING_VALUE']);
    expect(bill.flags.find((f) => f.code === 'MISSING_VALUE')!.facts).toMatchObject({ delivered_value: '1e+308' });
    expect(renderAll(bill)).not.toMatch(/Infinity|e\+/);
  });
});

describe('unit_share outside (0, 1] is not billed (IMPLAUSIBLE_SHARE)', () => {
  it.each([0, -0.25, 1.5, 40])('unit_share %s: every segment of the point billed 0, one finding on the point', (share) => {
    const { bill, value } = billSegments([{ installed_at: '2020-01-01', deinstalled_at: '2025-06-01' }, { installed_at: '2025-06-01' }], share);
    expect(value).toBe('0');
    const found = bill.flags.filter((f) => f.code === 'IMPLAUSIBLE_SHARE');
    expect(found).toEqual([
      expect.objectContaining({ severity: 'not_billed', device_id: null, facts: { field: 'unit_share', received: String(share === -0.25 ? '-0.25' : share) } }),
    ]);
    expect(codes(bill.flags)).not.toContain('WEIGHTED_VALUE_MISMATCH');
  });

  it('the message names the range a share must lie in without ambiguity, in English and German', () => {
    const flag = billSegments([{}], 1.5).bill.flags.find((f) => f.code === 'IMPLAUSIBLE_SHARE')!;
    expect(flagMessage(flag, 'en')).toMatch(
      /^Impossible share of a shared meter: not billed \(field: unit_share, received: 1\.5\)\. .*outside the possible range \(more than 0 up to 1/,
    );
    expect(flagMessage(flag, 'de')).toMatch(
      /^Unplausibler Anteil an einem gemeinsamen Zähler: nicht abgerechnet \(Feld: unit_share, geliefert: 1,5\)\. .*außerhalb des möglichen Bereichs .*größer als 0 bis höchstens 1/,
    );
  });

  it('a share of exactly 1 and one just above 0 are billed', () => {
    expect(billSegments([{}], 1).value).toBe('10');
    expect(billSegments([{ period_consumption: { billable_value: 10, weighted_billable_value: 0.001 } }], 0.0001).value).toBe('0.001');
  });
});

describe('weighted_billable_value that is not billable_value × unit_share (WEIGHTED_VALUE_MISMATCH)', () => {
  it('beyond rounding: not billed, the finding shows both values', () => {
    const { bill, value } = billSegments([{ period_consumption: { billable_value: 10, weighted_billable_value: 6 } }], 0.5);
    expect(value).toBe('0');
    expect(bill.flags.find((f) => f.code === 'WEIGHTED_VALUE_MISMATCH')).toMatchObject({
      severity: 'not_billed',
      facts: { received: '6', expected: '5', unit_share: '0.5' },
    });
  });

  it('within the rounding of the values as sent: billed as sent', () => {
    // 10.001 × 1/3 = 3.33366..., sent rounded to 3 decimals
    expect(billSegments([{ period_consumption: { billable_value: 10.001, weighted_billable_value: 3.334 } }], 1 / 3).value).toBe('3.334');
    // the server's float product
    expect(billSegments([{ period_consumption: { billable_value: 33.3, weighted_billable_value: 33.3 * 0.3 } }], 0.3).bill.flags).toEqual([]);
    // a whole-number weighted value is rounding to whole units
    expect(billSegments([{ period_consumption: { billable_value: 10.8, weighted_billable_value: 5 } }], 0.5).value).toBe('5');
    expect(billSegments([{ period_consumption: { billable_value: 10.8, weighted_billable_value: 5.1 } }], 0.5).value).toBe('0');
  });

  it('a share of 1/3 sent rounded (0.3333) while the service weighted with the exact third: billed as sent', () => {
    // 12345.678 / 3 = 4115.226; 12345.678 × 0.3333 = 4114.81 (the share sum 0.9999 is within SHARE_TOLERANCE too)
    const seg = { baseline_value: 10000, period_consumption: { billable_value: 12345.678, weighted_billable_value: 4115.226, end_value: 22345.678 } };
    const { bill, value } = billSegments([seg], 0.3333);
    expect(value).toBe('4115.226');
    expect(bill.flags).toEqual([]);
  });

  it('the share rounding allowed is at most what the share sum check allows: beyond it still not billed', () => {
    // 4120 is not 12345.678 × 1/3 under any rounding of 0.3333
    expect(
      billSegments([{ baseline_value: 10000, period_consumption: { billable_value: 12345.678, weighted_billable_value: 4120, end_value: 22345.678 } }], 0.3333)
        .value,
    ).toBe('0');
    // "0.5" is taken as exactly one half, not as anything from 0.45 to 0.55
    expect(billSegments([{ period_consumption: { billable_value: 10, weighted_billable_value: 5.4 } }], 0.5).value).toBe('0');
  });
});

describe('findings say what happened in the range', () => {
  const spring = { from: '2025-03-01', to: '2025-05-31' };
  // a device in place at the range's end was read then (one reading per month end)
  const mayEnd = aReading({ at: '2025-05-31' });

  it('a device replaced on 15 June raises neither DEVICE_REPLACED nor DEVICE_REMOVED for March-May', () => {
    const seg = aSegment({ installed_at: '2019-01-01', deinstalled_at: '2025-06-15', replacement_reason: 'DeviceReplacement', readings: [mayEnd] });
    const bill = billOne([aPointConsumption({ segments: [seg] })], spring);
    expect(codes(bill.flags)).toEqual([]);
    expect(bill.billing[0]).toMatchObject({ billable_value: '10', review_flags: [] });
  });

  it('a device removed after the range raises no DEVICE_REMOVED; removed inside it, it does', () => {
    const removal = (at: string) =>
      aSegment({
        installed_at: '2019-01-01',
        deinstalled_at: at,
        replacement_reason: 'DeviceRemoval',
        readings: [aReading({ at: at < '2025-05-31' ? '2025-04-30' : '2025-05-31' })],
      });
    expect(codes(billOne([aPointConsumption({ segments: [removal('2025-07-01')] })], spring).flags)).toEqual([]);
    expect(codes(billOne([aPointConsumption({ segments: [removal('2025-05-20')] })], spring).flags)).toEqual(['DEVICE_REMOVED']);
  });

  it('plant-room points use the Property range for the same rule', () => {
    const plant = aPlantPoint({
      consumption: {
        segments: [
          aSegment({
            deinstalled_at: '2025-06-15',
            replacement_reason: 'DeviceReplacement',
            readings: [{ ...mayEnd, value: 105 }],
            period_consumption: { billable_value: 5, end_value: 105, weighted_billable_value: undefined },
          }),
        ],
      },
    });
    const bill = billProperty(aPropertyInput({ range: spring, plantPoints: [plant] }));
    expect(codes(bill.flags)).toEqual(['UNALLOCATED_POINT']);
  });

  it('a replacement inside the range is DEVICE_REPLACED only, never also "removed without replacement"', () => {
    const seg = aSegment({ installed_at: '2019-01-01', deinstalled_at: '2025-04-15', replacement_reason: 'DeviceReplacement' });
    expect(codes(billOne([aPointConsumption({ segments: [seg] })], spring).flags)).toEqual(['DEVICE_REPLACED']);
  });

  it('DATA_GAP bills 0, so it is review, not info', () => {
    expect(BILLING_SEVERITY.DATA_GAP).toBe('review');
    const bill = billOne([aPointConsumption({ data_gap: true, segments: [] })]);
    expect(bill.flags).toEqual([expect.objectContaining({ code: 'DATA_GAP', severity: 'review' })]);
  });
});

describe('the writers refuse what a workbook cannot hold', () => {
  it.each<[string, string | number]>([
    ['Infinity', Infinity],
    ['NaN', NaN],
    ['2e308 as a plain decimal string', `2${'0'.repeat(308)}`],
    ['a finite number beyond the largest cell number', '9.999999999999999e307'],
  ])('%s', (_, v) => {
    expect(() => plainNumber(v)).toThrow(/spreadsheet cell/);
  });

  it('ordinary values are written as before', () => {
    expect(plainNumber('12.50')).toBe('12.50');
    expect(plainNumber(1e-7)).toBe('0.0000001');
    expect(plainNumber('-0')).toBe('0');
  });
});

describe('a billable value other than the register gives ((end - start) x K-factor): billed as sent, with a hint (BILLABLE_VALUE_DIFFERS, review)', () => {
  it('a register that did not move with 5000 to bill: billed, the hint names both figures, in English and German', () => {
    const { bill, value } = billSegments([
      { baseline_value: 100, period_consumption: { end_value: 100, billable_value: 5000, weighted_billable_value: 5000 } },
    ]);
    expect(value).toBe('5000');
    const flag = bill.flags.find((f) => f.code === 'BILLABLE_VALUE_DIFFERS')!;
    expect(flag).toMatchObject({ severity: 'review', facts: { received: '5000', meter_difference: '0' } });
    expect(bill.billing[0]!.review_flags).toContain('BILLABLE_VALUE_DIFFERS');
    expect(flagMessage(flag, 'en')).toMatch(
      /^Billable value differs from the meter's start and end values \(device: SN-\d+, received: 5000, \(end value − start value\) × factor: 0\)\. The billable value .*meterdata bills/,
    );
    expect(flagMessage(flag, 'de')).toMatch(
      /^Abrechenbarer Wert weicht von Anfangs- und Endstand ab \(Gerät: SN-\d+, geliefert: 5000, \(Endstand − Anfangsstand\) × Faktor: 0\)\./,
    );
  });

  it("no hint where the value is the register's up to the rounding of what was sent (a K-factor of 0.85, three decimals) or is not billed", () => {
    const hints = (seg: SegmentOverrides) => billSegments([seg]).bill.flags.filter((f) => f.code === 'BILLABLE_VALUE_DIFFERS');
    expect(
      hints({ factor: 0.85, baseline_value: 20.123, period_consumption: { end_value: 120.456, billable_value: 85.283, weighted_billable_value: 85.283 } }),
    ).toEqual([]);
    expect(hints({ factor: 1.5, baseline_value: 20, period_consumption: { end_value: 120, billable_value: 150, weighted_billable_value: 150 } })).toEqual([]);
    expect(
      hints({ baseline_value: 100, period_consumption: { status: 'missing', end_value: 100, billable_value: 5000, weighted_billable_value: 5000 } }),
    ).toEqual([]);
    // 0.1 off a value sent with three decimals is more than rounding
    expect(
      hints({ factor: 0.85, baseline_value: 20.123, period_consumption: { end_value: 120.456, billable_value: 85.383, weighted_billable_value: 85.383 } }),
    ).toHaveLength(1);
  });
});
