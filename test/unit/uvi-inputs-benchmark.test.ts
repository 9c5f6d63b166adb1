// --benchmark FILE: the landlord's average user as a CSV written in Excel. German Excel's file
// (semicolons, decimal commas, a byte order mark, CRLF, empty cells after the last column) and a
// comma-separated one read to the same table; every bad table, and every file that is no text
// or no file, is refused with one line naming the file, the line and the fix (exit 2).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { benchmarkMonth, benchmarkProblems } from '../../src/uvi/benchmark.js';
import { parseBenchmarkCsv, parseUviInputs, readBenchmarkFile } from '../../src/uvi/inputs/index.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const HEAD = 'unit_type;service;kwh_per_m2_year;source';
const GOOD = `${HEAD}\nresidential;HEATING;112,5;Heizspiegel Köln 2024\n`;

function refused(read: () => unknown): UsageError {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect([(e as UsageError).code, (e as UsageError).exitCode]).toEqual(['UVI_BENCHMARK_INVALID', 2]);
    expect((e as Error).message).not.toContain('\n');
    return e as UsageError;
  }
  throw new Error('the file was accepted');
}
const parsed = (text: string) => parseBenchmarkCsv(text, 'bench.csv');
const message = (text: string) => refused(() => parsed(text)).message;

describe('a table as Excel writes it', () => {
  it('German Excel: byte order mark, semicolons, decimal commas, CRLF, empty cells after the last column, a quoted source', () => {
    const text =
      '\uFEFFunit_type;service;kwh_per_m2_year;source;;\r\nresidential;HEATING;112,5;"Heizspiegel Köln 2024; Mittelwert";;\r\nresidential;HOT_WATER;22;"Heizspiegel Köln 2024; Mittelwert";;\r\n;;;;;\r\ncommercial;HEATING;95,25;Eigene Vergleichsgruppe des Messdienstes 2024;;\r\n';
    const table = parsed(text);
    expect(table).toEqual({
      source: 'Heizspiegel Köln 2024; Mittelwert; Eigene Vergleichsgruppe des Messdienstes 2024',
      rows: [
        { unit_type: 'residential', service: 'HEATING', kwh_per_m2_year: 112.5 },
        { unit_type: 'residential', service: 'HOT_WATER', kwh_per_m2_year: 22 },
        { unit_type: 'commercial', service: 'HEATING', kwh_per_m2_year: 95.25 },
      ],
    });
    expect(benchmarkProblems(table)).toEqual([]);
    // November's share of 112.5 kWh/(m²·a) for 80 m²: 112.5 × 80 × 120/1000 = 1080 kWh.
    expect(Number((benchmarkMonth(table, 'residential', 'HEATING', 80, '2025-11') as { kwh: { toNumber(): number } }).kwh.toNumber())).toBeCloseTo(1080, 9);
  });

  it('Excel\'s "sep=" line before the header names the separator and is no header', () => {
    const table = parsed(`sep=;\n${HEAD}\nresidential;HEATING;112,5;Heizspiegel Köln 2024\n`);
    expect(table.rows).toEqual([{ unit_type: 'residential', service: 'HEATING', kwh_per_m2_year: 112.5 }]);
    expect(message(`sep=,\n${HEAD}\n`)).toBe('--benchmark bench.csv line 2: unknown column "unit_type;service;kwh_per_m2_year;source".');
  });

  it('commas and decimal points; the columns in another order, named in capitals; words in any case', () => {
    const table = parsed('Source,KWH_PER_M2_YEAR,Service,Unit_Type\nDIW Wärmemonitor 2023,118.0,heating,Residential\n');
    expect(table).toEqual({ source: 'DIW Wärmemonitor 2023', rows: [{ unit_type: 'residential', service: 'HEATING', kwh_per_m2_year: 118 }] });
  });
});

