// Every flag: when it is raised, at which level, how rows carry it, and its texts.
import { describe, expect, it } from 'vitest';
import { billProperty, billUnit, dec, flagText, formatDecimal, reviewRows, type Flag } from '../../src/billing/index.js';
import { FLAG_CODES, FLAG_SEVERITY } from '../../src/findings/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, sharedCopies } from '../helpers/builders.js';

function billOne(points: Parameters<typeof aUnitEntry>[1], unitOverrides = {}) {
  const { unit, consumption } = aUnitEntry('WE 01', points, unitOverrides);
  return billUnit({ property: PROPERTY, unit, consumption });
}
const codes = (flags: Flag[]) => flags.map((f) => f.code);

describe('segment flags carry the device', () => {
  it('ASSUMED_ZERO_BASELINE: counts, but needs review', () => {
    const seg = aSegment({ baseline_origin: 'assumed_zero', baseline_value: 0, period_consumption: { weighted_billable_value: 33 } });
    const bill = billOne([aPointConsumption({ metric: 'hca', unit: 'unit', segments: [seg] })]);
    expect(bill.billing[0]).toMatchObject({ billable_value: '33', review_flags: ['ASSUMED_ZERO_BASELINE'] });
    expect(bill.flags).toEqual([
      expect.objectContaining({ code: 'ASSUMED_ZERO_BASELINE', severity: 'review', device_id: seg.device_id, usage_unit_id: bill.billing[0]!.usage_unit_id }),
    ]);
  });

  it('DEVICE_REPLACED on every segment of a point with more than one, DEVICE_REMOVED on a last segment with a removal date', () => {
    const first = aSegment({ installed_at: '2019-01-01', deinstalled_at: '2025-04-30' });
    const second = aSegment({ installed_at: '2025-04-30', deinstalled_at: '2025-10-15' });
    const bill = billOne([aPointConsumption({ segments: [second, first] })]);
    expect(bill.segments.map((s) => s.review_flags)).toEqual([['DEVICE_REPLACED'], ['DEVICE_REMOVED', 'DEVICE_REPLACED']]);
    expect(bill.flags.find((f) => f.code === 'DEVICE_REMOVED')).toMatchObject({ device_id: second.device_id, facts: { deinstalled_at: '2025-10-15' } });
  });

  it('DEVICE_REPLACED from replacement_reason alone, DEVICE_REMOVED from DeviceRemoval alone', () => {
    expect(codes(billOne([aPointConsumption({ segments: [aSegment({ replacement_reason: 'DeviceReplacement' })] })]).flags)).toEqual(['DEVICE_REPLACED']);
    expect(codes(billOne([aPointConsumption({ segments: [aSegment({ replacement_reason: 'DeviceRemoval' })] })]).flags)).toEqual(['DEVICE_REMOVED']);
  });

  it('SYNTHETIC_VALUE once per segment for synthetic or calculated readings', () => {
    const seg = aSegment({
      readings: [
        aReading({ at: '2025-10-31', is_synthetic: true, status: 'calculated', substitution_method: 'degree_day_weighted' }),
        aReading({ at: '2025-11-30', is_synthetic: true, status: 'calculated', substitution_method: 'degree_day_weighted' }),
        aReading({ at: '2025-12-31' }),
      ],
    });
    const bill = billOne([aPointConsumption({ segments: [seg] })]);
    expect(bill.flags).toEqual([expect.objectContaining({ code: 'SYNTHETIC_VALUE', device_id: seg.device_id, facts: { serial: seg.serial, readings: '2' } })]);
  });

  it('SYNTHETIC_VALUE only where the segment is billed: synthetic readings of a calibration_expired or missing segment are not "billed as delivered"', () => {
    const synthetic = [
      aReading({ at: '2025-08-31', is_synthetic: true, status: 'calibration_expired', substitution_method: null }),
      aReading({ at: '2025-12-31', status: 'calibration_expired' }),
    ];
    const expired = aSegment({ readings: synthetic, period_consumption: { status: 'calibration_expired', billable_value: 0 } });
    expect(codes(billOne([aPointConsumption({ segments: [expired] })]).flags)).toEqual(['CALIBRATION_EXPIRED']);
    const missing = aSegment({
      readings: [aReading({ at: '2025-11-30', is_synthetic: true, status: 'calculated', substitution_method: 'linear_interpolation' })],
      period_consumption: { status: 'missing' },
    });
    expect(codes(billOne([aPointConsumption({ segments: [missing] })]).flags)).toEqual(['MISSING_VALUE']);
    const measured = aSegment({ readings: synthetic.map((r) => ({ ...r, status: 'measured' })), period_consumption: { status: 'measured' } });
    expect(codes(billOne([aPointConsumption({ segments: [measured] })]).flags)).toEqual(['SYNTHETIC_VALUE']);
  });

  it('CALIBRATION_EXPIRED names § 9a HeizkostenV only for heating and warm water, which the HeizkostenV covers, in both languages', () => {
    const expired = () => aSegment({ period_consumption: { status: 'calibration_expired', billable_value: 12 } });
    const message = (metric: string, lang: 'en' | 'de') => {
      const flag = billOne([aPointConsumption({ metric, segments: [expired()] })]).flags.find((f) => f.code === 'CALIBRATION_EXPIRED')!;
      return reviewRows([flag], lang)[0]!.message;
    };
    for (const lang of ['en', 'de'] as const) {
      for (const metric of ['water_cold', 'water_outdoor', 'electricity', 'gas'])
        expect(message(metric, lang), `${metric} ${lang}`).not.toMatch(/§|HeizkostenV/);
      for (const metric of ['heat', 'hca', 'water_warm']) expect(message(metric, lang), `${metric} ${lang}`).toMatch(/§ 9a (Abs\. 1|\(1\)) HeizkostenV/);
    }
    // The metric that picks the text is not printed as a fact: the review row names the meter's metric in its own column.
    expect(message('heat', 'de')).toMatch(
      /^Eichfrist abgelaufen: Wert darf nicht abgerechnet werden \(Gerät: [^,()]+, gelieferter Wert, nicht abgerechnet: 12\)\. /,
    );
  });

  it('WEIGHTED_VALUE_ABSENT only where the fallback is actually used', () => {
    const absent = aSegment({ deinstalled_at: '2025-06-01', period_consumption: { weighted_billable_value: undefined } });
    const absentButMissing = aSegment({ installed_at: '2025-06-01', period_consumption: { weighted_billable_value: undefined, status: 'missing' } });
    const bill = billOne([aPointConsumption({ segments: [absent, absentButMissing] })]);
    expect(codes(bill.flags).sort()).toEqual(['DEVICE_REPLACED', 'DEVICE_REPLACED', 'MISSING_VALUE', 'WEIGHTED_VALUE_ABSENT']);
    expect(bill.flags.find((f) => f.code === 'WEIGHTED_VALUE_ABSENT')).toMatchObject({
      device_id: absent.device_id,
      facts: { serial: absent.serial, unit_share: '1' },
    });
  });
});

