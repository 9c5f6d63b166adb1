// Days between one device's removal and the next one's installation were measured by no device:
// the year is billed from the two devices, with a review finding naming the days (src/billing/gaps.ts).
import { describe, expect, it } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { flagMessage } from '../../src/billing/findings.js';
import type { DeviceSegment } from '../../src/api/types.js';
import { PROPERTY, RANGE, aPointConsumption, aReading, aSegment, aUnitEntry, pointListOf } from '../helpers/builders.js';

const bill = (segments: DeviceSegment[], metric = 'water_cold', unit = 'm3') => {
  const e = aUnitEntry('WE 01', [aPointConsumption({ metric, unit, segments })]);
  const b = billProperty({ property: PROPERTY, range: RANGE, units: [e], plantPoints: [], points: pointListOf({ property: PROPERTY, units: [e] }) });
  return { value: b.billing[0]!.billable_value, flags: b.flags.filter((f) => f.code === 'DEVICE_GAP'), all: b.flags };
};
const old = (removed: string) =>
  aSegment({
    serial: 'ALT-1',
    installed_at: '2019-01-01',
    deinstalled_at: removed,
    replacement_reason: 'DeviceReplacement',
    readings: [aReading({ at: '2025-03-31', value: 130 })],
    period_consumption: { end_value: 130, billable_value: 30, weighted_billable_value: 30 },
  });
const next = (installed: string | null, baselineDate = installed ?? '') =>
  aSegment({
    serial: 'NEU-1',
    installed_at: installed,
    baseline_value: 0,
    baseline_date: baselineDate,
    readings: [aReading({ at: '2025-12-31', value: 20 })],
    period_consumption: { end_value: 20, billable_value: 20, weighted_billable_value: 20 },
  });

describe('an unmeasured stretch between two devices', () => {
  it('removed 31 March, next installed 1 October: billed 50 with a review finding for 1 April to 30 September', () => {
    const { value, flags } = bill([old('2025-03-31'), next('2025-10-01')]);
    expect(value).toBe('50');
    expect(flags.map((f) => [f.severity, f.facts])).toEqual([
      ['review', { serial: 'ALT-1', gap_from: '2025-04-01', gap_to: '2025-09-30', point_metric: 'water_cold' }],
    ]);
  });

  it('an undocumented successor first known on 31 October: the gap runs to 30 October', () => {
    const { flags } = bill([old('2025-03-31'), next(null, '2025-10-31')]);
    expect(flags.map((f) => [f.facts?.gap_from, f.facts?.gap_to])).toEqual([['2025-04-01', '2025-10-30']]);
    // its installation is nobody's word: the text names its first known value as the other end
    expect(flagMessage(flags[0]!, 'de')).toMatch(/wo dessen Einbau nicht dokumentiert ist, seinem ersten bekannten Stand/);
    expect(flagMessage(flags[0]!, 'en')).toMatch(/where its installation is not documented its first known value/);
  });

  it('a successor installed on the removal day or the next day leaves no gap', () => {
    for (const installed of ['2025-03-31', '2025-04-01']) expect(bill([old('2025-03-31'), next(installed)]).flags).toEqual([]);
  });

  it('one day between removal and installation is a gap of that day; a removal date that is no date throws nothing', () => {
    const late = (removed: string) => ({ ...old(removed), readings: [aReading({ at: '2025-11-30', value: 130 })] });
    expect(bill([late('2025-12-29'), next('2025-12-31')]).flags.map((f) => [f.facts?.gap_from, f.facts?.gap_to])).toEqual([['2025-12-30', '2025-12-30']]);
    expect(() => bill([old('2025-99-99'), next('2025-10-01')])).not.toThrow();
  });

  it('heating names § 9a Abs. 1 HeizkostenV in German; cold water names no paragraph', () => {
    const [heat] = bill([old('2025-03-31'), next('2025-10-01')], 'heat', 'kWh').flags;
    expect(flagMessage(heat!, 'de')).toMatch(/nicht erfasst vom: 01\.04\.2025, nicht erfasst bis: 30\.09\.2025.*§ 9a Abs\. 1 HeizkostenV/);
    const [cold] = bill([old('2025-03-31'), next('2025-10-01')]).flags;
    expect(flagMessage(cold!, 'en')).not.toMatch(/HeizkostenV/);
  });
});
