// A unit's 13 months as the letter and uvi.csv receive them, written out by hand: heating
// from allocators converted to kWh (March 2025 missing, October 2025 estimated), warm water
// by § 9 Abs. 2 at 60 °C (kWh = 125 × m³), cold water as the extra.
import { dec } from '../../src/billing/decimal.js';
import type { LetterInput } from '../../src/uvi/letter/index.js';
import type { ServiceMonth, UnitService, UnitUvi } from '../../src/uvi/types.js';
import { aUnit, PROPERTY } from './builders.js';
import { MONTH, MONTHS } from './uvi-fixtures.js';

type M = { kwh: number | null; native: number | null; bench?: number | null; estimated?: boolean; reasons?: ServiceMonth['reasons'] };

export function service(
  service: UnitService['service'],
  method: UnitService['method'],
  nativeUnit: UnitService['native_unit'],
  months: M[],
  converted = true,
): UnitService {
  return {
    service,
    method,
    native_unit: nativeUnit,
    months: months.map((m, i) => ({
      month: MONTHS[i]!,
      kwh: m.kwh === null ? null : dec(m.kwh),
      native: m.native === null ? null : dec(m.native),
      converted,
      estimated: m.estimated ?? false,
      native_estimated: m.estimated ?? false,
      reasons: m.reasons ?? (m.kwh === null ? ['no_reading'] : []),
      benchmark_kwh: m.bench == null ? null : dec(m.bench),
    })),
  };
}

/** Heating in kWh per month, Nov 2024 … Nov 2025; the last is the letter's month. */
export const HEATING_KWH = [1500.25, 1810, 1990.4, 1700, null, 820, 300, 60, 40, 45, 280, 1100, 968];
/** The allocator units behind them. */
export const HEATING_UNITS = [150, 181, 199, 170, null, 82, 30, 6, 4, 4.5, 28, 110, 96.8];
/** The average user for 72.5 m² (118 kWh/(m²·a) × degree-day shares), rounded by hand: Nov 120 ‰ → 1026.6. */
export const HEATING_BENCH = [1026.6, 1368.8, 1454.35, 1283.25, 1112.15, 684.4, 342.2, 114.07, 114.07, 114.07, 256.65, 684.4, 1026.6];
export const WW_M3 = [2.1, 2.3, 2.2, 2.0, 2.4, 2.1, 1.9, 1.7, 1.5, 1.6, 1.9, 2.0, 2.25];

export function aUnitUvi(overrides: Partial<UnitUvi> = {}): UnitUvi {
  const heating = service(
    'HEATING',
    'allocators',
    'unit',
    HEATING_KWH.map((kwh, i) => ({ kwh, native: HEATING_UNITS[i]!, bench: HEATING_BENCH[i]!, estimated: MONTHS[i] === '2025-10' })),
  );
  const hotWater = service(
    'HOT_WATER',
    'formula_9_2',
    'm3',
    WW_M3.map((m3) => ({ kwh: m3 * 125, native: m3, bench: 145 })),
  );
  const cold = service(
    'COLD_WATER',
    'volume_only',
    'm3',
    WW_M3.map((m3) => ({ kwh: null, native: m3 * 2, reasons: [] })),
    false,
  );
  return { usage_unit_id: 'unit-1', services: [cold, hotWater, heating], findings: [], ...overrides };
}

export function aLetterInput(overrides: Partial<LetterInput> = {}): LetterInput {
  const unit = aUnit({ name: 'WE 03 Müller-Straße', floor: '1. OG', position: 'rechts' });
  return {
    property: { id: PROPERTY.id, name: 'Wohnanlage Große Straße 5' },
    address: { street: 'Große Straße', house_number: '5', house_number_addition: 'a', postal_code: '80331', city: 'München', country_code: 'DE' },
    unit,
    erpRef: 'ME-0815',
    month: MONTH,
    uvi: aUnitUvi(),
    benchmarkSource: 'Heizspiegel für Deutschland (co2online), Straßenbau-Prüfstelle',
    wwTemperature: 60,
    lang: 'de',
    ...overrides,
  };
}
