// The plausibility review (src/plausibility): property-based checks with fast-check, plus the cases an accountant meets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, reviewRows } from '../../src/billing/index.js';
import {
  CALIBRATION_YEARS,
  calibrationEnd,
  calibrationFlags,
  calibrationVerdict,
  changePercent,
  compareFigure,
  estimatedShares,
  figuresFromTables,
  isZeroConsumption,
  parseCsv,
  median,
  perM2,
  reviewProperty,
  sideState,
  type CurrentFigure,
  type DeviceFact,
  type Figure,
} from '../../src/plausibility/index.js';

const P = '00000000-0000-4000-8000-000000000001';
const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function fig(over: Partial<CurrentFigure> = {}): CurrentFigure {
  return {
    kind: 'unit',
    property_id: P,
    property_name: 'Haus',
    usage_unit_id: uid(100),
    usage_unit_name: 'WE 01',
    unit_type: 'residential',
    measuring_point_id: null,
    metric: 'heat',
    unit: 'kWh',
    value: '100',
    flags: [],
    area_m2: 50,
    active_whole_range: true,
    estimated_value: '0',
    ...over,
  };
}
const amount = fc.integer({ min: 0, max: 10_000_000 }).map((n) => String(n / 1000));
const positive = fc.integer({ min: 1, max: 10_000_000 }).map((n) => String(n / 1000));
const state = fc.constantFrom<'billed' | 'not_billed' | 'absent' | 'no_row'>('billed', 'not_billed', 'absent', 'no_row');
const side = (s: string, value: string): Figure | undefined =>
  s === 'no_row'
    ? undefined
    : fig({
        value: s === 'absent' ? '0' : value,
        flags: s === 'not_billed' ? ['MISSING_VALUE'] : s === 'absent' ? ['DATA_GAP', 'MISSING_VALUE'] : ['DEVICE_REPLACED'],
      });

describe('comparison with another period', () => {
  it('change in percent: (current - previous) / previous, one decimal; none against 0', () => {
    expect(changePercent('140', '100')).toBe('40.0');
    expect(changePercent('0', '100')).toBe('-100.0');
    expect(changePercent('100', '300')).toBe('-66.7');
    expect(changePercent('5', '0')).toBeNull();
    fc.assert(
      fc.property(positive, fc.integer({ min: -100, max: 500 }), (prev, pct) => {
        const cur = dec(prev)
          .times(100 + pct)
          .div(100)
          .toFixed();
        expect(Number(changePercent(cur, prev))).toBeCloseTo(pct, 5);
      }),
    );
  });

  it('a meter with no data now whose comparison value was not billed is not "gone" (as Musterstraße WE 12\'s cold water, 2025 against 2024)', () => {
    const now = fig({ value: '0', flags: ['DATA_GAP', 'MISSING_VALUE'] });
    const then = fig({ value: '0', flags: ['MISSING_VALUE'] });
    expect(compareFigure(now, then, '25')).toMatchObject({ codes: ['COMPARISON_NOT_BILLED'], notBilledIn: 'comparison', comparison_value: null });
    // with a billed value then, it is gone
    expect(compareFigure(now, fig({ value: '31' }), '25').codes).toEqual(['GONE_SINCE_COMPARISON']);
  });

  it('a side that is not billed is marked and never compared as 0; absent sides are new or gone', () => {
    fc.assert(
      fc.property(state, state, amount, amount, fc.integer({ min: 0, max: 200 }), (sc, sp, vc, vp, threshold) => {
        const c = compareFigure(side(sc, vc), side(sp, vp), String(threshold));
        const cur = sideState(side(sc, vc));
        const prev = sideState(side(sp, vp));
        if (cur === 'absent' && prev === 'absent') expect(c.codes).toEqual([]);
        else if (cur === 'absent') expect(c.codes).toEqual(prev === 'not_billed' ? ['COMPARISON_NOT_BILLED'] : ['GONE_SINCE_COMPARISON']);
        else if (prev === 'absent') expect(c.codes).toEqual(['NEW_SINCE_COMPARISON']);
        else if (cur === 'not_billed' || prev === 'not_billed') {
          expect(c.codes).toEqual(['COMPARISON_NOT_BILLED']);
          expect(c.change_percent).toBeNull();
        } else {
          const zero = [vc, vp].filter((v) => dec(v).isZero()).length;
          if (zero === 1) expect(c.codes).toEqual(['COMPARISON_ZERO']);
          else if (zero === 2) expect(c.codes).toEqual([]);
          else expect(c.codes.includes('CONSUMPTION_CHANGE')).toBe(dec(c.change_percent!).abs().greaterThan(threshold));
        }
        expect(c.comparison_value).toBe(prev === 'billed' ? vp : null);
      }),
    );
  });

  it('+40 % is a finding at the default 25 % and not at 50 %; -40 % too', () => {
    expect(compareFigure(fig({ value: '140' }), fig({ value: '100' }), '25').codes).toEqual(['CONSUMPTION_CHANGE']);
    expect(compareFigure(fig({ value: '140' }), fig({ value: '100' }), '50').codes).toEqual([]);
    expect(compareFigure(fig({ value: '60' }), fig({ value: '100' }), '25').codes).toEqual(['CONSUMPTION_CHANGE']);
    expect(compareFigure(fig({ value: '125' }), fig({ value: '100' }), '25').codes).toEqual([]);
  });
});

