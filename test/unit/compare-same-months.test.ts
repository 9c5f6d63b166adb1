// The comparison period has as many months as the export's (round 16: `--from 2025-03-15
// --to 2025-09-10 --compare 2024` compared 7 months with 12 and raised 489 CONSUMPTION_CHANGE
// findings on honest data). `--compare YYYY` takes the export's months in that year; a range,
// folder or prompt comparison of another number of months is refused before any request.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { monthsSpanned, sameMonthsIn } from '../../src/core/dates.js';
import { parseExportArgs } from '../../src/export/options/index.js';
import { prepareExport } from '../../src/export/single.js';
import { setLanguage } from '../../src/i18n/index.js';
import { parseRangeInput, rangeFlags } from '../../src/tui/range.js';
import { runCli } from '../helpers/run-cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'md-compare-months-'));
const compareOf = (flags: Record<string, string>) => parseExportArgs(flags, home, {}, new Date('2026-11-27T00:00:00Z')).review?.compare;

afterEach(() => setLanguage('en'));

describe('the same months of another year', () => {
  it('--compare YYYY takes the export period widened to whole months, moved into that year', () => {
    expect(compareOf({ from: '2025-03-15', to: '2025-09-10', compare: '2024' })).toEqual({ from: '2024-03-01', to: '2024-09-30' });
    // a whole calendar year stays the whole year, as before
    expect(compareOf({ year: '2025', compare: '2024' })).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    // across a year end: the year named is the comparison's first
    expect(compareOf({ from: '2024-10-01', to: '2025-03-31', compare: '2023' })).toEqual({ from: '2023-10-01', to: '2024-03-31' });
    // a leap February is the same month: 29 days beside 28
    expect(compareOf({ from: '2025-02-01', to: '2025-02-28', compare: '2024' })).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(compareOf({ from: '2024-01-01', to: '2024-02-29', compare: '2023' })).toEqual({ from: '2023-01-01', to: '2023-02-28' });
    expect(sameMonthsIn({ from: '2024-12-01', to: '2026-01-31' }, '2021', null)).toEqual({ from: '2021-12-01', to: '2023-01-31' });
  });

  it('counts calendar months', () => {
    expect(monthsSpanned({ from: '2024-01-01', to: '2024-12-31' })).toBe(12);
    expect(monthsSpanned({ from: '2025-03-15', to: '2025-09-10' })).toBe(7);
    expect(monthsSpanned({ from: '2024-11-01', to: '2025-02-28' })).toBe(4);
    expect(monthsSpanned({ from: '2024-02-01', to: '2024-02-29' })).toBe(1);
  });

  it('a comparison year that is the export period itself is still refused', () => {
    expect(() => compareOf({ from: '2025-03-01', to: '2025-09-30', compare: '2025' })).toThrow(/--compare 2025 is the export's own period/);
  });
});

describe('a comparison range of another number of months', () => {
  const run = (flags: string[], lang = 'en') =>
    runCli(['export', ...flags, '--out', path.join(home, 'out'), '--lang', lang], { env: { METERDATA_HOME: home }, cwd: home });

  it('is refused with exit 2 and one line naming the comparison of as many months, in both languages', async () => {
    const flags = ['--from', '2025-03-15', '--to', '2025-09-10', '--compare-from', '2024-01-01', '--compare-to', '2024-12-31'];
    const en = await run(flags);
    expect(en.code).toBe(2);
    expect(en.stderr).toBe(
      'meterdata: --compare-from 2024-01-01 --compare-to 2024-12-31 covers 12 months, the export 7 (2025-03-01 to 2025-09-30): periods of different length would show changes where there are none.\n' +
        '  Compare as many months, e.g. --compare-from 2024-03-01 --compare-to 2024-09-30, or --compare 2024 for the same months of 2024.\n',
    );
    const de = await run(flags, 'de');
    expect(de.code).toBe(2);
    expect(de.stderr).toBe(
      'meterdata: --compare-from 2024-01-01 --compare-to 2024-12-31 umfasst 12 Monate, der Export 7 (01.03.2025 bis 30.09.2025): Zeiträume unterschiedlicher Länge zeigten Veränderungen, wo keine sind.\n' +
        '  Vergleichen Sie gleich viele Monate, z. B. --compare-from 2024-03-01 --compare-to 2024-09-30, oder mit --compare 2024 dieselben Monate des Jahres 2024.\n',
    );
  });

  it('is accepted when the months are as many, days widened to whole months and a leap February included', () => {
    expect(compareOf({ from: '2025-03-01', to: '2025-09-30', compareFrom: '2024-03-10', compareTo: '2024-09-05' })).toEqual({
      from: '2024-03-01',
      to: '2024-09-30',
    });
    expect(compareOf({ from: '2025-01-01', to: '2025-06-30', compareFrom: '2024-07-01', compareTo: '2024-12-31' })).toEqual({
      from: '2024-07-01',
      to: '2024-12-31',
    });
    expect(compareOf({ from: '2025-02-01', to: '2025-02-28', compareFrom: '2024-02-01', compareTo: '2024-02-29' })).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(() => compareOf({ from: '2025-02-01', to: '2025-02-28', compareFrom: '2024-02-01', compareTo: '2024-03-01' })).toThrow(
      /covers 2 months, the export 1/,
    );
    expect(() => compareOf({ year: '2025', compareFrom: '2024-02-01', compareTo: '2024-02-29' })).toThrow(/covers 1 month, the export 12/);
    // the first year meterdata reads: the example of as many months is the year after, never a date it refuses
    expect(() => compareOf({ from: '1900-03-01', to: '1900-09-30', compareFrom: '1901-01-01', compareTo: '1901-12-31' })).toThrow(
      /covers 12 months, the export 7/,
    );
  });
});

/** An earlier export folder whose manifest names `range`; what the export of `flags` makes of it before any request (null: accepted). */
async function folderVerdict(range: unknown, flags: Record<string, string>) {
  const dir = await mkdtemp(path.join(home, 'folder-'));
  const billing = 'property_id,usage_unit_id,metric,unit,billable_value\r\n';
  const files = [{ name: 'billing.csv', bytes: Buffer.byteLength(billing), sha256: createHash('sha256').update(billing).digest('hex') }];
  await writeFile(path.join(dir, 'billing.csv'), billing);
  await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify({ tool: 'meterdata', identity: {}, tenant: { id: 't-1' }, range, files }));
  try {
    await prepareExport({ ...flags, compare: dir, out: path.join(dir, 'out') }, { cwd: home, env: {} } as never);
    return null;
  } catch (e) {
    return e as { code: string; message: string; hint?: string };
  }
}