describe('UNKNOWN_ENUM_VALUE for every open enum', () => {
  it.each([
    ['baseline_origin', aPointConsumption({ segments: [aSegment({ baseline_origin: 'estimated' })] })],
    ['replacement_reason', aPointConsumption({ segments: [aSegment({ replacement_reason: 'Vandalism' })] })],
    ['substitution_method', aPointConsumption({ segments: [aSegment({ readings: [aReading({ substitution_method: 'magic' })] })] })],
    ['reading_status', aPointConsumption({ segments: [aSegment({ readings: [aReading({ status: 'odd' }), aReading({ at: '2025-11-30', status: 'odd' })] })] })],
    ['unit', aPointConsumption({ unit: 'MWh' })],
    ['metric', aPointConsumption({ metric: 'steam' })],
  ])('%s: flagged once with field and value, value still counted', (field, point) => {
    const bill = billOne([point]);
    const unknown = bill.flags.filter((f) => f.code === 'UNKNOWN_ENUM_VALUE');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.facts!.field).toBe(field);
    expect(unknown[0]!.device_id === null).toBe(field === 'unit' || field === 'metric');
    expect(bill.billing[0]!.billable_value).toBe('10');
  });

  it('unit_type: a unit-level flag carried by every row of the unit', () => {
    const bill = billOne([aPointConsumption(), aPointConsumption({ metric: 'water_cold', unit: 'm3' })], { unit_type: 'storage' });
    expect(bill.flags).toEqual([
      expect.objectContaining({ code: 'UNKNOWN_ENUM_VALUE', measuring_point_id: null, facts: { field: 'unit_type', value: 'storage' } }),
    ]);
    expect(bill.billing.map((r) => r.review_flags)).toEqual([['UNKNOWN_ENUM_VALUE'], ['UNKNOWN_ENUM_VALUE']]);
  });

  it('known values raise nothing', () => {
    const seg = aSegment({ baseline_origin: 'month_end_before_range', replacement_reason: null, readings: [aReading({ substitution_method: null })] });
    expect(billOne([aPointConsumption({ metric: 'gas', unit: 'm3', segments: [seg] })]).flags).toEqual([]);
  });
});