describe('calibration', () => {
  it('ends on 31 December of the installation year plus the legal period; heat cost allocators have none', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1990, max: 2040 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...Object.keys(CALIBRATION_YEARS), 'hca', 'steam'),
        (y, m, metric) => {
          const end = calibrationEnd(metric, `${y}-${String(m).padStart(2, '0')}-15`);
          const years = CALIBRATION_YEARS[metric];
          expect(end).toBe(years === undefined ? null : `${y + years}-12-31`);
        },
      ),
    );
    expect(CALIBRATION_YEARS).toMatchObject({ water_cold: 6, water_warm: 6, heat: 6, gas: 8, electricity: 8 });
    expect(CALIBRATION_YEARS.hca).toBeUndefined();
  });

  it('ended (review) before the range end, ends soon (info) at its end or the next year, unknown without installed_at', () => {
    const range = { to: '2025-12-31' };
    const v = (metric: string, installed_at: string | null, deinstalled_at: string | null = null) =>
      calibrationVerdict({ metric, installed_at, deinstalled_at }, range);
    expect(v('water_warm', '2018-05-14')).toEqual({ kind: 'ended', end: '2024-12-31' });
    expect(v('heat', '2018-05-14')).toEqual({ kind: 'ended', end: '2024-12-31' });
    expect(v('water_cold', '2019-05-14')).toEqual({ kind: 'ends_soon', end: '2025-12-31' });
    expect(v('heat', '2020-01-01')).toEqual({ kind: 'ends_soon', end: '2026-12-31' });
    expect(v('heat', '2021-01-01')).toBeNull();
    expect(v('hca', '2001-01-01')).toBeNull();
    expect(v('heat', null)).toEqual({ kind: 'unknown' });
    // Removed before its period ended: nothing to say; removed after it ended: it was still used.
    expect(v('heat', '2018-05-14', '2024-06-30')).toBeNull();
    expect(v('heat', '2018-05-14', '2025-06-30')).toEqual({ kind: 'ended', end: '2024-12-31' });
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2030 }), fc.constantFrom('heat', 'water_cold', 'water_warm'), (y, metric) => {
        const r = v(metric, `${y}-06-01`);
        const end = `${y + CALIBRATION_YEARS[metric]!}-12-31`;
        expect(r?.kind ?? null).toBe(end < range.to ? 'ended' : end <= '2026-12-31' ? 'ends_soon' : null);
      }),
    );
  });

  it('one finding per device, also when a shared device appears under several units', () => {
    const d: DeviceFact = {
      property_id: P,
      usage_unit_id: uid(1),
      measuring_point_id: uid(2),
      device_id: uid(3),
      serial: 'WMZ-1',
      metric: 'heat',
      installed_at: null,
      deinstalled_at: null,
    };
    const flags = calibrationFlags([d, { ...d, usage_unit_id: uid(4) }], { to: '2025-12-31' });
    expect(flags.map((f) => [f.code, f.severity, f.usage_unit_id])).toEqual([['CALIBRATION_DATE_UNKNOWN', 'info', uid(1)]]);
    const ended = calibrationFlags([{ ...d, installed_at: '2018-05-14' }], { to: '2025-12-31' });
    expect(ended.map((f) => [f.code, f.severity, f.facts])).toEqual([
      ['CALIBRATION_ENDED', 'review', { serial: 'WMZ-1', installed_at: '2018-05-14', calibration_years: '6', calibration_end: '2024-12-31' }],
    ]);
  });
});

