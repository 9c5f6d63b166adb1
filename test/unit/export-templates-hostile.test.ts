// User templates, hostile files (issues 11, 14): two columns under one header. An ERP
// import, or `--compare DIR` reading the file back, takes the first column for both: the
// count of points could be read as a consumption. Refused with the JSON path, in both languages.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

async function refusal(doc: unknown): Promise<UsageError> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-tpl-hostile-'));
  await writeFile(path.join(dir, 'my.json'), JSON.stringify(doc));
  try {
    await loadTemplate('./my.json', dir);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).code).toBe('EXPORT_TEMPLATE_INVALID');
    return e as UsageError;
  }
  throw new Error('the template was accepted');
}

describe('two columns under one header', () => {
  it('refuses a header given twice, in any case, naming both columns', async () => {
    const e = await refusal({
      extends: 'de',
      files: { billing: { columns: ['usage_unit_name', { key: 'points', header: 'Verbrauch' }, { key: 'billable_value', header: 'verbrauch ' }] } },
    });
    expect(e.message).toBe(
      'template ./my.json: files.billing.columns[2].header: header "verbrauch " is already the header of column "points" (an import could not tell them apart).',
    );
  });

  it("refuses a key whose inherited header is another column's header", async () => {
    const e = await refusal({ extends: 'generic', files: { billing: { columns: [{ key: 'property_name', header: 'usage_unit_name' }, 'usage_unit_name'] } } });
    expect(e.message).toMatch(/files\.billing\.columns\[1\]: header "usage_unit_name" is already the header of column "property_name"/);
  });

  it('says it in German', async () => {
    setLanguage('de');
    const e = await refusal({
      extends: 'de',
      files: {
        review: {
          columns: [
            { key: 'metric', header: 'Medium' },
            { key: 'metric_code', header: 'Medium' },
          ],
        },
      },
    });
    expect(e.message).toMatch(/Überschrift "Medium" trägt schon die Spalte "metric"/);
    expect(await findEnglish(`${e.message}\n${e.hint}`)).toEqual([]);
  });

  it('keeps the built-in layouts, whose headers are all different', async () => {
    for (const name of ['generic', 'de']) {
      for (const f of (await loadTemplate(name, process.cwd())).files)
        expect(new Set(f.columns.map((c) => c.header.toLowerCase())).size).toBe(f.columns.length);
    }
  });
});

describe('a --template path that is no template file', () => {
  async function refusedPath(given: string, setup: (dir: string) => Promise<void>): Promise<UsageError> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-tpl-hostile-'));
    await setup(dir);
    try {
      await loadTemplate(given, dir);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).code).toBe('EXPORT_TEMPLATE_INVALID');
      return e as UsageError;
    }
    throw new Error('the template was accepted');
  }

  it('a folder is named as one (not EISDIR), in both languages', async () => {
    expect((await refusedPath('./tpl', (d) => mkdir(path.join(d, 'tpl')))).message).toBe('--template ./tpl is a folder, not a file.');
    setLanguage('de');
    const e = await refusedPath('./tpl', (d) => mkdir(path.join(d, 'tpl')));
    expect(e.message).toBe('--template ./tpl ist ein Ordner, keine Datei.');
    expect(await findEnglish(`${e.message}\n${e.hint}`)).toEqual([]);
  });

  // Before: a FIFO blocked the run for ever and /dev/zero was read until memory ran out.
  it('a FIFO and a device are refused at once, without reading from them', async () => {
    const started = Date.now();
    expect((await refusedPath('./pipe.json', async (d) => void execFileSync('mkfifo', [path.join(d, 'pipe.json')]))).message).toMatch(
      /^--template \.\/pipe\.json is not a file/,
    );
    expect((await refusedPath('/dev/zero', async () => undefined)).message).toMatch(/^--template \/dev\/zero is not a file/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a file over 1 MB is refused, even when it is valid JSON', async () => {
    const big = JSON.stringify({ extends: 'generic', description: 'x'.repeat(1 << 20) });
    expect((await refusedPath('./big.json', (d) => writeFile(path.join(d, 'big.json'), big))).message).toBe(
      '--template ./big.json: the file is larger than 1024 kB; a template is a short JSON file.',
    );
  });
});

describe("a file name longer than the folder's file names may be", () => {
  it('refuses more than 200 bytes (70 CJK letters are 214), accepts 199', async () => {
    const e = await refusal({ extends: 'generic', files: { billing: { file: `${'漢'.repeat(70)}.csv` } } });
    expect(e.message).toMatch(/files\.billing\.file: must be a plain file name ending in \.csv, at most 200 bytes long/);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-tpl-long-'));
    await writeFile(path.join(dir, 'my.json'), JSON.stringify({ extends: 'generic', files: { billing: { file: `${'漢'.repeat(65)}.csv` } } }));
    const t = await loadTemplate('./my.json', dir);
    expect(t.files.find((f) => f.table === 'billing')!.file).toBe(`${'漢'.repeat(65)}.csv`);
  });
});
