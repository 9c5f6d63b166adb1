// --unit-refs (issue 11): the accountant's ERP reference per unit, from a CSV file that may
// come from Excel, a script or a hand; every bad line is one error naming it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { renderCsv } from '../../src/export/output/formats/csv/csv-writer.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { parseUnitRefs, readUnitRefs, unitRefIndex, withUnitRefs } from '../../src/export/steps/unit-refs/index.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';
const U3 = '33333333-3333-4333-8333-333333333333';

function refused(text: string): UsageError {
  try {
    parseUnitRefs(text, 'refs.csv');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    expect((e as UsageError).code).toBe('EXPORT_UNIT_REFS_INVALID');
    expect((e as Error).message).not.toContain('\n');
    return e as UsageError;
  }
  throw new Error('the file was accepted');
}

describe('reading a --unit-refs file', () => {
  it('takes either separator, a BOM, quotes, CRLF, empty lines, a header in other case and extra columns', () => {
    const text = `\uFEFFName;USAGE_UNIT_ID; Erp_Ref ;Notiz\r\n"WE 1; links";${U1};"0001234560001";x\r\n\r\n;;;\r\nWE 2;${U2.toUpperCase()};=SUM(A1);"mit ""Zitat"""\r\n`;
    expect(parseUnitRefs(text, 'refs.csv').entries).toEqual([
      [U1, '0001234560001', 2],
      [U2, '=SUM(A1)', 5],
    ]);
    expect(parseUnitRefs(`usage_unit_id,erp_ref\n${U1},A-1\n`, 'r').entries).toEqual([[U1, 'A-1', 2]]);
  });

  it('counts lines as an editor does, also after a quoted field spanning two lines', () => {
    const e = refused(`usage_unit_id;erp_ref;note\n${U1};1;"two\nlines"\nnot-a-uuid;2;x\n`);
    expect(e.message).toBe('--unit-refs refs.csv line 4: "not-a-uuid" is not a unit id (a UUID such as 3f2a…-…).');
    expect(e.hint).toMatch(/^Correct line 4 of refs\.csv/);
  });

  it('leaves a unit listed without a reference to the findings', () => {
    expect(parseUnitRefs(`usage_unit_id,erp_ref\n${U1},\n${U2},B\n`, 'r').entries).toEqual([[U2, 'B', 3]]);
  });

  it('refuses two different references for one unit, naming both lines; the same one twice is harmless', () => {
    const e = refused(`usage_unit_id,erp_ref\n${U1},A\n${U2},B\n${U1.toUpperCase()},C\n`);
    expect(e.message).toBe('--unit-refs refs.csv line 4: this unit already has another erp_ref on line 2.');
    expect(e.hint).toBe('Keep one of lines 2 and 4: a unit has one ERP reference.');
    expect(parseUnitRefs(`usage_unit_id,erp_ref\n${U1},A\n${U1},A\n`, 'r').entries).toEqual([[U1, 'A', 2]]);
  });

  it.each([
    ['a missing column', `usage_unit_id;ref\n${U1};A\n`, /line 1: no column erp_ref\.$/],
    ['an empty file', '', /line 1: no column usage_unit_id\.$/],
    ['a header below empty lines without a column', `\r\n;\r\nusage_unit_id;erp-ref\r\n`, /line 3: no column erp_ref\.$/],
    ['a short line', `usage_unit_id;erp_ref\n${U1}\n`, /line 2: 1 field, but erp_ref is field 2\.$/],
    ['a short line, the id column last', `erp_ref;name;usage_unit_id\nA;WE 1\n`, /line 2: 2 fields, but usage_unit_id is field 3\.$/],
    ['an open quote', `usage_unit_id;erp_ref\n${U1};"A\n`, /line 2: a quote is opened and never closed\.$/],
    ['a line break inside a reference', `usage_unit_id;erp_ref\n${U1};"A\nB"\n`, /line 2: the erp_ref holds a line break/],
    ['an over-long reference', `usage_unit_id;erp_ref\n${U1};${'9'.repeat(101)}\n`, /line 2: the erp_ref is longer than 100 characters\.$/],
    ['a non-UUID id', `usage_unit_id;erp_ref\nWE 1;A\n`, /line 2: "WE 1" is not a unit id/],
  ])('refuses %s', (_what, text, message) => {
    expect(refused(text).message).toMatch(message);
  });

  it('refuses a file that is not UTF-8, a missing file, and one too large, before anything is read further', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-refs-'));
    await writeFile(path.join(dir, 'latin1.csv'), Buffer.from(`usage_unit_id;erp_ref\n${U1};M\xfcller\n`, 'latin1'));
    expect(() => readUnitRefs('latin1.csv', dir)).toThrow(/--unit-refs latin1\.csv: the file is not UTF-8 text\./);
    expect(() => readUnitRefs('nope.csv', dir)).toThrow(/--unit-refs: cannot read nope\.csv \(ENOENT\)\./);
    expect(readUnitRefs(undefined, dir)).toBeNull();
    const many = `usage_unit_id;erp_ref\n${Array.from({ length: 20_000 }, (_, i) => `${U1.slice(0, 24)}${String(i).padStart(12, '0')};${i}`).join('\n')}\n`;
    await writeFile(path.join(dir, 'many.csv'), many);
    expect(readUnitRefs('many.csv', dir)!.entries).toHaveLength(20_000);
  });

  it('says it in German with --lang de', async () => {
    setLanguage('de');
    const e = refused(`usage_unit_id;erp_ref\n${U1};A\n${U1};B\n`);
    expect(e.message).toBe('--unit-refs refs.csv Zeile 3: Diese Nutzeinheit hat in Zeile 2 schon eine andere erp_ref.');
    expect(await findEnglish(`${e.message}\n${e.hint}`)).toEqual([]);
  });
});