describe('checks on one period', () => {
  it('zero consumption only for a billed 0 with a device over the whole range', () => {
    expect(isZeroConsumption(fig({ value: '0' }))).toBe(true);
    expect(isZeroConsumption(fig({ value: '0', active_whole_range: false }))).toBe(false);
    expect(isZeroConsumption(fig({ value: '0', flags: ['MISSING_VALUE'] }))).toBe(false);
    expect(isZeroConsumption(fig({ value: '0.001' }))).toBe(false);
  });

  it('median of an odd and an even count', () => {
    expect(median([dec(3), dec(1), dec(2)])!.toString()).toBe('2');
    expect(median([dec(4), dec(1), dec(2), dec(3)])!.toString()).toBe('2.5');
    expect(median([])).toBeNull();
  });

  it('per m2: outside 1/3..3x the median of at least five comparable units; scaling every value changes nothing', () => {
    const units = fc.array(fc.record({ v: fc.integer({ min: 1, max: 100_000 }), area: fc.integer({ min: 20, max: 200 }) }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(units, fc.integer({ min: 1, max: 50 }), (us, k) => {
        const figs = us.map((u, i) => fig({ usage_unit_id: uid(i), value: String(u.v), area_m2: u.area }));
        const a = perM2(figs);
        const b = perM2(figs.map((f) => ({ ...f, value: String(Number(f.value) * k) })));
        const m = median(us.map((u) => dec(u.v).div(u.area)));
        figs.forEach((f, i) => {
          const r = a.get(JSON.stringify(['unit', f.usage_unit_id, null, 'heat', 'kWh']))!;
          expect(r.median === null).toBe(us.length < 5);
          const x = dec(us[i]!.v).div(us[i]!.area);
          expect(r.outlier).toBe(us.length >= 5 && (x.times(3).lessThan(m!) || x.greaterThan(m!.times(3))));
          expect(b.get(JSON.stringify(['unit', f.usage_unit_id, null, 'heat', 'kWh']))!.outlier).toBe(r.outlier);
        });
      }),
    );
  });

  it('per m2 compares only units of the same type and metric, with an area, that are billed', () => {
    const base = [1, 2, 3].map((i) => fig({ usage_unit_id: uid(i) }));
    const odd = fig({ usage_unit_id: uid(9), value: '400' });
    expect(perM2([...base, fig({ usage_unit_id: uid(5) }), odd]).get(JSON.stringify(['unit', uid(9), null, 'heat', 'kWh']))!.outlier).toBe(true);
    expect(
      perM2([...base, fig({ usage_unit_id: uid(5) }), { ...odd, unit_type: 'commercial' }]).get(JSON.stringify(['unit', uid(9), null, 'heat', 'kWh']))!.median,
    ).toBeNull();
    expect(perM2([...base, fig({ usage_unit_id: uid(5), area_m2: null }), odd]).get(JSON.stringify(['unit', uid(9), null, 'heat', 'kWh']))!.median).toBeNull();
    expect(
      perM2([...base, fig({ usage_unit_id: uid(5), flags: ['MISSING_VALUE'] }), odd]).get(JSON.stringify(['unit', uid(9), null, 'heat', 'kWh']))!.median,
    ).toBeNull();
  });

  it('share of non-measured consumption: a finding above 25 % per Property and metric', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ v: fc.integer({ min: 0, max: 1000 }), est: fc.integer({ min: 0, max: 100 }) }), { minLength: 1, maxLength: 8 }),
        (us) => {
          const figs = us.map((u, i) => fig({ usage_unit_id: uid(i), value: String(u.v), estimated_value: String(Math.floor((u.v * u.est) / 100)) }));
          const total = us.reduce((s, u) => s + u.v, 0);
          const est = figs.reduce((s, f) => s + Number(f.estimated_value), 0);
          const shares = estimatedShares(figs);
          if (total === 0) expect(shares).toEqual([]);
          else expect(shares.map((s) => s.high)).toEqual([est * 100 > total * 25]);
        },
      ),
    );
  });
});

