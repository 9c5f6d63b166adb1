// A device's installation window against the billing period: a segment whose device was not
// installed at any time in the range (removed before it, installed after it, removed before it was
// installed) is not this period's consumption, also when it is the point's only segment.
import { describe, expect, it } from 'vitest';
import { billUnit, flagMessage } from '../../src/billing/index.js';
import { PROPERTY, aPointConsumption, aReading, aSegment, aUnitEntry, type SegmentOverrides } from '../helpers/builders.js';

const billAlone = (seg: Parameters<typeof aSegment>[0]) => {
  const { unit, consumption } = aUnitEntry('WE 01', [
    aPointConsumption({
      metric: 'water_cold',
      unit: 'm3',
      segments: [aSegment({ serial: 'KWZ-1', ...seg, period_consumption: { billable_value: 41.394, weighted_billable_value: 41.394, end_value: 141.394 } })],
    }),
  ]);
  return billUnit({ property: PROPERTY, unit, consumption: { ...consumption, from: '2025-01-01', to: '2025-12-31' } });
};

describe('the only segment of a point, its device not installed in the billing period', () => {
  it.each<[string, SegmentOverrides]>([
    ['removed before the period', { installed_at: '2019-05-14', deinstalled_at: '2024-06-30', readings: [aReading({ at: '2024-06-30' })] }],
    ['installed after the period', { installed_at: '2026-03-01', baseline_date: '2026-03-01', readings: [] }],
    ['removed before it was installed', { installed_at: '2025-06-15', deinstalled_at: '2020-01-01', readings: [] }],
  ])('%s: not billed, SEGMENT_OUTSIDE_RANGE naming the device and its dates', (_, seg) => {
    const bill = billAlone(seg);
    expect(bill.billing[0]!.billable_value).toBe('0');
    expect(bill.flags.filter((f) => f.severity === 'not_billed')).toEqual([
      expect.objectContaining({
        code: 'SEGMENT_OUTSIDE_RANGE',
        facts: { serial: 'KWZ-1', installed_at: seg.installed_at, deinstalled_at: seg.deinstalled_at ?? '' },
      }),
    ]);
  });

  it('says so in German with German dates', () => {
    const flag = billAlone({ installed_at: '2019-05-14', deinstalled_at: '2024-06-30', readings: [aReading({ at: '2024-06-30' })] }).flags.find(
      (f) => f.code === 'SEGMENT_OUTSIDE_RANGE',
    )!;
    expect(flagMessage(flag, 'de')).toMatch(
      /^Zähler im Abrechnungszeitraum nicht eingebaut: nicht abgerechnet \(Gerät: KWZ-1, eingebaut am: 14\.05\.2019, ausgebaut am: 30\.06\.2024\)\. .*mit 0 angesetzt/,
    );
    expect(flagMessage(flag, 'en')).toMatch(
      /^Device not installed in the billing period: not billed \(device: KWZ-1, installed on: 2019-05-14, removed on: 2024-06-30\)/,
    );
  });

  it('a device installed at any time in the period is billed: removed on its first day, installed on its last, installed before and still in place', () => {
    for (const seg of [
      { installed_at: '2019-05-14', deinstalled_at: '2025-01-01', readings: [] },
      { installed_at: '2025-12-31', readings: [aReading({ at: '2025-12-31', value: 141.394 })] },
      { installed_at: '2019-05-14' },
      { installed_at: null, baseline_date: '2024-12-31' },
    ])
      expect([billAlone(seg).billing[0]!.billable_value, billAlone(seg).flags.filter((f) => f.severity === 'not_billed')]).toEqual(['41.394', []]);
  });
});
