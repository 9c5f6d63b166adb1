// uvi.csv's rows (one per unit, service and month, never 0 for a missing month), the
// letters' review rows (no letter, incomplete letter, the reason in words) and the columns'
// layouts (generic keys, German headers, a template's renaming refused with one line).
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/billing/decimal.js';
import { MeterdataError } from '../../src/core/errors.js';
import { UVI_TABLES, uviColumns, uviReviewRows, uviRows, type PortalProperty } from '../../src/uvi/portal/index.js';
import { aUnitUvi, HEATING_UNITS, service } from '../helpers/uvi-letter-fixtures.js';
import { MONTH, MONTHS } from '../helpers/uvi-fixtures.js';

const unit = (id: string, name: string, unit_type = 'residential') => ({ id, name, unit_type: unit_type as 'residential' });
const property = (units: PortalProperty['units'], findings: PortalProperty['findings'] = []): PortalProperty => ({
  property: { id: 'prop-1', name: 'Große Straße 5' },
  month: MONTH,
  units,
  findings,
});

describe('uvi.csv rows', () => {
  const rows = uviRows(property([{ unit: unit('u-3', 'WE 03'), erpRef: 'ME-0815', uvi: aUnitUvi() }]));
  const at = (service: string, month: string) => rows.find((r) => r.service === service && r.month === month)!;

  it('one row per unit, service and month, with ids, names and the ERP number; the columns are the table’s', () => {
    expect(rows).toHaveLength(3 * 13);
    expect(rows.filter((r) => r.letter_month).map((r) => [r.service, r.month])).toEqual([
      ['COLD_WATER', MONTH],
      ['HOT_WATER', MONTH],
      ['HEATING', MONTH],
    ]);
    expect(rows.every((r) => r.erp_ref === 'ME-0815' && r.usage_unit_name === 'WE 03' && r.property_name === 'Große Straße 5')).toBe(true);
    expect(Object.keys(rows[0]!).sort()).toEqual(Object.keys(UVI_TABLES.uvi).sort());
  });

  it('heating from allocators: kWh converted, the allocator units beside them, the average user; March has no amount and says why', () => {
    expect(at('HEATING', MONTH)).toMatchObject({
      unit_of_measure: 'kWh',
      amount: '968',
      native_amount: '96.8',
      native_unit: 'unit',
      converted: true,
      estimated: false,
      errors: [],
      benchmark_amount: '1026.6',
      method: 'allocators',
    });
    expect(at('HEATING', '2025-10')).toMatchObject({ amount: '1100', estimated: true });
    expect(at('HEATING', '2025-03')).toMatchObject({ amount: null, native_amount: null, estimated: false, errors: ['no_reading'] });
  });

  it('warm water in kWh with its m³; cold water in m³ with no kWh and no average user', () => {
    expect(at('HOT_WATER', MONTH)).toMatchObject({
      unit_of_measure: 'kWh',
      amount: '281.25',
      native_amount: '2.25',
      native_unit: 'm3',
      converted: true,
      benchmark_amount: '145',
      method: 'formula_9_2',
    });
    expect(at('COLD_WATER', MONTH)).toMatchObject({
      unit_of_measure: 'm3',
      amount: '4.5',
      native_amount: '4.5',
      converted: false,
      benchmark_amount: null,
      errors: [],
    });
  });

  it('allocators without kWh: no amount (errors say why), the units still given; a share of 1/3 kept to the Wh', () => {
    const months = HEATING_UNITS.map((u) => ({ kwh: null, native: u, reasons: ['no_plant_heat_meter' as const, 'no_plant_heat_meter' as const] }));
    const uvi = aUnitUvi({ services: [service('HEATING', 'allocators', 'unit', months)] });
    const [first] = uviRows(property([{ unit: unit('u', 'WE'), erpRef: null, uvi }]));
    expect(first).toMatchObject({ amount: null, native_amount: '150', errors: ['no_plant_heat_meter'], erp_ref: null });
    const third = aUnitUvi({
      services: [
        service(
          'HEATING',
          'heat_meter',
          'kWh',
          MONTHS.map(() => ({ kwh: 0, native: 0 })),
        ),
      ],
    });
    third.services[0]!.months[12]!.kwh = dec(1).div(3);
    expect(uviRows(property([{ unit: unit('u', 'WE'), erpRef: null, uvi: third }])).at(-1)!.amount).toBe('0.333');
    expect(uviRows(property([{ unit: unit('u', 'WE'), erpRef: null, uvi: third }]))[0]!.amount).toBe('0');
  });
});

