// The letter's model: every figure and word the PDF prints, from a unit's 13 months
// (uvi-letter-fixtures.ts). Expected strings are written out by hand from the fixture's
// numbers, not computed by the code under test.
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/billing/decimal.js';
import { figure, groupDigits, letterModel, type LetterService } from '../../src/uvi/letter/index.js';
import { aLetterInput, aUnitUvi, HEATING_UNITS, service } from '../helpers/uvi-letter-fixtures.js';
import { MONTHS } from '../helpers/uvi-fixtures.js';

const rows = (s: LetterService | undefined) => s!.rows.map((r) => [r.label, r.when, r.figure, r.words]);

describe('figures as the reader writes them', () => {
  it('German 1.234,5 kWh, English 1,234.5; rounded half up from the exact decimal; never -0', () => {
    expect(figure(dec('1234.5'), 'kWh', 'de')).toBe('1.234,5');
    expect(figure(dec('1234.5'), 'kWh', 'en')).toBe('1,234.5');
    expect(figure(dec('1500.25'), 'kWh', 'de')).toBe('1.500,3');
    // 2.675 is 2.67499… as a float; the decimal rounds it up
    expect(figure(dec('2.675'), 'm3', 'de')).toBe('2,68');
    expect(figure(dec('-0.04'), 'kWh', 'de')).toBe('0,0');
    expect(figure(dec('1234567.89'), 'unit', 'de')).toBe('1.234.567,9');
    expect(figure(dec('12'), 'm3', 'en')).toBe('12.00');
    expect(groupDigits('-1234', 'de')).toBe('-1.234');
  });
});

describe('the letter of a unit with allocators converted to kWh, warm water by § 9 Abs. 2 and cold water', () => {
  const m = letterModel(aLetterInput());

  it('addresses the unit: Property, address, unit, floor and position, area, ERP number, month', () => {
    expect(m.title).toBe('Monatliche Verbrauchsinformation');
    expect(m.law).toContain('§ 6a');
    expect(m.facts).toEqual([
      ['Liegenschaft', 'Wohnanlage Große Straße 5'],
      ['Anschrift', 'Große Straße 5 a, 80331 München'],
      ['Nutzeinheit', 'WE 03 Müller-Straße'],
      ['Lage', 'Geschoss 1. OG, rechts'],
      ['Fläche', 'beheizt 72,5 m², Warmwasser 72,5 m²'],
      ['Ihre Nummer', 'ME-0815'],
      ['Zeitraum', 'November 2025'],
    ]);
  });

  it('heating: this month, previous month (estimated *), same month last year and the average user, with the differences in words', () => {
    const heating = m.services[0];
    expect(m.services.map((s) => s.service)).toEqual(['HEATING', 'HOT_WATER', 'COLD_WATER']);
    expect(heating!.heading).toBe('Heizung');
    // 968 vs 1100: −12 %; vs 1500.25: −35.48 % → 35 %; vs 1026.6: −5.71 % → 6 %
    expect(rows(heating)).toEqual([
      ['Dieser Monat', 'November 2025', '968,0 kWh', ''],
      ['Vormonat', 'Oktober 2025', '1.100,0 kWh *', '12 % weniger als im Oktober 2025'],
      ['Vorjahresmonat', 'November 2024', '1.500,3 kWh', '35 % weniger als im November 2024'],
      ['Durchschnittsnutzer', 'bei Ihrer Fläche', '1.026,6 kWh', '6 % weniger als der Durchschnittsnutzer'],
    ]);
    expect(heating!.method).toContain('96,8 Einheiten');
    expect(heating!.method).toContain('Hauptwärmezählers');
  });

  it('the chart: 13 months of the unit and the average user; March missing (null, not 0), October estimated', () => {
    const bars = m.services[0]!.chart.bars;
    expect(bars.map((b) => b.month)).toEqual(MONTHS);
    expect(bars.map((b) => b.label)).toEqual(['Nov', 'Dez', 'Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov']);
    expect(bars[4]).toMatchObject({ month: '2025-03', value: null, estimated: false, average: 1112.15 });
    expect(bars.filter((b) => b.estimated).map((b) => b.month)).toEqual(['2025-10']);
    expect(bars[12]).toMatchObject({ value: 968, average: 1026.6 });
    expect(m.services[0]!.chart.title).toBe('Die letzten 13 Monate in kWh');
  });

  it('warm water names § 9 Abs. 2 with t_w and the m³ beside the kWh (2.25 m³ × 125 = 281.25)', () => {
    const ww = m.services[1]!;
    expect(ww.rows[0]!.figure).toBe('281,3 kWh');
    expect(ww.method).toBe(
      'Ihr Warmwasserverbrauch: 2,25 m³. Umrechnung in kWh: Wärmemenge für Warmwasser nach § 9 Abs. 2 HeizkostenV: Q = 2,5 kWh/(m³·K) × V × (60 °C − 10 °C).',
    );
    expect(letterModel(aLetterInput({ wwTemperature: 55.5 })).services[1]!.method).toContain('(55,5 °C − 10 °C)');
  });

  it('cold water is the extra in m³, without an average user row', () => {
    const cold = m.services[2]!;
    expect(cold.heading).toBe('Kaltwasser (zusätzliche Information)');
    expect(rows(cold).map((r) => r[2])).toEqual(['4,50 m³', '4,00 m³', '4,20 m³']);
    expect(cold.chart.bars.every((b) => b.average === null)).toBe(true);
  });

  it('the notes: information, not a bill; another tenant; the marks; the benchmark source', () => {
    expect(m.notes.join('\n')).toContain('keine Abrechnung');
    expect(m.notes.join('\n')).toContain('vorherigen Nutzers');
    expect(m.notes.join('\n')).toContain('* geschätzt');
    expect(m.notes.join('\n')).toContain('– kein Wert');
    expect(m.notes.join('\n')).toContain('Quelle: Heizspiegel für Deutschland (co2online), Straßenbau-Prüfstelle.');
    expect(m.notes.join('\n')).not.toMatch(/water_warm|HOT_WATER|formula_9_2/);
  });
});