describe('a comma or point before exactly three digits: read only where the file tells the decimal mark', () => {
  const COMMA_HEAD = 'unit_type,service,kwh_per_m2_year,source';
  const valueIn = (text: string) => parsed(text).rows[0]!.kwh_per_m2_year;

  it.each([
    ['"1,000" in German Excel\'s semicolon file', `${HEAD}\nresidential;HEATING;1,000;DIW\n`, 1],
    ['"1,180" there', `${HEAD}\nresidential;HEATING;1,180;DIW\n`, 1.18],
    ['"112,500" there', `${HEAD}\nresidential;HEATING;112,500;DIW\n`, 112.5],
    ['a decimal point of other than three places there', `${HEAD}\nresidential;HEATING;24.5;DIW\n`, 24.5],
    ['a decimal point of two places in a comma file', `${COMMA_HEAD}\nresidential,HEATING,1.18,DIW\n`, 1.18],
    ['a decimal point of four places in a comma file', `${COMMA_HEAD}\nresidential,HEATING,1.1800,DIW\n`, 1.18],
    ['a quoted decimal comma of one place in a comma file', `${COMMA_HEAD}\nresidential,HEATING,"112,5",DIW\n`, 112.5],
  ])('%s is read', (_what, text, value) => {
    expect(valueIn(text)).toBe(value);
  });

  it.each([
    ['"1,000" quoted in a comma file', `${COMMA_HEAD}\nresidential,HEATING,"1,000",DIW\n`, '"1,000" may be a thousands separator or a decimal comma.'],
    ['"1,200" quoted in a comma file', `${COMMA_HEAD}\nresidential,HEATING,"1,200",DIW\n`, '"1,200" may be a thousands separator or a decimal comma.'],
    ['"118,500" quoted in a comma file', `${COMMA_HEAD}\nresidential,HEATING,"118,500",DIW\n`, '"118,500" may be a thousands separator or a decimal comma.'],
    ['1.000 in a comma file', `${COMMA_HEAD}\nresidential,HEATING,1.000,DIW\n`, '"1.000" may be a thousands separator or a decimal point.'],
    ['112.500 in a comma file', `sep=,\n${COMMA_HEAD}\nresidential,HEATING,112.500,DIW\n`, '"112.500" may be a thousands separator or a decimal point.'],
    ['1.000 in a semicolon file', `${HEAD}\nresidential;HEATING;1.000;DIW\n`, '"1.000" may be a thousands separator or a decimal point.'],
  ])('%s is refused as ambiguous', (_what, text, expected) => {
    const e = refused(() => parsed(text));
    expect(e.message).toBe(`--benchmark bench.csv line ${text.startsWith('sep=') ? 3 : 2}: ${expected}`);
    expect(e.hint).toMatch(/without a thousands separator and with other than three decimal places.*semicolon-separated file/);
  });

  it('says it in German, in words', async () => {
    setLanguage('de');
    const e = refused(() => parsed(`${COMMA_HEAD}\nresidential,HEATING,"1,000",DIW\n`));
    expect(e.message).toBe('--benchmark bench.csv Zeile 2: In „1,000“ kann das Komma Tausender- oder Dezimaltrennzeichen sein.');
    expect(e.hint).toMatch(/ohne Tausendertrennzeichen .*Semikolon/);
    expect(await findEnglish(`${e.message}\n${e.hint}`)).toEqual([]);
  });
});

describe('a bad table: one line naming the file, the line and the fix', () => {
  it.each([
    ['a wrong column', 'unit_type;service;kwh_per_m2;source\nresidential;HEATING;118;DIW\n', 'bench.csv line 1: unknown column "kwh_per_m2".'],
    ['a missing column', 'unit_type;service;kwh_per_m2_year\nresidential;HEATING;118\n', 'bench.csv line 1: no column source.'],
    ['a column twice', 'unit_type;service;source;kwh_per_m2_year;source\n', 'bench.csv line 1: the column source is named twice.'],
    ['an unknown service', `${HEAD}\nresidential;COOLING;118;DIW\n`, 'bench.csv line 2: unknown service "COOLING".'],
    ['cold water', `${HEAD}\nresidential;COLD_WATER;18;DIW\n`, 'bench.csv line 2: unknown service "COLD_WATER".'],
    ['an unknown unit type', `${HEAD}\n\noffice;HEATING;118;DIW\n`, 'bench.csv line 3: unknown unit type "office".'],
    ['a negative value', `${HEAD}\nresidential;HEATING;-118;DIW\n`, 'bench.csv line 2: -118 kWh per m² and year; the average user consumes more than nothing.'],
    ['zero', `${HEAD}\nresidential;HEATING;0,0;DIW\n`, 'bench.csv line 2: 0,0 kWh per m² and year; the average user consumes more than nothing.'],
    ['a word', `${HEAD}\nresidential;HEATING;viel;DIW\n`, 'bench.csv line 2: "viel" is not a number of kWh per m² and year.'],
    ['a unit in the cell', `${HEAD}\nresidential;HEATING;118 kWh;DIW\n`, 'bench.csv line 2: "118 kWh" is not a number of kWh per m² and year.'],
    ['an absurd value', `${HEAD}\nresidential;HEATING;11800;DIW\n`, 'bench.csv line 2: 11800 kWh per m² and year lies outside 1 to 1000.'],
    ['a value per month', `${HEAD}\nresidential;HOT_WATER;0,5;DIW\n`, 'bench.csv line 2: 0,5 kWh per m² and year lies outside 1 to 1000.'],
    ['a thousands separator', `${HEAD}\nresidential;HEATING;1.180;DIW\n`, 'bench.csv line 2: "1.180" may be a thousands separator or a decimal point.'],
    [
      'a duplicate row',
      `${HEAD}\nresidential;HEATING;118;DIW\nResidential;heating;120;Heizspiegel\n`,
      'bench.csv line 3: residential HEATING is given twice (first on line 2).',
    ],
    ['no source', `${HEAD}\nresidential;HEATING;118; \n`, 'bench.csv line 2: no source.'],
    [
      'a control character in the source',
      `${HEAD}\nresidential;HEATING;118;"DIW\u202e"\n`,
      'bench.csv line 2: the source holds a line break, a control character or an invisible character.',
    ],
    [
      'a decimal comma in a comma-separated file',
      'unit_type,service,kwh_per_m2_year,source\nresidential,HEATING,118,5,DIW\n',
      'bench.csv line 2: 5 fields where the header names 4.',
    ],
    ['a short line', `${HEAD}\nresidential;HEATING;118\n`, 'bench.csv line 2: 3 fields where the header names 4.'],
    ['an open quote', `${HEAD}\nresidential;HEATING;118;"DIW\n`, 'bench.csv line 2: a quote is opened and never closed.'],
    ['no values', `\uFEFF${HEAD}\r\n;;;\r\n`, 'bench.csv: the file holds no values.'],
    ['nothing at all', '', 'bench.csv: the file holds no values.'],
  ])('%s', (_what, text, expected) => {
    expect(message(text)).toBe(`--benchmark ${expected}`);
  });

  it('hints at the fix, in German too', async () => {
    const e = refused(() => parsed(`${HEAD}\nresidential;HEATING;118;DIW\nresidential;HEATING;120;DIW\n`));
    expect(e.hint).toBe('Keep one of lines 2 and 3: a unit type has one value per service.');
    expect(refused(() => parsed(`${HEAD}\nresidential;HEATING;11800;DIW\n`)).hint).toBe(
      'Give kWh per m² of floor area and year (not per month, not for the whole building), e.g. 118 for heating, 24 for hot water.',
    );
    setLanguage('de');
    const de = refused(() => parsed('unit_type;service;kwh_per_m2;source\n'));
    expect(de.message).toBe('--benchmark bench.csv Zeile 1: unbekannte Spalte „kwh_per_m2“.');
    const negative = refused(() => parsed(`${HEAD}\nresidential;HEATING;-5;DIW\n`));
    expect(negative.message).toBe('--benchmark bench.csv Zeile 2: -5 kWh je m² und Jahr; der Durchschnittsnutzer verbraucht mehr als nichts.');
    expect(
      await findEnglish(
        [de.message, de.hint, negative.message, negative.hint]
          .join('\n')
          .replace(/unit_type|kwh_per_m2_year|kwh_per_m2|source|service|HEATING|HOT_WATER|residential|commercial|technical|traffic/g, ''),
      ),
    ).toEqual([]);
  });
});

