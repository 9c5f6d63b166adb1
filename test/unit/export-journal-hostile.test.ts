// The journal read back, hostile files (issues 11, 14): a saved file nested deeper
// than any answer of the contract. It parsed, then JSON.stringify (the identity compared,
// meta.json written again) overflowed the stack: exit 1 with a trace instead of starting over.
// And a run interrupted in English and resumed in German writes one language only.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { runExport } from '../../src/export/run.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { T0, T1, dataset, fakeApi, reporter, setup } from '../helpers/export-fixtures.js';

afterEach(() => setLanguage('en'));

/** JSON text with "DEEP" replaced by a list nested n times (JSON.stringify itself cannot write it). */
const deepened = (json: unknown, n: number) => JSON.stringify(json).replace('"DEEP"', `${'['.repeat(n)}${']'.repeat(n)}`);

async function interrupted() {
  const data = dataset();
  const s = await setup();
  await runExport({ api: fakeApi(data, { failAt: 2 }).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch(() => undefined);
  const [key] = (await readdir(path.join(s.stateDir, 'exports'))).filter((n) => !n.endsWith('.lock'));
  return { data, s, dir: path.join(s.stateDir, 'exports', key!) };
}

async function rerun(x: Awaited<ReturnType<typeof interrupted>>) {
  const again = fakeApi(x.data);
  const rep = reporter();
  await runExport({ api: again.api, ...x.s, reporter: rep, toolVersion: 't', now: () => T1 });
  return { calls: again.calls, notes: rep.notes.join('\n') };
}

async function contents(dir: string) {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await readFile(path.join(dir, n))).toString('base64')])));
}

describe('a journal file nested deeper than 64 levels', () => {
  it('meta.json (its identity): the progress is dropped and the run starts over', async () => {
    const x = await interrupted();
    const file = path.join(x.dir, 'meta.json');
    const meta = JSON.parse(await readFile(file, 'utf8')) as { identity: Record<string, unknown> };
    meta.identity.note = 'DEEP';
    await writeFile(file, deepened(meta, 20_000));
    const r = await rerun(x);
    expect(r.notes).toContain(`starting over: the saved progress of an earlier run was dropped because ${file} is damaged (nested deeper than 64 levels)`);
  });

  it("a Property's saved answers: fetched again, never billed", async () => {
    const x = await interrupted();
    const file = path.join(x.dir, 'property-000000.json.gz');
    const answers = JSON.parse(gunzipSync(await readFile(file)).toString('utf8')) as { property: Record<string, unknown> };
    answers.property.note = 'DEEP';
    await writeFile(file, gzipSync(deepened(answers, 20_000)));
    const r = await rerun(x);
    expect(r.notes).toContain(`the saved answers in ${file} are damaged (nested deeper than 64 levels); fetching them again.`);
  });
});

describe('a run interrupted in one language and resumed in the other', () => {
  it('writes every file in the language of the run that finishes, as an uninterrupted German run does', async () => {
    const x = await interrupted();
    setLanguage('de');
    const ref = await setup();
    await runExport({ api: fakeApi(x.data).api, ...ref, reporter: reporter(), toolVersion: 't', now: () => T0 });
    // As the CLI does: the template is loaded in the run's language (its default sheet names).
    await rerun({ ...x, s: { ...x.s, template: await loadTemplate('generic', process.cwd()) } });
    const [got, want] = [await contents(x.s.args.out), await contents(ref.args.out)];
    expect(got).toEqual(want);
  });
});

describe('a saved file that unpacks to more than the journal allows', () => {
  it('is damaged: fetched again, and the memory it could fill is never allocated', async () => {
    const x = await interrupted();
    const file = path.join(x.dir, 'property-000000.json.gz');
    // about 600 KB of gzip that unpacks to 600 MiB
    await writeFile(file, gzipSync(Buffer.alloc(600 * 1024 * 1024, 0x20), { level: 9 }));
    const r = await rerun(x);
    expect(r.notes).toContain(`the saved answers in ${file} are damaged (it unpacks to more than 512 MB); fetching them again.`);
  }, 60_000);
});