describe('a letter whose figures are missing or not in kWh', () => {
  it("the letter's month missing: '–' in the table, the reason in words, no 0 anywhere", () => {
    const kwh = [...Array(12).fill(100), null];
    const uvi = aUnitUvi({
      services: [
        service(
          'HEATING',
          'heat_meter',
          'kWh',
          kwh.map((k) => ({ kwh: k, native: k, bench: 50, reasons: k === null ? ['calibration_expired'] : [] })),
          false,
        ),
      ],
    });
    const s = letterModel(aLetterInput({ uvi })).services[0]!;
    expect(rows(s)).toEqual([
      ['Dieser Monat', 'November 2025', '–', ''],
      ['Vormonat', 'Oktober 2025', '100,0 kWh', 'für diesen Monat liegt kein Wert vor, daher kein Vergleich'],
      ['Vorjahresmonat', 'November 2024', '100,0 kWh', 'für diesen Monat liegt kein Wert vor, daher kein Vergleich'],
      ['Durchschnittsnutzer', 'bei Ihrer Fläche', '–', 'für diesen Monat liegt kein Wert vor, daher kein Vergleich'],
    ]);
    expect(s.notes).toEqual(['Für diesen Monat liegt kein Wert vor: die Eichfrist des Zählers ist abgelaufen.']);
    expect(s.chart.bars[12]!.value).toBeNull();
  });

  it('allocators without a plant heat meter: the units, labelled as such, with why there are no kWh; no average user', () => {
    const months = HEATING_UNITS.map((u) => ({ kwh: null, native: u, bench: 80, reasons: ['no_plant_heat_meter' as const] }));
    const uvi = aUnitUvi({ services: [service('HEATING', 'allocators', 'unit', months)] });
    const s = letterModel(aLetterInput({ uvi })).services[0]!;
    expect(s.unit).toBe('unit');
    expect(rows(s).map((r) => r[2])).toEqual(['96,8 Einheiten', '110,0 Einheiten', '150,0 Einheiten', '–']);
    expect(s.notes[0]).toBe('Ihre Heizkostenverteiler erfassen Einheiten, keine kWh; angegeben sind die Einheiten.');
    expect(s.notes[1]).toBe(
      'Für diesen Monat keine Angabe in kWh möglich: kein Hauptwärmezähler für die Liegenschaft, daher keine Umrechnung der Einheiten der Heizkostenverteiler in kWh.',
    );
    expect(s.method).toBe('Ihre Heizkostenverteiler haben 96,8 Einheiten erfasst.');
    expect(s.chart.title).toBe('Die letzten 13 Monate in Einheiten');
    expect(s.chart.bars.every((b) => b.average === null)).toBe(true);
  });

  it('a unit without floor area says why there is no comparison with the average user', () => {
    const uvi = aUnitUvi({ findings: [{ code: 'NO_FLOOR_AREA', property_id: 'p', usage_unit_id: 'unit-1', service: 'HEATING' }] });
    const m = letterModel(aLetterInput({ uvi, unit: { ...aLetterInput().unit, area_heated_m2: null, area_ww_m2: 0 } }));
    expect(m.services[0]!.notes).toContain(
      'Für Ihre Nutzeinheit ist keine Fläche hinterlegt; ein Vergleich mit dem Durchschnittsnutzer ist daher nicht möglich.',
    );
    expect(m.services[1]!.notes).toEqual([]);
    expect(m.facts).toContainEqual(['Fläche', 'beheizt keine Angabe, Warmwasser keine Angabe']);
  });

  it('a unit without any service says so, and no benchmark note', () => {
    const m = letterModel(aLetterInput({ uvi: aUnitUvi({ services: [] }), erpRef: null }));
    expect(m.empty).toContain('Kein Zähler');
    expect(m.notes.join(' ')).not.toContain('Quelle');
    expect(m.facts.map((f) => f[0])).not.toContain('Ihre Nummer');
  });
});