describe('the file', () => {
  const dir = () => mkdtemp(path.join(os.tmpdir(), 'md-bench-'));

  it('is read from disk into the inputs; without the flag the default table is used', async () => {
    const d = await dir();
    await writeFile(path.join(d, 'bench.csv'), `\uFEFF${GOOD.replace(/\n/g, '\r\n')}`);
    const inputs = parseUviInputs({ benchmark: 'bench.csv' }, d, new Date('2025-12-05T00:00:00Z'));
    expect(inputs).toMatchObject({
      benchmarkGiven: true,
      benchmark: { source: 'Heizspiegel Köln 2024', rows: [{ unit_type: 'residential', service: 'HEATING', kwh_per_m2_year: 112.5 }] },
    });
    expect(readBenchmarkFile(undefined, d)).toBeNull();
  });

  // A FIFO without a writer would block the run for ever, /dev/zero be read until memory ran out.
  it('refuses a FIFO and a device at once, without reading from them', async () => {
    const d = await dir();
    execFileSync('mkfifo', [path.join(d, 'pipe.csv')]);
    const started = Date.now();
    expect(refused(() => readBenchmarkFile('pipe.csv', d)).message).toBe('--benchmark pipe.csv is not a file (a pipe or a device cannot be read).');
    expect(refused(() => readBenchmarkFile('/dev/zero', d)).message).toBe('--benchmark /dev/zero is not a file (a pipe or a device cannot be read).');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a folder, a missing file and one over 1 MiB', async () => {
    const d = await dir();
    await mkdir(path.join(d, 'tables'));
    await writeFile(path.join(d, 'huge.csv'), `${GOOD}${' '.repeat(1 << 20)}`);
    expect(refused(() => readBenchmarkFile('tables', d)).message).toBe('--benchmark tables is a folder, not a file.');
    expect(refused(() => readBenchmarkFile('none.csv', d)).message).toBe('--benchmark: cannot read none.csv (ENOENT).');
    const huge = refused(() => readBenchmarkFile('huge.csv', d));
    expect(huge.message).toBe('--benchmark huge.csv: the file is larger than 1024 KB.');
    expect(huge.hint).toBe('Give the path of a CSV file with the columns unit_type, service, kwh_per_m2_year and source (docs/uvi.md).');
  });

  it('refuses Windows-1252 (Excel\'s plain "CSV") and UTF-16 ("Unicode text") as not UTF-8, with how to save it', async () => {
    const d = await dir();
    await writeFile(path.join(d, 'ansi.csv'), Buffer.from(GOOD, 'latin1'));
    await writeFile(path.join(d, 'u16.csv'), Buffer.from(GOOD, 'utf16le'));
    for (const f of ['ansi.csv', 'u16.csv']) {
      const e = refused(() => readBenchmarkFile(f, d));
      expect([e.message, e.hint]).toEqual([
        `--benchmark ${f}: the file is not UTF-8 text.`,
        'Save it as "CSV UTF-8" (Excel) or as UTF-8 text, then run again.',
      ]);
    }
  });
});
