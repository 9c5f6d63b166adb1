// The plausibility rules from German law (issue 21): calibration periods as MessEV Anlage 7 reads
// since 03.11.2021, § 9a (2) HeizkostenV by floor area for heating and warm water only, and
// the findings' facts in the reader's words and number format.
import { describe, expect, it } from 'vitest';
import { flagMessage, reviewRows, type SegmentRow } from '../../src/billing/index.js';
import { makeFlag } from '../../src/findings/index.js';
import { parseReviewArgs } from '../../src/export/options/review-options.js';
import { calibrationFlags, devicesOf, estimatedAreas, reviewProperty, type CurrentFigure, type DeviceFact } from '../../src/plausibility/index.js';

const P = '00000000-0000-4000-8000-000000000001';
const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const range = { from: '2025-01-01', to: '2025-12-31' };
const opts = { threshold: '25', range };

function fig(n: number, over: Partial<CurrentFigure> = {}): CurrentFigure {
  return {
    kind: 'unit',
    property_id: P,
    property_name: 'Haus',
    usage_unit_id: uid(n),
    usage_unit_name: `WE ${String(n).padStart(2, '0')}`,
    unit_type: 'residential',
    measuring_point_id: null,
    metric: 'heat',
    unit: 'kWh',
    value: '1000',
    flags: [],
    area_m2: 70,
    active_whole_range: true,
    estimated_value: '0',
    ...over,
  };
}
const device = (over: Partial<DeviceFact> = {}): DeviceFact => ({
  property_id: P,
  usage_unit_id: uid(1),
  measuring_point_id: uid(2),
  device_id: uid(3),
  serial: 'WMZ-1',
  metric: 'heat',
  installed_at: '2019-03-01',
  deinstalled_at: null,
  ...over,
});
const codes = (flags: { code: string }[]) => flags.map((f) => f.code);