describe('names as the server sent them', () => {
  it('a line break or a bidi override in a name is shown as an escape, not acted on; blank parts leave no gap', () => {
    const base = aLetterInput();
    const m = letterModel({
      ...base,
      property: { id: 'p', name: 'Haus\u202e A' },
      unit: { ...base.unit, name: 'WE 7\nzweite Zeile', floor: '  ', position: null },
      address: { ...base.address, house_number_addition: ' ' },
      erpRef: '  ',
    });
    expect(m.facts).toEqual([
      ['Liegenschaft', 'Haus\\u{202e} A'],
      ['Anschrift', 'Große Straße 5, 80331 München'],
      ['Nutzeinheit', 'WE 7\\u{a}zweite Zeile'],
      ['Fläche', 'beheizt 72,5 m², Warmwasser 72,5 m²'],
      ['Zeitraum', 'November 2025'],
    ]);
    expect(m.footer).toBe('Haus\\u{202e} A · WE 7\\u{a}zweite Zeile · November 2025');
  });
});

describe('the English letter', () => {
  it('English figures and words', () => {
    const m = letterModel(aLetterInput({ lang: 'en' }));
    expect(rows(m.services[0])[1]).toEqual(['Previous month', 'October 2025', '1,100.0 kWh *', '12 % less than in October 2025']);
    expect(m.facts[4]).toEqual(['Area', 'heated 72.5 m², hot water 72.5 m²']);
    expect(m.pageTemplate).toBe('Page {n} of {m}');
    // plain data: it can be handed to a worker thread as it is
    expect(structuredClone(m)).toEqual(m);
  });
});
