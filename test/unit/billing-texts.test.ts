// The words an accountant reads about a flag and a contract code, in both languages (issue 11).
import { describe, expect, it } from 'vitest';
import { flagMessage, reviewRows } from '../../src/billing/findings.js';
import { factLabels } from '../../src/billing/texts-facts.js';
import { VALUE_KINDS, valueCode, valueWord, valueWords } from '../../src/billing/texts-values.js';
import { FLAG_CODES, makeFlag } from '../../src/findings/index.js';
import { figuresFromTables } from '../../src/plausibility/index.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

const scope = { property_id: 'p', usage_unit_id: 'u', measuring_point_id: 'mp', device_id: 'd' };

describe('flag messages', () => {
  it('say every flag and every fact in German, with German dates and decimals, and no English phrase', async () => {
    const facts = Object.fromEntries(Object.keys(factLabels).map((k, i) => [k, i % 2 ? '2025-03-31' : '12.5']));
    const text = FLAG_CODES.map((code) => flagMessage(makeFlag(code, scope, facts), 'de')).join('\n');
    expect(text).not.toMatch(/2025-03-31|12\.5/);
    expect(flagMessage(makeFlag('ASSUMED_ZERO_BASELINE', scope, { baseline_date: '2025-03-31', baseline_value: '12.5' }), 'de')).toMatch(
      /^Anfangsstand mit 0 angenommen \(Stichtag: 31\.03\.2025, Anfangsstand: 12,5\)\. /,
    );
    expect(await findEnglish(text)).toEqual([]);
    expect(flagMessage(makeFlag('CALIBRATION_EXPIRED', scope, { serial: 'W-1' }), 'en')).toMatch(
      /^Calibration expired: value must not be billed \(device: W-1\)\. The device's/,
    );
  });

  it('put the names of a finding beside its ids, most severe first', () => {
    const rows = reviewRows([makeFlag('DEVICE_REPLACED', scope), makeFlag('MISSING_VALUE', scope)], 'en', () => ({
      property_name: 'Haus A',
      usage_unit_name: 'WE 1',
      metric: 'heat',
      serial: 'W-1',
      localization: 'Flur',
    }));
    expect(rows.map((r) => r.code)).toEqual(['MISSING_VALUE', 'DEVICE_REPLACED']);
    expect(Object.keys(rows[0]!)).toEqual([
      'severity',
      'code',
      'property_id',
      'usage_unit_id',
      'measuring_point_id',
      'device_id',
      'property_name',
      'usage_unit_name',
      'metric',
      'serial',
      'localization',
      'message',
    ]);
    expect(rows[0]).toMatchObject({ property_name: 'Haus A', usage_unit_name: 'WE 1', serial: 'W-1', localization: 'Flur' });
    expect(reviewRows([makeFlag('DATA_GAP', scope)], 'en')[0]).toMatchObject({ property_name: null, serial: null });
  });
});

describe('contract codes as words', () => {
  it('uses the glossary words, keeps an unknown value as its code, and reads every word back to its code', () => {
    expect(['heat', 'hca', 'water_cold'].map((m) => valueWord('metric', m, 'de'))).toEqual(['Wärme', 'Heizkostenverteiler', 'Kaltwasser']);
    expect(['measured', 'calculated', 'missing', 'calibration_expired'].map((s) => valueWord('status', s, 'de'))).toEqual([
      'gemessen',
      'berechnet',
      'fehlend',
      'Eichfrist abgelaufen',
    ]);
    expect(['not_billed', 'review', 'info'].map((s) => valueWord('severity', s, 'de'))).toEqual(['nicht abgerechnet', 'prüfen', 'Hinweis']);
    expect(valueWord('metric', 'steam', 'de')).toBe('steam');
    expect(valueWord('metric', 'constructor', 'de')).toBe('constructor');
    for (const key of Object.keys(valueWords)) {
      const [kind, code] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)] as [(typeof VALUE_KINDS)[number], string];
      expect(VALUE_KINDS).toContain(kind);
      for (const lang of ['en', 'de'] as const) expect(valueCode(kind, valueWord(kind, code, lang)), key).toBe(code);
    }
    expect(valueCode('metric', 'steam')).toBe('steam');
  });
});

describe('an earlier export read back for --compare DIR', () => {
  it('reads the de layout words back to codes and says what is wrong in German', async () => {
    const layout = {
      headers: {
        property_id: 'L',
        property_name: 'LN',
        usage_unit_id: 'N',
        usage_unit_name: 'NN',
        unit_type: 'A',
        metric: 'M',
        unit: 'E',
        billable_value: 'W',
        review_flags: 'F',
      },
      separator: ';',
      decimal: ',' as const,
    };
    const csv = 'L;LN;N;NN;A;M;E;W;F\r\np;Haus;u;WE 1;Wohnen;Kaltwasser;m³;1,5;\r\n';
    expect(figuresFromTables(csv, null, { billing: layout, plant: null })[0]).toMatchObject({
      unit_type: 'residential',
      metric: 'water_cold',
      unit: 'm3',
      value: '1.5',
    });
    setLanguage('de');
    try {
      expect(() => figuresFromTables(csv.replace('1,5', '1x'), null, { billing: layout, plant: null })).toThrow(
        'Abrechnungstabelle Zeile 2: "1x" ist keine Zahl',
      );
    } finally {
      setLanguage('en');
    }
  });
});
