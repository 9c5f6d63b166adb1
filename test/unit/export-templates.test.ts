import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCsv } from '../../src/export/output/formats/csv/csv-writer.js';
import { loadTemplate, OWN_FILES } from '../../src/export/output/templates.js';
import { PORTFOLIO_SUMMARY } from '../../src/export/folder/out-folder.js';
import { UsageError } from '../../src/core/errors.js';
import { inLanguage, setLanguage } from '../../src/i18n/index.js';
import { columnHeaders } from '../../src/export/output/texts-sheets.js';
import { readFile } from 'node:fs/promises';
import { findEnglish } from '../helpers/catalogues.js';

async function userTemplate(doc: unknown): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-tpl-'));
  const file = 'my.json';
  await writeFile(path.join(dir, file), typeof doc === 'string' ? doc : JSON.stringify(doc));
  return { dir, file };
}

async function problem(doc: unknown): Promise<string> {
  const { dir, file } = await userTemplate(doc);
  try {
    await loadTemplate(`./${file}`, dir);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const msg = (e as Error).message;
    expect(msg).not.toContain('\n');
    return msg;
  }
  throw new Error('template was accepted');
}

describe('the German words of the de layout (docs/glossary.md)', () => {
  it('heads every CSV column as the German workbook does, one word for one thing', async () => {
    const de = await loadTemplate('de', process.cwd());
    const sheet = inLanguage(columnHeaders, 'de') as unknown as Record<string, string>;
    for (const f of de.files) for (const c of f.columns) expect(`${f.table}.${c.key}: ${c.header}`).toBe(`${f.table}.${c.key}: ${sheet[c.key]}`);
  });

  it('uses none of the words the glossary retired, in the layout, the workbook or the glossary’s tables', async () => {
    const retired = ['Messart', 'Gerätenummer', 'Schweregrad', 'Zählerstand', 'Systemzuordnung', 'Abrechenbarer Wert', 'Anfangswert', 'Endwert'];
    const glossary = await readFile('docs/glossary.md', 'utf8');
    const tables = glossary
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .join('\n');
    for (const [what, text] of [
      ['templates/de.json', await readFile('templates/de.json', 'utf8')],
      ['workbook headers', JSON.stringify(inLanguage(columnHeaders, 'de'))],
      ['glossary', tables],
    ] as const) {
      for (const w of retired) expect(text.includes(w), `${what} says ${w}`).toBe(false);
    }
    for (const w of ['Verbrauchsart', 'Einstufung', 'Zählernummer', 'Ablesewert', 'Anfangsstand', 'Befund']) expect(glossary).toContain(w);
  });
});