describe('reviewProperty', () => {
  const range = { from: '2025-01-01', to: '2025-12-31' };
  const opts = { threshold: '25', range };

  it('a unit new since the comparison period is one finding about the unit; a removed one gets a row of its own', () => {
    const cur = [fig({ usage_unit_id: uid(1) }), fig({ usage_unit_id: uid(2), metric: 'water_warm', unit: 'm3' }), fig({ usage_unit_id: uid(2) })];
    const prev: Figure[] = [
      fig({ usage_unit_id: uid(1) }),
      fig({ usage_unit_id: uid(2), value: '0', flags: ['DATA_GAP'] }),
      fig({ usage_unit_id: uid(3), usage_unit_name: 'WE 03' }),
    ];
    const out = reviewProperty({ current: cur, devices: [], comparison: prev }, opts);
    expect(out.flags.map((f) => [f.code, f.usage_unit_id, f.facts?.metric ?? null])).toEqual([
      ['NEW_SINCE_COMPARISON', uid(2), null],
      ['GONE_SINCE_COMPARISON', uid(3), null],
    ]);
    expect(out.rows.map((r) => [r.usage_unit_id, r.metric, r.billable_value, r.comparison_value, r.comparison_status, r.checks])).toEqual([
      [uid(1), 'heat', '100', '100', 'billed', []],
      [uid(2), 'water_warm', '100', null, 'absent', ['NEW_SINCE_COMPARISON']],
      [uid(2), 'heat', '100', null, 'absent', ['NEW_SINCE_COMPARISON']],
      [uid(3), 'heat', null, '100', 'billed', ['GONE_SINCE_COMPARISON']],
    ]);
  });

  it('without a comparison: no comparison columns, single-period checks still run', () => {
    const cur = [1, 2, 3, 4].map((i) => fig({ usage_unit_id: uid(i) }));
    const out = reviewProperty(
      {
        current: [...cur, fig({ usage_unit_id: uid(5), value: '0' }), fig({ usage_unit_id: uid(6), value: '900', estimated_value: '900' })],
        devices: [],
        comparison: null,
      },
      opts,
    );
    expect(out.flags.map((f) => [f.code, f.usage_unit_id])).toEqual([
      ['ZERO_CONSUMPTION', uid(5)],
      ['PER_M2_OUTLIER', uid(5)],
      ['PER_M2_OUTLIER', uid(6)],
      ['ESTIMATED_SHARE_HIGH', null],
    ]);
    expect(out.rows.every((r) => r.comparison_status === null && r.comparison_value === null)).toBe(true);
    expect(out.rows[5]!.checks).toEqual(['ESTIMATED_SHARE_HIGH', 'PER_M2_OUTLIER']);
    expect(out.rows[5]).toMatchObject({ value_per_m2: '18', median_per_m2: '2' });
  });

  it('every finding reads as an accountant message in English and German', () => {
    const d: DeviceFact = {
      property_id: P,
      usage_unit_id: uid(1),
      measuring_point_id: uid(2),
      device_id: uid(3),
      serial: 'WWZ-1',
      metric: 'water_warm',
      installed_at: '2019-05-14',
      deinstalled_at: null,
    };
    const out = reviewProperty(
      { current: [fig({ usage_unit_id: uid(1), value: '140' })], devices: [d], comparison: [fig({ usage_unit_id: uid(1), value: '100' })] },
      opts,
    );
    const [de] = reviewRows(out.flags, 'de');
    const [en] = reviewRows(out.flags, 'en');
    expect(en!.message).toMatch(/^Consumption changed markedly .*billed: 140 kWh, comparison period: 100 kWh, change: 40\.0 %/);
    expect(de!.message).toMatch(/^Deutliche Verbrauchsänderung .*Verbrauchsart: Wärme, abgerechnet: 140 kWh, Vergleichszeitraum: 100 kWh, Veränderung: 40,0 %/);
    expect(reviewRows(out.flags, 'de')[1]!.message).toMatch(
      /Eichfrist endet laut Einbaudatum zum Ende .*Eichfrist in Jahren: 6, Eichfrist endet \(geschätzt\): 31\.12\.2025/,
    );
  });
});