describe('SHARE_SUM_MISMATCH', () => {
  const property = (shares: number[]) => billProperty(aPropertyInput({ units: sharedCopies(90, shares).map((p, i) => aUnitEntry(`WE ${i}`, [p])) }));

  it('flags every unit of a shared point whose shares do not sum to 1', () => {
    const out = property([0.5, 0.4]);
    const flags = out.flags.filter((f) => f.code === 'SHARE_SUM_MISMATCH');
    expect(flags.map((f) => f.facts)).toEqual([
      { unit_share: '0.5', share_sum: '0.9', units: '2' },
      { unit_share: '0.4', share_sum: '0.9', units: '2' },
    ]);
    expect(flags.every((f) => f.severity === 'review' && f.device_id === null)).toBe(true);
    expect(out.billing.map((r) => r.review_flags)).toEqual([['SHARE_SUM_MISMATCH'], ['SHARE_SUM_MISMATCH']]);
    expect(out.segments.map((s) => s.review_flags)).toEqual([['SHARE_SUM_MISMATCH'], ['SHARE_SUM_MISMATCH']]);
  });

  it('accepts shares summing to 1 within 0.0001, and unshared points', () => {
    expect(codes(property([0.5, 0.5]).flags)).toEqual([]);
    expect(codes(property([0.33333, 0.33333, 0.33334]).flags)).toEqual([]);
    expect(codes(property([1]).flags)).toEqual([]);
  });

  it('flags a share below 1 when the other units are not in the input', () => {
    expect(codes(property([0.5]).flags)).toEqual(['SHARE_SUM_MISMATCH']);
  });

  it('a point billed in full to two units is not billed (sum above 1)', () => {
    expect(codes(property([1, 1]).flags)).toEqual(['SHARE_SUM_ABOVE_ONE', 'SHARE_SUM_ABOVE_ONE']);
  });
});

describe('rows carry their own flags only', () => {
  it('a billing row has the sorted unique codes of its unit and metric; other metrics stay clean', () => {
    const heat = aPointConsumption({
      is_system_linked: false,
      segments: [
        aSegment({ installed_at: '2019-01-01', deinstalled_at: '2025-03-01', period_consumption: { status: 'calibration_expired' } }),
        aSegment({ installed_at: '2025-03-01', baseline_origin: 'assumed_zero' }),
      ],
    });
    const bill = billOne([heat, aPointConsumption({ metric: 'water_cold', unit: 'm3' })]);
    expect(bill.billing.map((r) => [r.metric, r.review_flags])).toEqual([
      ['heat', ['ASSUMED_ZERO_BASELINE', 'CALIBRATION_EXPIRED', 'DEVICE_REPLACED', 'NOT_SYSTEM_LINKED']],
      ['water_cold', []],
    ]);
    expect(bill.segments.map((s) => s.review_flags)).toEqual([
      ['CALIBRATION_EXPIRED', 'DEVICE_REPLACED', 'NOT_SYSTEM_LINKED'],
      ['ASSUMED_ZERO_BASELINE', 'DEVICE_REPLACED', 'NOT_SYSTEM_LINKED'],
      [],
    ]);
  });

  it('plant flags name no unit', () => {
    const out = billProperty(aPropertyInput({ plantPoints: [aPlantPoint({ consumption: { metric: 'water_outdoor' } })] }));
    expect(out.plant[0]!.review_flags).toEqual(['UNALLOCATED_POINT', 'WATER_OUTDOOR']);
    expect(out.flags.every((f) => f.usage_unit_id === null)).toBe(true);
  });
});