describe('using the references', () => {
  const refs = parseUnitRefs(`usage_unit_id,erp_ref\n${U1},100\n${U2},100\n${U3},300\n`, 'refs.csv');

  it('adds erp_ref to billing after the unit id, neutralised like any text, in the layout language', async () => {
    const generic = withUnitRefs(await loadTemplate('generic', process.cwd()), refs);
    const billing = generic.files.find((f) => f.table === 'billing')!;
    expect(billing.columns.map((c) => c.key).slice(0, 4)).toEqual(['property_id', 'property_name', 'usage_unit_id', 'erp_ref']);
    const rows = unitRefIndex(parseUnitRefs(`usage_unit_id,erp_ref\n${U1},=1+1\n`, 'r')).withRef([{ usage_unit_id: U1 }, { usage_unit_id: U2 }]);
    expect(renderCsv(generic, { ...billing, columns: billing.columns.filter((c) => c.key === 'erp_ref' || c.key === 'usage_unit_id') }, rows)).toBe(
      `usage_unit_id,erp_ref\r\n${U1},'=1+1\r\n${U2},\r\n`,
    );
    const de = withUnitRefs(await loadTemplate('de', process.cwd()), refs);
    expect(de.files.find((f) => f.table === 'billing')!.columns.find((c) => c.key === 'erp_ref')!.header).toBe('ERP-Nummer');
    expect(withUnitRefs(generic, null)).toBe(generic);
  });

  it('lists units without a reference, references shared by two units, and lines for units not in the export', () => {
    const index = unitRefIndex(refs);
    const other = '44444444-4444-4444-8444-444444444444';
    expect(index.flags('p', [U1, other]).map((f) => [f.code, f.usage_unit_id, f.facts])).toEqual([
      ['UNIT_REF_SHARED', U1, { erp_ref: '100', lines: '2, 3' }],
      ['UNIT_REF_MISSING', other, undefined],
    ]);
    expect(index.unknown().map((f) => [f.code, f.severity, f.usage_unit_id, f.facts])).toEqual([
      ['UNIT_REF_UNKNOWN', 'info', U2, { erp_ref: '100', lines: '3' }],
      ['UNIT_REF_UNKNOWN', 'info', U3, { erp_ref: '300', lines: '4' }],
    ]);
    expect(unitRefIndex(null).flags('p', [U1])).toEqual([]);
  });
});

// Round 26: one ERP file for every landlord names mostly other landlords' units; a row per such line (900,000 in a
// file within the bounds) ran the export out of memory after its requests.
describe('many lines for units not in the export', () => {
  const ids = Array.from({ length: 2500 }, (_, i) => `${String(i).padStart(8, '0')}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`);
  const big = parseUnitRefs(`usage_unit_id,erp_ref\n${ids.map((id, i) => `${id},R${i}`).join('\n')}\n`, 'erp.csv');

  it('review.csv lists the first 1,000, in file order; the count is all of them', () => {
    const index = unitRefIndex(big);
    index.flags('p', [ids[0]!, ids[1]!]);
    const unknown = index.unknown();
    expect(unknown).toHaveLength(1000);
    expect(unknown[0]!.usage_unit_id).toBe(ids[2]);
    expect(unknown.at(-1)!.facts).toEqual({ erp_ref: 'R1001', lines: '1003' });
    expect(index.unknownCount()).toBe(2498);
  });

  it('the About sheet says how many and that the first 1,000 are listed, in both languages', async () => {
    const { unitRefsStep } = await import('../../src/export/steps/unit-refs/index.js');
    const step = unitRefsStep(big);
    const about = () => (step.about!() as { facts: [string, string][] }).facts[0]![1];
    expect(about()).toBe('erp.csv (2500 units); 2,500 of its lines name units not in this export, the first 1,000 are listed in review.csv');
    setLanguage('de');
    expect(about()).toBe(
      'erp.csv (2500 Nutzeinheiten); 2.500 ihrer Zeilen nennen Nutzeinheiten, die nicht in diesem Export sind, die ersten 1.000 stehen in review.csv',
    );
    const small = unitRefsStep(parseUnitRefs(`usage_unit_id,erp_ref\n${U1},1\n`, 'r.csv'));
    expect((small.about!() as { facts: [string, string][] }).facts[0]![1]).toBe('r.csv (1 Nutzeinheit)');
  });

  // Round 27: the --json object and the summary line counted the 1,000 listed, not all of them.
  it('the summary counts all of them: the ones beyond the 1,000 listed are the step’s unlisted findings', async () => {
    const { unitRefsStep } = await import('../../src/export/steps/unit-refs/index.js');
    const { Tally } = await import('../../src/export/pipeline/tally.js');
    const step = unitRefsStep(big);
    const tally = new Tally(0);
    tally.findings(step.finish!(), step.unlisted!());
    expect(tally.codes.UNIT_REF_UNKNOWN).toBe(2500);
    expect(tally.flags.info).toBe(2500);
  });
});