describe('templates', () => {
  it('loads both built-ins with every table', async () => {
    for (const name of ['generic', 'de']) {
      const t = await loadTemplate(name, process.cwd());
      expect(t.files.map((f) => f.table)).toEqual(['billing', 'segments', 'readings', 'plant-points', 'review', 'plausibility']);
    }
    const de = await loadTemplate('de', process.cwd());
    expect([de.separator, de.decimal, de.dateFormat, de.bom, de.language]).toEqual([';', ',', 'dd.mm.yyyy', true, 'de']);
  });

  it('lets a user template rename, pick and order columns and change the style', async () => {
    const { dir, file } = await userTemplate({
      extends: 'de',
      separator: '\t',
      bom: false,
      files: { billing: { columns: ['usage_unit_name', { key: 'billable_value', header: 'Verbrauch' }, 'to'] }, readings: false },
    });
    const t = await loadTemplate(`./${file}`, dir);
    expect(t.files.map((f) => f.table)).toEqual(['billing', 'segments', 'plant-points', 'review', 'plausibility']);
    const billing = t.files[0]!;
    const csv = renderCsv(t, billing, [{ usage_unit_name: 'WE 1', billable_value: '3.25', to: '2025-12-31', metric: 'heat' }]);
    expect(csv).toBe('Nutzeinheit\tVerbrauch\tBis\r\nWE 1\t3,25\t31.12.2025\r\n');
  });

  it('names the problem in one line', async () => {
    expect(await problem('{ "separator": ";", ')).toMatch(/^template \.\/my\.json: not valid JSON/);
    expect(await problem({ separator: '#' })).toMatch(/separator: must be/);
    expect(await problem({ decimal: ',', separator: ',' })).toMatch(/decimal: cannot equal the separator/);
    expect(await problem({ files: { billing: { columns: ['nope'] } } })).toMatch(/files\.billing\.columns\[0\]: unknown column "nope"/);
    expect(await problem({ files: { billing: { columns: ['metric', 'metric'] } } })).toMatch(/listed twice/);
    expect(await problem({ files: { bills: {} } })).toMatch(/files\.bills: unknown setting/);
    expect(await problem({ files: { billing: { sheet: 'a/b' } } })).toMatch(/files\.billing\.sheet/);
    expect(await problem({ files: { billing: { file: '../x.csv' } } })).toMatch(/files\.billing\.file/);
    expect(await problem({ extends: 'fancy' })).toMatch(/extends: must be/);
    expect(await problem({ date_format: 'dd/mm' })).toMatch(/date_format/);
    expect(await problem({ colour: 'red' })).toMatch(/colour: unknown setting/);
    expect(await problem({ files: { billing: false, segments: false, readings: false, 'plant-points': false, review: false } })).toMatch(
      /leaves out every table/,
    );
  });

  // round 34 F1: a table named like the multi-profile run's summary had every later run into that root refused
  it('refuses a table file named like a file meterdata writes of its own, in any case', async () => {
    expect(OWN_FILES).toEqual([PORTFOLIO_SUMMARY]);
    for (const file of ['portfolio-summary.csv', 'Portfolio-Summary.csv'])
      expect(await problem({ files: { review: { file } } })).toMatch(
        new RegExp(`files\\.review: file name ${file.replace('.', '\\.')} is meterdata's own: an export of several profiles writes its summary there`),
      );
    expect(await problem({ files: { review: { file: 'portfolio-summary-2025.csv' } } }).catch((e: Error) => e.message)).toBe('template was accepted');
  });

  it('names the setting and the fix for damaged values at any depth (valibot schema)', async () => {
    expect(await problem({ files: { billing: { columns: ['metric', { key: 'unit', header: '' }] } } })).toBe(
      'template ./my.json: files.billing.columns[1].header: must be a non-empty text, not "".',
    );
    expect(await problem({ files: { billing: { columns: ['metric', { key: 'unit', colour: 1 }] } } })).toBe(
      'template ./my.json: files.billing.columns[1].colour: unknown setting (allowed: key, header).',
    );
    expect(await problem({ files: { review: 'yes' } })).toBe(
      'template ./my.json: files.review: must be an object {"file", "sheet", "columns"} or false to leave the table out, not "yes".',
    );
    expect(await problem({ booleans: ['ja', 'ja'] })).toMatch(/^template \.\/my\.json: booleans: must be two different words/);
    expect(await problem({ bom: 'yes' })).toBe('template ./my.json: bom: must be true or false, not "yes".');
    expect(await problem({ values: 'names' })).toBe('template ./my.json: values: must be "codes" or "words", not "names".');
    expect(await problem({ files: { billing: { sheet: "Mieter's" } } })).toMatch(/files\.billing\.sheet: a sheet name must be 1 to 31 characters/);
    expect(await problem([1])).toBe('template ./my.json: a template must be a JSON object.');
  });

  it('says what is wrong in German with --lang de', async () => {
    setLanguage('de');
    try {
      const msg = await problem({ files: { billing: { columns: ['nope'] } } });
      expect(msg).toMatch(/^Vorlage \.\/my\.json: files\.billing\.columns\[0\]: unbekannte Spalte "nope" \(billing hat: /);
      expect(await findEnglish(msg)).toEqual([]);
    } finally {
      setLanguage('en');
    }
  });

  it('writes codes or words as the layout says, and the codes of a word column through <key>_code', async () => {
    const row = { metric: 'water_cold', unit: 'm3', unit_type: 'residential', usage_unit_name: 'WE 1' };
    const { dir, file } = await userTemplate({
      extends: 'de',
      files: { billing: { columns: ['usage_unit_name', 'metric', 'metric_code', 'unit', 'unit_type_code'] } },
    });
    const de = await loadTemplate(`./${file}`, dir);
    expect(renderCsv(de, de.files[0]!, [row]).slice(1)).toBe(
      'Nutzeinheit;Verbrauchsart;metric_code;Einheit;unit_type_code\r\nWE 1;Kaltwasser;water_cold;m³;residential\r\n',
    );
    const codes = await userTemplate({ extends: 'de', values: 'codes', files: { billing: { columns: ['metric', 'unit'] } } });
    const t = await loadTemplate(`./${codes.file}`, codes.dir);
    expect(renderCsv(t, t.files[0]!, [row]).slice(1)).toBe('Verbrauchsart;Einheit\r\nwater_cold;m3\r\n');
    const generic = await loadTemplate('generic', process.cwd());
    expect(
      renderCsv(generic, { ...generic.files[0]!, columns: generic.files[0]!.columns.filter((c) => c.key === 'metric' || c.key === 'unit_type') }, [row]),
    ).toBe('unit_type,metric\r\nresidential,water_cold\r\n');
  });

  it('refuses an unknown name and a missing file naming --template', async () => {
    await expect(loadTemplate('fancy', process.cwd())).rejects.toThrow(/--template: no template named "fancy"/);
    await expect(loadTemplate('./nope.json', os.tmpdir())).rejects.toThrow(/--template: cannot read \.\/nope\.json/);
  });
});