describe('calibration periods (MessEV Anlage 7 since 03.11.2021, § 34 MessEV)', () => {
  it('a heat or warm-water meter installed in 2019 was calibrated through 2025: at most an info that the period ends, never "ended"', () => {
    for (const metric of ['heat', 'water_warm', 'water_cold']) {
      const flags = calibrationFlags([device({ metric })], range);
      expect(flags.map((f) => [f.code, f.severity, f.facts?.calibration_end])).toEqual([['CALIBRATION_ENDS_SOON', 'info', '2025-12-31']]);
    }
  });

  it('an estimate that says ended rests on the installation date, says the values are not marked expired, and never that billed values may not be billed', () => {
    const flags = calibrationFlags([device({ installed_at: '2018-06-01' })], range);
    expect(codes(flags)).toEqual(['CALIBRATION_ENDED']);
    const de = flagMessage(flags[0]!, 'de');
    const en = flagMessage(flags[0]!, 'en');
    expect(de).toMatch(/eingebaut am: 01\.06\.2018, Eichfrist in Jahren: 6, Eichfrist endet \(geschätzt\): 31\.12\.2024/);
    expect(de).toMatch(/aus dem Einbaudatum geschätzt/);
    expect(de).toMatch(/nicht als „Eichfrist abgelaufen“ gekennzeichnet/);
    expect(de).toMatch(/Messdienst das Eichjahr/);
    expect(en).toMatch(
      /estimated from its installation date.*has not marked the values as calibration expired.*Ask the metering company for the calibration year/,
    );
    expect(`${de} ${en}`).not.toMatch(/dürfen nicht abgerechnet|may not be billed|must not be billed/);
  });

  it('a device none of whose values was billed gets no CALIBRATION_ENDED, which would say they are billed as delivered', () => {
    const seg = (over: Partial<SegmentRow>): SegmentRow => ({
      property_id: P,
      usage_unit_id: uid(1),
      measuring_point_id: uid(2),
      metric: 'heat',
      unit: 'kWh',
      unit_share: '1',
      is_system_linked: true,
      data_gap: false,
      is_difference_meter: false,
      device_id: uid(3),
      serial: 'WMZ-1',
      manufacturer: 'x',
      installed_at: '2018-06-01',
      deinstalled_at: null,
      replacement_reason: null,
      factor: '1',
      baseline_value: '0',
      baseline_date: '2024-12-31',
      baseline_origin: 'recorded',
      end_value: '10',
      billable_value: '10',
      weighted_billable_value: '10',
      status: 'measured',
      billed_value: '10',
      review_flags: [],
      ...over,
    });
    const notBilled: Partial<SegmentRow>[] = [
      { status: 'missing', review_flags: ['MISSING_VALUE'] },
      { review_flags: ['SEGMENTS_OVERLAP'] },
      { review_flags: ['IMPLAUSIBLE_VALUE'] },
    ];
    for (const over of notBilled) {
      expect(calibrationFlags(devicesOf({ billing: [], plant: [], segments: [seg({ ...over, billed_value: '0' })] }), range), JSON.stringify(over)).toEqual([]);
    }
    // billed under one unit of a shared point, not under the other: the finding stands
    const shared = devicesOf({
      billing: [],
      plant: [],
      segments: [seg({ review_flags: ['IMPLAUSIBLE_SHARE'], billed_value: '0' }), seg({ usage_unit_id: uid(9) })],
    });
    expect(codes(calibrationFlags(shared, range))).toEqual(['CALIBRATION_ENDED']);
    expect(codes(calibrationFlags(devicesOf({ billing: [], plant: [], segments: [seg({})] }), range))).toEqual(['CALIBRATION_ENDED']);
  });

  it("a shared meter whose period ended concerns every unit it is billed to: the finding names the others and marks each unit's row", () => {
    const seg = (unit: number, share: string): SegmentRow => ({
      property_id: P,
      usage_unit_id: uid(unit),
      measuring_point_id: uid(2),
      metric: 'heat',
      unit: 'kWh',
      unit_share: share,
      is_system_linked: true,
      data_gap: false,
      is_difference_meter: false,
      device_id: uid(3),
      serial: 'WMZ-1',
      manufacturer: 'x',
      installed_at: '2018-06-01',
      deinstalled_at: null,
      replacement_reason: null,
      factor: '1',
      baseline_value: '0',
      baseline_date: '2024-12-31',
      baseline_origin: 'recorded',
      end_value: '10',
      billable_value: '10',
      weighted_billable_value: '5',
      status: 'measured',
      billed_value: '5',
      review_flags: [],
    });
    const devices = devicesOf({ billing: [], plant: [], segments: [seg(1, '0.6'), seg(4, '0.4')] });
    const { rows, flags } = reviewProperty({ current: [fig(1), fig(4)], devices, comparison: null }, opts);
    expect(codes(flags)).toEqual(['CALIBRATION_ENDED']);
    expect(rows.map((r) => [r.usage_unit_name, r.checks])).toEqual([
      ['WE 01', ['CALIBRATION_ENDED']],
      ['WE 04', ['CALIBRATION_ENDED']],
    ]);
    expect(flagMessage(flags[0]!, 'de')).toMatch(/\(Gerät: WMZ-1, .*auch bei: WE 04\)/);
    // a meter of one unit names no other
    expect(
      reviewProperty({ current: [fig(1), fig(4)], devices: devicesOf({ billing: [], plant: [], segments: [seg(1, '1')] }), comparison: null }, opts).flags[0]!
        .facts,
    ).not.toHaveProperty('other_units');
  });

  it('a device whose values the service marked calibration_expired gets no second, contradicting finding', () => {
    expect(calibrationFlags([device({ installed_at: '2018-06-01', expired_marked: true })], range)).toEqual([]);
    expect(
      calibrationFlags([device({ installed_at: '2018-06-01' }), device({ installed_at: '2018-06-01', usage_unit_id: uid(9), expired_marked: true })], range),
    ).toEqual([]);
    const seg = (over: Partial<SegmentRow>): SegmentRow => ({
      property_id: P,
      usage_unit_id: uid(1),
      measuring_point_id: uid(2),
      metric: 'heat',
      unit: 'kWh',
      unit_share: '0.5',
      is_system_linked: true,
      data_gap: false,
      is_difference_meter: false,
      device_id: uid(3),
      serial: 'WMZ-1',
      manufacturer: 'x',
      installed_at: '2018-06-01',
      deinstalled_at: null,
      replacement_reason: null,
      factor: '1',
      baseline_value: '0',
      baseline_date: '2024-12-31',
      baseline_origin: 'recorded',
      end_value: '10',
      billable_value: '10',
      weighted_billable_value: '5',
      status: 'measured',
      billed_value: '5',
      review_flags: [],
      ...over,
    });
    // A shared point: the first unit's segment says measured, the second's is marked expired.
    const devices = devicesOf({
      billing: [],
      plant: [],
      segments: [seg({}), seg({ usage_unit_id: uid(9), status: 'calibration_expired', review_flags: ['CALIBRATION_EXPIRED'] })],
    });
    expect(devices).toHaveLength(1);
    expect(calibrationFlags(devices, range)).toEqual([]);
  });
});

