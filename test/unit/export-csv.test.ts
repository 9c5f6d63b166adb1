import { describe, expect, it } from 'vitest';
import { renderCsv } from '../../src/export/output/formats/csv/csv-writer.js';
import { csvField, plainNumber } from '../../src/export/output/cell-text.js';
import { loadTemplate, type Template } from '../../src/export/output/templates.js';

const billingRow = {
  property_id: '11111111-1111-4111-8111-111111111111',
  property_name: 'Musterstraße 1-5; "Hof"',
  usage_unit_id: '22222222-2222-4222-8222-222222222222',
  usage_unit_name: 'WE 01\nlinks',
  unit_type: 'residential',
  metric: 'heat',
  unit: 'kWh',
  from: '2025-01-01',
  to: '2025-12-31',
  billable_value: '1234.5',
  points: 2,
  review_flags: ['NOT_SYSTEM_LINKED', 'ASSUMED_ZERO_BASELINE', 'NOT_SYSTEM_LINKED'],
};

const file = (t: Template, table: string) => t.files.find((f) => f.table === table)!;

describe('CSV writer', () => {
  it('neutralises text cells a spreadsheet would run as a formula (=, +, -, @, tab, CR) with an apostrophe; numbers keep their sign', async () => {
    for (const name of ['generic', 'de']) {
      const t = await loadTemplate(name, process.cwd());
      const hostile = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR'];
      const csv = renderCsv(
        t,
        file(t, 'billing'),
        hostile.map((n, i) => ({ ...billingRow, property_name: n, usage_unit_name: `WE ${i}`, billable_value: '-12.5', points: -1 })),
      );
      const body = csv
        .replace(/^\uFEFF/, '')
        .split(t.eol)
        .slice(1)
        .join(t.eol);
      const sep = t.separator;
      const expected = hostile.map((n, i) =>
        [
          billingRow.property_id,
          csvField(`'${n}`, sep),
          billingRow.usage_unit_id,
          `WE ${i}`,
          ...(name === 'de' ? ['Wohnen', 'Wärme', 'kWh'] : ['residential', 'heat', 'kWh']),
        ].join(sep),
      );
      for (const prefix of expected) expect(body).toContain(prefix);
      expect(body.split(`${sep}${name === 'de' ? '-12,5' : '-12.5'}${sep}-1${sep}`).length - 1).toBe(hostile.length);
      expect(body).not.toContain(`${sep}'-12`);
    }
  });

  it('leaves ordinary text alone, and a text cell with a formula character further in', async () => {
    const t = await loadTemplate('generic', process.cwd());
    const csv = renderCsv(t, file(t, 'billing'), [{ ...billingRow, property_name: 'Haus A-1 = Hof', usage_unit_name: 'WE 1' }]);
    expect(csv.split('\r\n')[1]).toContain(',Haus A-1 = Hof,');
  });

  it('writes the generic billing.csv byte for byte', async () => {
    const t = await loadTemplate('generic', process.cwd());
    const csv = renderCsv(t, file(t, 'billing'), [
      billingRow,
      { ...billingRow, property_name: 'A', usage_unit_name: 'B', billable_value: '0.0000001', review_flags: [] },
    ]);
    expect(csv).toBe(
      'property_id,property_name,usage_unit_id,usage_unit_name,unit_type,metric,unit,from,to,billable_value,points,review_flags\r\n' +
        '11111111-1111-4111-8111-111111111111,"Musterstraße 1-5; ""Hof""",22222222-2222-4222-8222-222222222222,"WE 01\nlinks",residential,heat,kWh,2025-01-01,2025-12-31,1234.5,2,ASSUMED_ZERO_BASELINE|NOT_SYSTEM_LINKED\r\n' +
        '11111111-1111-4111-8111-111111111111,A,22222222-2222-4222-8222-222222222222,B,residential,heat,kWh,2025-01-01,2025-12-31,0.0000001,2,\r\n',
    );
  });

  it('writes the de layout: BOM, semicolon, decimal comma, dd.mm.yyyy, German headers, booleans and words', async () => {
    const t = await loadTemplate('de', process.cwd());
    const where = { usage_unit_name: 'WE 1', metric: 'water_warm', unit: 'm3' };
    const csv = renderCsv(t, file(t, 'readings'), [
      {
        measuring_point_id: 'p1',
        ...where,
        device_id: 'd1',
        serial: 'S;1',
        at: '2025-01-31',
        value: '12.5',
        status: 'measured',
        is_synthetic: false,
        substitution_method: null,
      },
      {
        measuring_point_id: 'p1',
        ...where,
        device_id: 'd1',
        serial: 'S2',
        at: '2025-02-28',
        value: -0.25,
        status: 'calculated',
        is_synthetic: true,
        substitution_method: 'degree_day_weighted',
      },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.slice(1)).toBe(
      'Messstellen-ID;Nutzeinheit;Verbrauchsart;Einheit;Geräte-ID;Zählernummer;Stichtag;Ablesewert;Status;Errechnet;Ersatzwertverfahren\r\n' +
        'p1;WE 1;Warmwasser;m³;d1;"S;1";31.01.2025;12,5;gemessen;nein;\r\n' +
        'p1;WE 1;Warmwasser;m³;d1;S2;28.02.2025;-0,25;berechnet;ja;nach Gradtagzahlen gewichtet\r\n',
    );
  });

  it('keeps a comma inside a text field unquoted under de but quotes it under generic', () => {
    expect(csvField('a,b', ';')).toBe('a,b');
    expect(csvField('a,b', ',')).toBe('"a,b"');
    expect(csvField('x\ry', ';')).toBe('"x\ry"');
  });

  it('never writes exponent notation', () => {
    expect(plainNumber(1e-7)).toBe('0.0000001');
    expect(plainNumber(1.5e21)).toBe('1500000000000000000000');
    expect(plainNumber('1e-7')).toBe('0.0000001');
    expect(plainNumber('-0')).toBe('0');
    expect(plainNumber('12.50')).toBe('12.50');
    expect(() => plainNumber(Number.NaN)).toThrow();
  });
});