describe('an earlier export folder read back', () => {
  it('parses RFC 4180 fields: BOM, quotes, separators and line breaks inside quotes, CRLF and LF', () => {
    expect(parseCsv('\uFEFFa;b\r\n"x;1";"he said ""hi"""\r\n"two\nlines";\n', ';')).toEqual([
      ['a', 'b'],
      ['x;1', 'he said "hi"'],
      ['two\nlines', ''],
    ]);
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')).join('\r\n') + '\r\n';
        expect(parseCsv(text, ',')).toEqual(rows);
      }),
    );
  });

  it('maps the template headers back to keys, reads decimal commas, and names a missing column or a bad number', () => {
    const headers = {
      property_id: 'Liegenschaft-ID',
      property_name: 'Liegenschaft',
      usage_unit_id: 'Nutzeinheit-ID',
      usage_unit_name: 'Nutzeinheit',
      unit_type: 'Art',
      metric: 'Messart',
      unit: 'Einheit',
      billable_value: 'Wert',
      review_flags: 'Hinweise',
      measuring_point_id: 'Messstelle',
    };
    const layout = { headers, separator: ';', decimal: ',' as const };
    const billing = `Nutzeinheit;Liegenschaft-ID;Liegenschaft;Nutzeinheit-ID;Art;Messart;Einheit;Wert;Hinweise\r\nWE 01;${P};Haus;${uid(1)};residential;heat;kWh;1234,5;DATA_GAP|MISSING_VALUE\r\n`;
    const plant = `Liegenschaft-ID;Liegenschaft;Messstelle;Messart;Einheit;Wert;Hinweise\r\n${P};Haus;${uid(2)};water_cold;m3;10;\r\n`;
    expect(figuresFromTables(billing, plant, { billing: layout, plant: layout })).toEqual([
      {
        kind: 'unit',
        property_id: P,
        property_name: 'Haus',
        usage_unit_id: uid(1),
        usage_unit_name: 'WE 01',
        unit_type: 'residential',
        measuring_point_id: null,
        metric: 'heat',
        unit: 'kWh',
        value: '1234.5',
        flags: ['DATA_GAP', 'MISSING_VALUE'],
      },
      {
        kind: 'plant',
        property_id: P,
        property_name: 'Haus',
        usage_unit_id: null,
        usage_unit_name: null,
        unit_type: null,
        measuring_point_id: uid(2),
        metric: 'water_cold',
        unit: 'm3',
        value: '10',
        flags: [],
      },
    ]);
    expect(() => figuresFromTables(billing.replace('Messart', 'Art der Messung'), null, { billing: layout, plant: null })).toThrow(
      /billing table has no column "Messart" \(metric\)/,
    );
    expect(() => figuresFromTables(billing.replace('1234,5', '12x'), null, { billing: layout, plant: null })).toThrow(
      /billing table line 2: "12x" is not a number/,
    );
    expect(() => figuresFromTables(billing.replace('kWh;', 'kWh'), null, { billing: layout, plant: null })).toThrow(/line 2 has 8 fields, the header 9/);
  });
});

describe('zero consumption (property)', () => {
  it('fires exactly for a unit figure billed at 0 with a device over the whole range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('unit', 'plant'),
        fc.boolean(),
        fc.constantFrom('0', '0.000', '0.001', '12'),
        fc.constantFrom([], ['DEVICE_REPLACED'], ['MISSING_VALUE'], ['DATA_GAP'], ['CALIBRATION_EXPIRED']),
        (kind, active, value, flags) => {
          const f = fig({ kind: kind as 'unit' | 'plant', active_whole_range: active, value, flags: [...flags] });
          const billed = !flags.some((c) => ['MISSING_VALUE', 'CALIBRATION_EXPIRED', 'DATA_GAP'].includes(c));
          expect(isZeroConsumption(f)).toBe(kind === 'unit' && active && billed && dec(value).isZero());
        },
      ),
    );
  });
});

describe('figures out of billing', () => {
  it('a status this version does not know is not compared (billing counts it 0), a known one is', async () => {
    const { billProperty } = await import('../../src/billing/index.js');
    const { aPointConsumption, aPropertyInput, aSegment, aUnitEntry } = await import('../helpers/builders.js');
    const { figuresOf } = await import('../../src/plausibility/index.js');
    const billed = (status: string) => {
      const seg = aSegment({ period_consumption: { billable_value: 50, status, weighted_billable_value: 50 } });
      const bill = billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption({ segments: [seg] })])] }));
      return figuresOf(bill, { id: P, name: 'Haus' })[0]!;
    };
    const frozen = billed('frozen');
    expect(frozen.value).toBe('0');
    expect(sideState(frozen)).toBe('not_billed');
    expect(compareFigure(frozen, billed('measured'), '25').codes).toEqual(['COMPARISON_NOT_BILLED']);
    expect(compareFigure(billed('measured'), billed('measured'), '25').codes).toEqual([]);
  });
});