describe('§ 9a (2) HeizkostenV: the estimated units’ floor area', () => {
  it('fires where a third of the heated area is estimated, naming the area, the share and the paragraph', () => {
    // 3 units of 70 m² estimated, 6 measured: 210 of 630 m² (33.3 %), a small part of the consumption.
    const current = Array.from({ length: 9 }, (_, i) => fig(i + 1, i < 3 ? { value: '100', estimated_value: '100', estimated: true } : {}));
    const out = reviewProperty({ current, devices: [], comparison: null }, opts);
    const f = out.flags.find((x) => x.code === 'ESTIMATED_AREA_HIGH')!;
    expect(f).toMatchObject({
      severity: 'review',
      usage_unit_id: null,
      facts: {
        cost_group: 'heating',
        estimated_area: '210',
        total_area: '630',
        estimated_area_share: '33.3',
        estimated_units: 'WE 01, WE 02, WE 03',
        units_without_area: '',
      },
    });
    expect(flagMessage(f, 'de')).toMatch(
      /^Geschätzte Nutzeinheiten über 25 % der Fläche \(§ 9a Abs\. 2 HeizkostenV\) \(Kostenart: Heizung, geschätzte Fläche: 210 m², Gesamtfläche: 630 m², Flächenanteil: 33,3 %, geschätzte Nutzeinheiten: WE 01, WE 02, WE 03\)\. .*ausschließlich nach den Maßstäben für die übrigen Kosten/,
    );
    expect(out.rows.filter((r) => r.checks.includes('ESTIMATED_AREA_HIGH')).map((r) => r.usage_unit_name)).toEqual(['WE 01', 'WE 02', 'WE 03']);
    expect(codes(out.flags)).not.toContain('ESTIMATED_SHARE_HIGH');
  });

  it('does not fire where a third of the consumption but a tenth of the area is estimated; the consumption share stays an info', () => {
    // One flat of 60 m² of 600 m² is estimated and used 1500 of 4500 kWh.
    const current = [
      fig(1, { area_m2: 60, value: '1500', estimated_value: '1500', estimated: true }),
      ...Array.from({ length: 9 }, (_, i) => fig(i + 2, { area_m2: 60, value: String(3000 / 9) })),
    ];
    const out = reviewProperty({ current, devices: [], comparison: null }, opts);
    expect(codes(out.flags)).not.toContain('ESTIMATED_AREA_HIGH');
    expect(out.flags.filter((f) => f.code === 'ESTIMATED_SHARE_HIGH').map((f) => [f.severity, f.facts?.estimated_share])).toEqual([['info', '33.3']]);
  });

  it('cold water, electricity and gas get no § 9a finding, however much is estimated; the info line names no paragraph', () => {
    for (const metric of ['water_cold', 'electricity', 'gas']) {
      const current = [1, 2, 3].map((n) => fig(n, { metric, unit: 'm3', area_m2: null, estimated_value: '1000', estimated: true }));
      const out = reviewProperty({ current, devices: [], comparison: null }, opts);
      expect(codes(out.flags)).toEqual(['ESTIMATED_SHARE_HIGH']);
      expect(reviewRows(out.flags, 'de')[0]!.message).not.toMatch(/§ 9a/);
    }
  });

  it('warm water counts its own area; heat and heat cost allocators are one cost group', () => {
    const current = [
      fig(1, { metric: 'water_warm', unit: 'm3', area_m2: 50, estimated: true, estimated_value: '5' }),
      fig(2, { metric: 'water_warm', unit: 'm3', area_m2: 100 }),
      fig(1, { metric: 'hca', unit: 'unit', area_m2: 50 }),
      fig(2, { area_m2: 100, value: '0', flags: ['MISSING_VALUE'] }),
      fig(3, { metric: 'hca', unit: 'unit', area_m2: 150 }),
    ];
    const areas = estimatedAreas(current).map((a) => [a.group, a.estimatedArea.toString(), a.totalArea.toString(), a.high]);
    // Warm water: 50 of 150 m²; heating: WE 02 was not billed, 100 of 300 m².
    expect(areas).toEqual([
      ['warm_water', '50', '150', true],
      ['heating', '100', '300', true],
    ]);
  });

  it('a unit without an area is named, never counted as 0 m²', () => {
    const unknown = reviewProperty(
      { current: [fig(1, { area_m2: null, estimated: true, estimated_value: '10' }), ...[2, 3, 4, 5].map((n) => fig(n))], devices: [], comparison: null },
      opts,
    );
    const f = unknown.flags.find((x) => x.code === 'ESTIMATED_AREA_UNKNOWN');
    expect(f?.facts).toMatchObject({ units_without_area: 'WE 01', estimated_area: '0', total_area: '280' });
    expect(flagMessage(f!, 'en')).toMatch(/units without an area: WE 01/);
    expect(flagMessage(f!, 'de')).not.toMatch(/Flächenanteil:/);
    // 70 of 140 m² known are estimated, but WE 03 (measured) has no area: with 200 m² the share would be 20.6 %,
    // so "above 25 %" is not known; the finding names WE 03 and gives no share.
    const open = reviewProperty(
      { current: [fig(1, { estimated: true, estimated_value: '1' }), fig(2), fig(3, { area_m2: 0 })], devices: [], comparison: null },
      opts,
    );
    expect(codes(open.flags)).not.toContain('ESTIMATED_AREA_HIGH');
    expect(open.flags.find((x) => x.code === 'ESTIMATED_AREA_UNKNOWN')?.facts).toMatchObject({ estimated_area_share: '', units_without_area: 'WE 03' });
    // An estimated unit without an area only adds to the share: 70 of 140 m² known is above 25 % whatever its area.
    const high = reviewProperty(
      {
        current: [fig(1, { estimated: true, estimated_value: '1' }), fig(2), fig(3, { area_m2: null, estimated: true, estimated_value: '1' })],
        devices: [],
        comparison: null,
      },
      opts,
    );
    expect(high.flags.find((x) => x.code === 'ESTIMATED_AREA_HIGH')?.facts).toMatchObject({ estimated_area_share: '50.0', units_without_area: 'WE 03' });
    // A measured unit without an area below the limit by the known areas: it could only lower the share, no finding.
    const low = reviewProperty(
      {
        current: [fig(1, { estimated: true, estimated_value: '1' }), ...[2, 3, 4, 5].map((n) => fig(n)), fig(6, { area_m2: null })],
        devices: [],
        comparison: null,
      },
      opts,
    );
    expect(codes(low.flags).filter((c) => c.startsWith('ESTIMATED_AREA'))).toEqual([]);
  });

  it('a large Property lists 20 estimated units and counts the rest', () => {
    const current = Array.from({ length: 100 }, (_, i) => fig(i + 1, i < 30 ? { estimated: true, estimated_value: '1' } : {}));
    const f = reviewProperty({ current, devices: [], comparison: null }, opts).flags.find((x) => x.code === 'ESTIMATED_AREA_HIGH')!;
    expect(f.facts!.estimated_units).toMatch(/^WE 01, WE 02, .*, WE 20 \+10$/);
    expect(f.facts).toMatchObject({ estimated_area: '2100', total_area: '7000', estimated_area_share: '30.0' });
  });
});

