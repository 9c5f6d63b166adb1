// --unit-refs (issues 11, 14): the hostile file. Each case here was
// accepted, hung or ate memory before; the error must be one line naming the fix, exit 2.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { parseUnitRefs, readUnitRefs } from '../../src/export/steps/unit-refs/index.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const U1 = '11111111-1111-4111-8111-111111111111';

function refusedBy(read: () => unknown): UsageError {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).code).toBe('EXPORT_UNIT_REFS_INVALID');
    expect((e as UsageError).exitCode).toBe(2);
    expect((e as Error).message).not.toContain('\n');
    return e as UsageError;
  }
  throw new Error('the file was accepted');
}

describe('an erp_ref with characters that are not there to be read', () => {
  it.each([
    ['a C1 control (U+009B, the 8-bit CSI)', '\u009b2J0001'],
    ['a right-to-left override (U+202E)', '0001\u202e0002'],
    ['a left-to-right isolate (U+2066)', '\u20660001'],
    ['a right-to-left mark (U+200F)', '0001\u200f'],
    ['a zero-width space (U+200B)', '0001\u200b0002'],
    ['a byte order mark inside (U+FEFF)', '00\ufeff01'],
  ])('refuses %s naming the line', (_what, ref) => {
    const e = refusedBy(() => parseUnitRefs(`usage_unit_id;erp_ref\n${U1};${ref}\n`, 'refs.csv'));
    expect(e.message).toBe('--unit-refs refs.csv line 2: the erp_ref holds a line break, a control character or an invisible character.');
  });

  it('keeps letters of any script, umlauts and punctuation an ERP number may hold', () => {
    expect(parseUnitRefs(`usage_unit_id;erp_ref\n${U1};Müller/ÄÖÜ-ß.#1 אב\n`, 'r').entries).toEqual([[U1, 'Müller/ÄÖÜ-ß.#1 אב', 2]]);
  });
});

describe('a header that names a column twice', () => {
  // The first of them was taken silently: the ids (or references) may have come from the wrong column.
  it.each(['usage_unit_id', 'erp_ref'])('refuses two columns named %s', (column) => {
    const text = column === 'erp_ref' ? `usage_unit_id;erp_ref;ERP_Ref\n${U1};A;B\n` : `usage_unit_id;erp_ref; Usage_Unit_Id\n${U1};A;${U1}\n`;
    expect(refusedBy(() => parseUnitRefs(text, 'refs.csv')).message).toBe(`--unit-refs refs.csv line 1: the column ${column} is named twice.`);
  });
});

describe('a --unit-refs path that is no file to read', () => {
  it('says a folder is a folder (not EISDIR), in both languages', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-refs-'));
    await mkdir(path.join(dir, 'refs'));
    expect(refusedBy(() => readUnitRefs('refs', dir)).message).toBe('--unit-refs refs is a folder, not a file.');
    setLanguage('de');
    const e = refusedBy(() => readUnitRefs('refs', dir));
    expect(e.message).toBe('--unit-refs refs ist ein Ordner, keine Datei.');
    expect(await findEnglish(`${e.message}\n${e.hint}`)).toEqual([]);
  });

  // Before: /dev/zero was read until memory ran out, and a FIFO without a writer blocked the run for ever.
  it('refuses a device and a FIFO at once, without reading from them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-refs-'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.csv')]);
    const started = Date.now();
    expect(refusedBy(() => readUnitRefs('pipe.csv', dir)).message).toBe(
      '--unit-refs pipe.csv is not a file (a pipe or a device cannot be read before the run).',
    );
    expect(refusedBy(() => readUnitRefs('/dev/zero', dir)).message).toMatch(/^--unit-refs \/dev\/zero is not a file/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a --unit-refs file that is not what it seems', () => {
  it('refuses UTF-16 without a byte order mark as not UTF-8 (it decodes as "valid" UTF-8 full of NULs)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-refs-'));
    await writeFile(path.join(dir, 'u16.csv'), Buffer.from(`usage_unit_id;erp_ref\r\n${U1};A\r\n`, 'utf16le'));
    await writeFile(path.join(dir, 'u16bom.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`usage_unit_id;erp_ref\r\n${U1};A\r\n`, 'utf16le')]));
    expect(refusedBy(() => readUnitRefs('u16.csv', dir)).message).toBe('--unit-refs u16.csv: the file is not UTF-8 text.');
    expect(refusedBy(() => readUnitRefs('u16bom.csv', dir)).message).toBe('--unit-refs u16bom.csv: the file is not UTF-8 text.');
  });

  // Counted before parsing: 60 MB of empty lines were 60 million records and ran the process out of memory.
  it('counts every line against the bound, empty ones too, before parsing', () => {
    const e = refusedBy(() => parseUnitRefs(`usage_unit_id;erp_ref\n${'\n'.repeat(1_000_000)}`, 'refs.csv'));
    expect(e.message).toBe('--unit-refs refs.csv: more than 1000000 lines.');
    expect(refusedBy(() => parseUnitRefs(`usage_unit_id;erp_ref${'\r'.repeat(1_000_000)}x`, 'r')).message).toMatch(/more than 1000000 lines/);
    // exactly the bound, a last line break included, is fine
    expect(parseUnitRefs(`usage_unit_id;erp_ref\n${U1};A${'\n'.repeat(999_999)}`, 'r').entries).toHaveLength(1);
  });
});

describe('--unit-refs with --property', () => {
  it('a reference for a unit of a Property not exported is UNIT_REF_UNKNOWN (info), never in billing', async () => {
    const { runExport } = await import('../../src/export/run.js');
    const { T0, dataset, fakeApi, reporter, setup } = await import('../helpers/export-fixtures.js');
    const { readFile } = await import('node:fs/promises');
    const data = dataset();
    const s = await setup();
    const [mine, other] = [data[0]!.units[0]!.unit.id, data[1]!.units[0]!.unit.id];
    const args = {
      ...s.args,
      formats: ['csv' as const],
      propertyIds: [data[0]!.property.id],
      unitRefs: parseUnitRefs(`usage_unit_id,erp_ref\n${mine},M-1\n${other},O-1\n`, 'refs.csv'),
    };
    await runExport({ api: fakeApi(data).api, ...s, args, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const billing = await readFile(path.join(args.out, 'billing.csv'), 'utf8');
    expect(billing).toContain(`,${mine},M-1,`);
    expect(billing).not.toContain('O-1');
    const unknown = (await readFile(path.join(args.out, 'review.csv'), 'utf8')).split('\r\n').filter((l) => l.includes('UNIT_REF_UNKNOWN'));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatch(new RegExp(`^info,UNIT_REF_UNKNOWN,.*${other}`));
  });
});