describe("the letters' review", () => {
  it('a complete letter gives no row', () => {
    expect(uviReviewRows(property([{ unit: unit('u-1', 'WE 01'), erpRef: null, uvi: aUnitUvi() }]), 'de')).toEqual([]);
  });

  it('no heating or warm water at all (or cold water only): no letter', () => {
    const cold = aUnitUvi();
    cold.services = cold.services.filter((s) => s.service === 'COLD_WATER');
    const rows = uviReviewRows(
      property([
        { unit: unit('u-1', 'WE 01'), erpRef: 'E1', uvi: aUnitUvi({ services: [] }) },
        { unit: unit('u-2', 'WE 02'), erpRef: null, uvi: cold },
      ]),
      'de',
    );
    expect(rows.map((r) => [r.letter, r.code, r.usage_unit_name, r.erp_ref])).toEqual([
      ['none', 'NO_LETTER', 'WE 01', 'E1'],
      ['none', 'NO_LETTER', 'WE 02', null],
    ]);
    expect(rows[0]!.message).toMatch(/^Kein Schreiben: kein Wärmezähler/);
    expect(Object.keys(rows[0]!).sort()).toEqual(Object.keys(UVI_TABLES['uvi-review']).sort());
  });

  it("the letter's month missing, or only in allocator units: incomplete, the reasons in words", () => {
    const missing = aUnitUvi({
      services: [
        service(
          'HOT_WATER',
          'formula_9_2',
          'm3',
          MONTHS.map((m) => (m === MONTH ? { kwh: null, native: null, reasons: ['calibration_expired' as const] } : { kwh: 100, native: 0.8 })),
        ),
      ],
    });
    const units = HEATING_UNITS.map((u) => ({ kwh: null, native: u, reasons: ['plant_heat_missing' as const] }));
    const noKwh = aUnitUvi({ services: [service('HEATING', 'allocators', 'unit', units)] });
    const rows = uviReviewRows(
      property([
        { unit: unit('u-1', 'WE 01'), erpRef: null, uvi: missing },
        { unit: unit('u-2', 'WE 02'), erpRef: null, uvi: noKwh },
      ]),
      'de',
    );
    expect(rows.map((r) => [r.code, r.service, r.message])).toEqual([
      ['MONTH_MISSING', 'HOT_WATER', 'Schreiben unvollständig: kein Wert für Warmwasser im November 2025 (die Eichfrist des Zählers ist abgelaufen).'],
      [
        'MONTH_NO_KWH',
        'HEATING',
        'Schreiben unvollständig: Heizung im November 2025 nur in den eigenen Einheiten der Nutzeinheit, nicht in kWh, wie es § 6a Abs. 2 HeizkostenV verlangt (der Hauptwärmezähler der Liegenschaft hat für diesen Monat keinen Wert).',
      ],
    ]);
  });

  it('no floor area, no average user for the unit type (named in German), no plant heat meter, and the Property’s assumption', () => {
    const uvi = aUnitUvi({
      findings: [
        { code: 'NO_FLOOR_AREA', property_id: 'prop-1', usage_unit_id: 'u-1', service: 'HOT_WATER' },
        { code: 'NO_BENCHMARK_FOR_TYPE', property_id: 'prop-1', usage_unit_id: 'u-1', service: 'HEATING', facts: { unit_type: 'commercial' } },
        { code: 'NO_PLANT_HEAT_METER', property_id: 'prop-1', usage_unit_id: 'u-1', service: 'HEATING' },
        { code: 'MONTH_ESTIMATED', property_id: 'prop-1', usage_unit_id: 'u-1', service: 'HEATING' },
      ],
    });
    const rows = uviReviewRows(
      property(
        [{ unit: unit('u-1', 'Laden', 'commercial'), erpRef: null, uvi }],
        [{ code: 'WARM_WATER_HEAT_NOT_KNOWN', property_id: 'prop-1', usage_unit_id: null, service: 'HEATING' }],
      ),
      'de',
    );
    expect(rows.map((r) => [r.letter, r.code, r.service])).toEqual([
      ['check', 'WARM_WATER_HEAT_NOT_KNOWN', 'HEATING'],
      ['incomplete', 'NO_BENCHMARK_FOR_TYPE', 'HEATING'],
      ['incomplete', 'NO_PLANT_HEAT_METER', 'HEATING'],
      ['incomplete', 'NO_FLOOR_AREA', 'HOT_WATER'],
    ]);
    expect(rows[1]!.message).toContain('„Gewerbe“');
    expect(rows.map((r) => r.message).join(' ')).not.toMatch(/commercial|HEATING|HOT_WATER/);
    expect(uviReviewRows(property([{ unit: unit('u-1', 'Laden', 'commercial'), erpRef: null, uvi }]), 'en')[0]!.message).toContain('"commercial"');
  });
});

describe('the columns and their layouts', () => {
  it('generic: the keys; de: German headers', () => {
    expect(uviColumns('uvi', 'generic').map((c) => c.header)).toEqual(Object.keys(UVI_TABLES.uvi));
    const de = uviColumns('uvi', 'de');
    expect(de.find((c) => c.key === 'amount')).toEqual({ key: 'amount', header: 'Verbrauch', type: 'number' });
    expect(de.find((c) => c.key === 'usage_unit_name')!.header).toBe('Nutzeinheit');
    expect(uviColumns('uvi-review', 'de').map((c) => c.header)).toContain('Befund');
  });

  it("a template picks and renames columns with the export templates' syntax", () => {
    expect(uviColumns('uvi', 'de', ['erp_ref', { key: 'amount', header: 'kWh' }, 'month'])).toEqual([
      { key: 'erp_ref', header: 'ERP-Nummer', type: 'text' },
      { key: 'amount', header: 'kWh', type: 'number' },
      { key: 'month', header: 'Monat', type: 'text' },
    ]);
  });

  it.each([
    [['amount', 'betrag'], /files\.uvi\.columns\[1\]: unknown column "betrag" \(known: property_id, /],
    [['amount', 'amount'], /files\.uvi\.columns\[1\]: the column "amount" is named twice/],
    [['amount', { key: 'month', header: 'AMOUNT' }], /files\.uvi\.columns\[1\]: two columns are headed "AMOUNT"/],
    [[], /files\.uvi\.columns: name at least one column/],
  ])('refuses %j with one line and a stable code', (spec, message) => {
    let caught: unknown;
    try {
      uviColumns('uvi', 'generic', spec as never);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MeterdataError);
    expect((caught as MeterdataError).code).toBe('EXPORT_TEMPLATE_INVALID');
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain('\n');
  });
});
