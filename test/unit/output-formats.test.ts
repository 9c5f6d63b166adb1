// The output formats behind one interface and their registry (src/export/output): the names
// `--format` takes, its help and errors come from the registry; the files and the place of the
// findings follow its order; and a format another command registers for its own use goes
// through OutputSet, its mark and rewind, its finishing pass and the commit like csv and xlsx.
import { readdir, readFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { helpTexts } from '../../src/commands/export/texts.js';
import { formatFlag } from '../../src/export/options/options.js';
import {
  completeOutput,
  EXPORT_FORMATS,
  finalNames,
  findingsPlace,
  FORMAT_NAMES,
  formatLabels,
  loadTemplate,
  OutputSet,
  type FileEntry,
  type OutputFormat,
} from '../../src/export/output/index.js';
import { setLanguage } from '../../src/i18n/index.js';

afterEach(() => setLanguage('en'));

/** A format of another command: one `<table>.lines` per table, and `count.txt` written after the walk. */
const lines: OutputFormat = {
  name: 'lines',
  label: 'LINES',
  finalNames: (t) => [...t.files.map((f) => `${f.table}.lines`), 'count.txt'],
  placeOf: (file, written) => (written.some((w) => w.name === `${file.table}.lines`) ? `${file.table}.lines` : null),
  async open({ template, atomic }) {
    const files = new Map(await Promise.all(template.files.map(async (f) => [f.table, await atomic.create(`${f.table}.lines`)] as const)));
    return {
      row: async (table, row) => files.get(table)?.write(`${JSON.stringify(row)}\n`),
      mark: async () => new Map(await Promise.all([...files.values()].map(async (f) => [f, await f.mark()] as const))),
      rewind: async (m: Map<import('../../src/export/folder/atomic.js').BufferedFile, import('../../src/export/folder/atomic.js').FileMark>) => {
        for (const [f, at] of m) await f.rewind(at);
      },
      async stage({ rows }) {
        const entries: FileEntry[] = [];
        for (const [table, f] of files) {
          await atomic.closeFile(f);
          entries.push({ name: `${table}.lines`, bytes: f.bytes, sha256: f.digest(), rows: rows[table] ?? 0 });
        }
        const count = await atomic.create('count.txt');
        await atomic.closeFile(count);
        return { files: entries, finish: { file: count.path, rows: rows.billing ?? 0 } };
      },
    };
  },
  finish: {
    async run(input: { file: string; rows: number }) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(input.file, `${input.rows}\n`);
      return [{ name: 'count.txt', bytes: String(input.rows).length + 1, sha256: '-' }];
    },
  },
};

describe('the registry of output formats', () => {
  it('is what --format takes, in its order; its help and errors list those names', () => {
    expect(FORMAT_NAMES).toEqual(EXPORT_FORMATS.map((f) => f.name));
    expect(formatFlag('xlsx,csv')).toEqual(['csv', 'xlsx']);
    const refusal = (value: string) => {
      try {
        formatFlag(value);
      } catch (x) {
        return [(x as Error).message, (x as { hint: string }).hint];
      }
      return null;
    };
    // the words from before the registry, now built from its names
    expect(refusal('pdf')).toEqual(['--format: unknown format "pdf".', 'Use csv, xlsx or csv,xlsx.']);
    setLanguage('de');
    expect(refusal(',')).toEqual(['--format: Die Liste ist leer.', 'Möglich sind csv, xlsx oder csv,xlsx.']);
  });

  it('names a third format in the help and the command line as a person would (en, de)', () => {
    const three = [...EXPORT_FORMATS, { ...lines, label: 'PDF' }];
    expect(formatLabels(three)).toBe('CSV, XLSX and PDF');
    expect(formatLabels([lines])).toBe('LINES');
    expect(helpTexts.format({ list: 'csv, xlsx, pdf', count: 3 })).toBe('csv, xlsx, pdf, or several of them comma-separated');
    setLanguage('de');
    expect(formatLabels(three)).toBe('CSV, XLSX und PDF');
    expect(formatLabels()).toBe('CSV und XLSX');
    expect(helpTexts.format({ list: 'csv, xlsx, pdf', count: 3 })).toBe('csv, xlsx, pdf oder mehrere davon, durch Komma getrennt');
  });

  it('lists the files in its order whatever the order asked, and finds the findings in the first format that holds them', async () => {
    const t = await loadTemplate('generic', process.cwd());
    expect(finalNames(t, ['xlsx', 'csv'])).toEqual([...t.files.map((f) => f.file), 'billing.xlsx']);
    const review = t.files.find((f) => f.table === 'review')!.file;
    const entry = (name: string) => ({ name, bytes: 0, sha256: '' });
    expect(findingsPlace({ files: [entry(review), entry('billing.xlsx')] }, t)).toBe(review);
    expect(findingsPlace({ files: [entry('billing.xlsx')] }, t)).toBe(`the "${t.files.find((f) => f.table === 'review')!.sheet}" sheet of billing.xlsx`);
    expect(findingsPlace({ files: [] }, t)).toBeNull();
  });
});

describe('a format registered by another command', () => {
  it('gets every row, drops what a rewind drops, finishes after the walk and is committed with the manifest', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-formats-'));
    const t = await loadTemplate('generic', process.cwd());
    const set = new OutputSet(dir, t, ['lines'], [lines]);
    await set.start();
    await set.write('billing', [{ a: 1 }, { a: 2 }]);
    const mark = await set.mark();
    await set.write('billing', [{ a: 3 }]);
    await set.addOverview([], { id: 'p', name: 'P' }, []); // no Overview in this format: nothing happens
    await set.rewind(mark);
    await set.write('review', [{ r: 1 }]);
    const staged = await set.stage([], new Date(0));
    expect(staged).toMatchObject({ lines: { file: path.join(dir, '.count.txt.partial'), rows: 2 } });
    expect(staged.xlsx).toBeUndefined();
    expect(staged.files.map((f) => [f.name, f.rows])).toEqual(t.files.map((f) => [`${f.table}.lines`, { billing: 2, review: 1 }[f.table as string] ?? 0]));
    // under a commit lock whose removal fails after the renames (a state folder gone read-only): the files are
    // committed, and the run is told so, not "no files were put under their final names" (round 63 Y3)
    const events: string[] = [];
    const lock = async () => (
      events.push('locked'),
      { check: () => void events.push('checked'), release: async () => (events.push('unlock'), Promise.reject(new Error('EROFS: read-only file system'))) }
    );
    const held = () => void events.push('held');
    const files = await completeOutput(staged, (f) => ({ files: f.map((x) => x.name) }), {}, [lines], undefined, { held, lock });
    expect(events).toEqual(['held', 'locked', 'held', 'checked', 'unlock']);
    expect(files.map((f) => f.name)).toEqual([...t.files.map((f) => `${f.table}.lines`), 'count.txt']);
    expect((await readdir(dir)).sort()).toEqual([...files.map((f) => f.name), 'meterdata-manifest.json'].sort());
    expect(await readFile(path.join(dir, 'billing.lines'), 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    expect(await readFile(path.join(dir, 'count.txt'), 'utf8')).toBe('2\n');
  });
});