describe('facts in the reader’s words', () => {
  const scope = { property_id: P, usage_unit_id: uid(1), measuring_point_id: null, device_id: null };
  it('German: the metric and the period as words, quantities with their unit and 5.451,12; English: 5,451.12', () => {
    const change = makeFlag('CONSUMPTION_CHANGE', scope, {
      metric: 'water_warm',
      unit: 'm3',
      billed_value: '5451.12',
      comparison_value: '1234567',
      change_percent: '341.5',
      not_billed_in: '',
    });
    const missing = makeFlag('COMPARISON_NOT_BILLED', scope, {
      metric: 'heat',
      unit: 'kWh',
      billed_value: '5451.12',
      comparison_value: '',
      change_percent: '',
      not_billed_in: 'current',
    });
    const perM2 = makeFlag('PER_M2_OUTLIER', scope, { metric: 'heat', unit: 'kWh', value_per_m2: '1234.5', median_per_m2: '40' });
    const de = [change, missing, perM2].map((f) => flagMessage(f, 'de')).join('\n');
    expect(de).toContain('(Verbrauchsart: Warmwasser, abgerechnet: 5.451,12 m³, Vergleichszeitraum: 1.234.567 m³, Veränderung: 341,5 %)');
    expect(de).toContain('(Verbrauchsart: Wärme, abgerechnet: 5.451,12 kWh, nicht abgerechnet: laufender Zeitraum)');
    expect(de).toContain('(Verbrauchsart: Wärme, je m²: 1.234,5 kWh/m², Median je m²: 40 kWh/m²)');
    expect(de).not.toMatch(/water_warm|\bcurrent\b|\bm3\b|5451/);
    const en = [change, missing].map((f) => flagMessage(f, 'en')).join('\n');
    expect(en).toContain('(metric: warm water, billed: 5,451.12 m³, comparison period: 1,234,567 m³, change: 341.5 %)');
    expect(en).toContain('not billed in: current period');
  });
});

const YEAR_2025 = { from: '2025-01-01', to: '2025-12-31' };

describe('the review runs by default', () => {
  it('every export reviews its period; --no-plausibility leaves it out and cannot be combined with --compare', () => {
    expect(parseReviewArgs({}, '/tmp', YEAR_2025)).toEqual({ compare: null, threshold: '25' });
    expect(parseReviewArgs({ plausibility: true }, '/tmp', YEAR_2025)).toEqual({ compare: null, threshold: '25' });
    expect(parseReviewArgs({ plausibility: false }, '/tmp', YEAR_2025)).toBeNull();
    expect(() => parseReviewArgs({ plausibility: false, compare: '2024' }, '/tmp', YEAR_2025)).toThrow(/--no-plausibility/);
  });
});