describe('a --compare folder of another number of months', () => {
  const range = { from: '2025-03-01', to: '2025-09-30' };

  it('is refused before any request, naming both lengths and the year of the same months', async () => {
    const e = (await folderVerdict({ from: '2024-01-01', to: '2024-12-31' }, range))!;
    expect(e.code).toBe('EXPORT_COMPARE_MISMATCH');
    expect(e.message).toMatch(
      /: that export covers 12 months \(2024-01-01 to 2024-12-31\), this one 7: periods of different length would show changes where there are none\.$/,
    );
    expect(e.hint).toBe('Compare with the folder of an export of as many months, or with --compare 2024 for the same months of 2024.');
  });

  it('is accepted with as many months (a leap February too); a range it cannot read is left to the later check', async () => {
    expect(await folderVerdict({ from: '2024-03-01', to: '2024-09-30' }, range)).toBeNull();
    expect(await folderVerdict({ from: '2024-02-01', to: '2024-02-29' }, { from: '2025-02-01', to: '2025-02-28' })).toBeNull();
    for (const hostile of [{ from: '2024-13-01', to: '2024-12-31' }, { from: '2024-12-31', to: '2024-01-01' }, { from: 2024 }, null])
      expect(await folderVerdict(hostile, range)).toBeNull();
  });
});

describe("browse's prompt", () => {
  it('reads "vs 2024" as the same months and refuses a comparison of another length', () => {
    expect(parseRangeInput('2025-03-15..2025-09-10 vs 2024')).toEqual({
      ok: true,
      range: { from: '2025-03-15', to: '2025-09-10', compare: { from: '2024-03-01', to: '2024-09-30' } },
    });
    expect(parseRangeInput('2025-03-01..2025-09-30 vs 2024-01-01..2024-12-31')).toEqual({
      ok: false,
      message: 'the comparison covers 12 months, the range 7: compare as many months, e.g. 2025-03-01..2025-09-30 vs 2024',
    });
    setLanguage('de');
    expect(parseRangeInput('2025 vs 2024-03-01..2024-09-30')).toMatchObject({
      message: 'der Vergleich umfasst 7 Monate, der Zeitraum 12: bitte gleich viele Monate vergleichen, z. B. 2025 vs 2024',
    });
  });

  it('suggests a year that exists: a year later for the first year meterdata takes (1900)', () => {
    expect(parseRangeInput('1900 vs 1900')).toEqual({ ok: false, message: expect.stringContaining('e.g. 1900 vs 1901') });
    expect(parseRangeInput('1901 vs 1901')).toEqual({ ok: false, message: expect.stringContaining('e.g. 1901 vs 1900') });
  });

  it("hands export flags that mean the prompt's comparison", () => {
    const range = { from: '2025-02-01', to: '2026-01-31', compare: { from: '2024-01-01', to: '2024-12-31' } };
    // --compare 2024 would now mean February 2024 to January 2025
    expect(rangeFlags(range)).toBe('--from 2025-02-01 --to 2026-01-31 --compare-from 2024-01-01 --compare-to 2024-12-31');
    expect(rangeFlags({ from: '2025-03-01', to: '2025-09-30', compare: { from: '2024-03-01', to: '2024-09-30' } })).toBe(
      '--from 2025-03-01 --to 2025-09-30 --compare 2024',
    );
    expect(rangeFlags({ from: '2025-01-01', to: '2025-12-31', compare: { from: '2024-01-01', to: '2024-12-31' } })).toBe('--year 2025 --compare 2024');
  });
});