describe('texts for the accountant', () => {
  it.each(FLAG_CODES)('%s has an English and a German title and explanation', (code) => {
    const en = flagText(code, 'en');
    const de = flagText(code, 'de');
    for (const t of [en, de]) {
      expect(t.title.length).toBeGreaterThan(10);
      expect(t.explanation.length).toBeGreaterThan(60);
    }
    expect(de.title).not.toBe(en.title);
    expect(de.explanation).not.toBe(en.explanation);
  });

  it('German uses real umlauts and says a calibration-expired value must not be billed', () => {
    const all = FLAG_CODES.map((c) => Object.values(flagText(c, 'de')).join(' ')).join(' ');
    expect(all).toMatch(/[äöüÄÖÜß]/);
    expect(all).not.toMatch(/\b(fuer|Geraet|Zaehler|ueber|Gebaeude)\b/);
    expect(flagText('CALIBRATION_EXPIRED', 'de').title).toBe('Eichfrist abgelaufen: Wert darf nicht abgerechnet werden');
  });

  it('review rows put not-billed first, then review, then info, with facts in the message', () => {
    const bill = billProperty(
      aPropertyInput({
        units: [
          aUnitEntry('WE 01', [
            aPointConsumption({ metric: 'water_outdoor', unit: 'm3' }),
            aPointConsumption({ segments: [aSegment({ serial: '4711', period_consumption: { status: 'missing' } })] }),
            aPointConsumption({ segments: [aSegment({ period_consumption: { status: 'frozen' } })] }),
          ]),
        ],
      }),
    );
    const rows = reviewRows(bill.flags, 'de');
    expect(rows.map((r) => r.severity)).toEqual(['not_billed', 'review', 'info']);
    expect(rows[0]!.message).toBe(
      `Wert fehlt: nicht abgerechnet (Gerät: 4711, gelieferter Wert, nicht abgerechnet: 10). ${flagText('MISSING_VALUE', 'de').explanation}`,
    );
    expect(reviewRows(bill.flags, 'en')[1]!.message).toMatch(/^Unknown value from the metering service \(field: status, value: frozen\)\. /);
    expect(rows.every((r) => FLAG_SEVERITY[r.code] === r.severity)).toBe(true);
  });

  it('German messages write decimals with a comma', () => {
    const out = billProperty(aPropertyInput({ units: sharedCopies(90, [0.5, 0.4]).map((p, i) => aUnitEntry(`WE ${i}`, [p])) }));
    expect(reviewRows(out.flags, 'de')[0]!.message).toContain('(Anteil dieser Einheit: 0,5, Summe der Anteile: 0,9, Einheiten: 2)');
  });

  it('German messages write dates as dd.mm.yyyy, English ones keep ISO dates', () => {
    const seg = aSegment({ serial: '0815', baseline_origin: 'assumed_zero', baseline_date: '2025-03-12' });
    const out = billProperty(aPropertyInput({ units: [aUnitEntry('WE 08', [aPointConsumption({ segments: [seg] })])] }));
    const flag = out.flags.filter((f) => f.code === 'ASSUMED_ZERO_BASELINE');
    expect(reviewRows(flag, 'de')[0]!.message).toContain('(Gerät: 0815, Stichtag: 12.03.2025)');
    expect(reviewRows(flag, 'en')[0]!.message).toContain('(device: 0815, start date: 2025-03-12)');
  });

  it('WEIGHTED_VALUE_ABSENT says what was billed and why', () => {
    const seg = aSegment({ serial: 'SN-1', period_consumption: { weighted_billable_value: undefined } });
    const out = billProperty(aPropertyInput({ units: [aUnitEntry('WE 14', [aPointConsumption({ unit_share: 0.6, segments: [seg] })])] }));
    const flag = out.flags.filter((f) => f.code === 'WEIGHTED_VALUE_ABSENT');
    const en = reviewRows(flag, 'en')[0]!.message;
    expect(en).toMatch(/^No weighted value sent: billed the billable value × this unit's share \(device: SN-1, share of this unit: 0\.6\)\. /);
    expect(en).toContain('how the contract defines the weighted value');
    expect(en).toContain('would charge a shared meter in full to every unit');
    expect(reviewRows(flag, 'de')[0]!.message).toMatch(/abrechenbarer Wert × Anteil dieser Einheit abgerechnet \(Gerät: SN-1, Anteil dieser Einheit: 0,6\)/);
    expect(out.billing[0]!.billable_value).toBe(formatDecimal(dec(seg.period_consumption.billable_value).times(0.6)));
  });
});
