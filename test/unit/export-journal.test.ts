// The journal read back: a damaged meta.json or saved answer (a full disk, a crash, a hand
// edit) is named in a note and dropped or fetched again; it is never resumed from or billed.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { LOCK_DAMAGED_STALE_MS } from '../../src/export/journal/journal.js';
import { runExport } from '../../src/export/run.js';
import { T0, T1, dataset, fakeApi, reporter, setup } from '../helpers/export-fixtures.js';
import { findEnglish } from '../helpers/catalogues.js';

async function contents(dir: string) {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await readFile(path.join(dir, n))).toString('base64')])));
}

/** An export interrupted at its third Property (the first two saved), and the folder of its journal. */
async function interrupted() {
  const data = dataset();
  const s = await setup();
  await runExport({ api: fakeApi(data, { failAt: 2 }).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch(() => undefined);
  const [key] = (await readdir(path.join(s.stateDir, 'exports'))).filter((n) => !n.endsWith('.lock'));
  const dir = path.join(s.stateDir, 'exports', key!);
  expect((await readdir(dir)).sort()).toEqual(['meta.json', 'property-000000.json.gz', 'property-000001.json.gz']);
  return { data, s, dir };
}

async function reference(data: ReturnType<typeof dataset>) {
  const ref = await setup();
  await runExport({ api: fakeApi(data).api, ...ref, reporter: reporter(), toolVersion: 't', now: () => T0 });
  return contents(ref.args.out);
}

async function rerun(x: Awaited<ReturnType<typeof interrupted>>) {
  const again = fakeApi(x.data);
  const rep = reporter();
  const summary = await runExport({ api: again.api, ...x.s, reporter: rep, toolVersion: 't', now: () => T1 });
  return { summary, calls: again.calls, notes: rep.notes.join('\n') };
}

const editJson = async (file: string, edit: (j: Record<string, unknown>) => void) => {
  const j = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(j);
  await writeFile(file, JSON.stringify(j));
};
const editAnswers = async (file: string, edit: (j: any) => void) => {
  const j = JSON.parse(gunzipSync(await readFile(file)).toString('utf8'));
  edit(j);
  await writeFile(file, gzipSync(JSON.stringify(j)));
};

afterEach(() => setLanguage('en'));

describe('a damaged meta.json: the saved progress is dropped, naming the file and what is wrong', () => {
  it.each([
    ['cut off', async (f: string) => writeFile(f, (await readFile(f, 'utf8')).slice(0, 40)), /meta\.json is damaged \(cut off or not valid JSON\)/],
    [
      'a start time that is a number',
      (f: string) => editJson(f, (j) => (j.startedAt = 5)),
      /meta\.json is damaged \(field startedAt is missing or has the wrong type\)/,
    ],
    ['no tenant', (f: string) => editJson(f, (j) => delete j.tenantId), /meta\.json is damaged \(field tenantId is missing or has the wrong type\)/],
    ['a scope that is neither "all" nor a list', (f: string) => editJson(f, (j) => (j.propertyScope = 'some')), /field propertyScope is missing/],
    [
      'a Property without a name',
      (f: string) => editJson(f, (j) => delete (j.properties as Record<string, unknown>[])[1]!.name),
      /meta\.json is damaged \(field properties\.1\.name is missing or has the wrong type\)/,
    ],
  ] as const)('%s', async (_what, damage, note) => {
    const x = await interrupted();
    await damage(path.join(x.dir, 'meta.json'));
    const r = await rerun(x);
    expect(r.notes).toMatch(/^starting over: the saved progress of an earlier run was dropped because /);
    expect(r.notes).toContain(path.join(x.dir, 'meta.json'));
    expect(r.notes).toMatch(note);
    // started over: the Property list and every Property fetched again, the export time is this run's
    expect(r.calls).toContain('properties');
    expect(r.calls.filter((c) => c.startsWith('consumption:')).length).toBe(6);
    expect(r.summary.exportedAt).toBe('2026-11-22T09:30:00Z');
  });

  it('a meta.json that cannot be read at all (a folder in its place) is named with the reason', async () => {
    const x = await interrupted();
    const meta = path.join(x.dir, 'meta.json');
    await rm(meta);
    await mkdir(meta);
    const r = await rerun(x);
    expect(r.notes).toBe(`starting over: the saved progress of an earlier run was dropped because ${meta} is damaged (it is a folder).`);
    expect(r.calls).toContain('properties');
  });

  it('a journal of another format is still "another version", not damaged', async () => {
    const x = await interrupted();
    await editJson(path.join(x.dir, 'meta.json'), (j) => (j.version = 3));
    expect((await rerun(x)).notes).toMatch(/dropped because it was written by another version/);
  });

  it('a journal of format 1, written before the commit mark, is never resumed: it may be one left after its commit (round 68 G2)', async () => {
    const x = await interrupted();
    await editJson(path.join(x.dir, 'meta.json'), (j) => (j.version = 1));
    const r = await rerun(x);
    expect(r.notes).toMatch(/dropped because it was written by another version/);
    expect(r.calls).toContain('properties');
  });

  it('says so in German, naming the file', async () => {
    const x = await interrupted();
    await editJson(path.join(x.dir, 'meta.json'), (j) => (j.startedAt = 'gestern'));
    setLanguage('de');
    const r = await rerun(x);
    expect(r.notes).toBe(
      `Neubeginn: Der gespeicherte Zwischenstand eines früheren Laufs wurde verworfen, weil ${path.join(x.dir, 'meta.json')} beschädigt ist (Feld startedAt fehlt oder hat den falschen Typ).`,
    );
    expect(await findEnglish(r.notes)).toEqual([]);
  });
});

describe("a damaged Property's saved answers: fetched again, never billed", () => {
  it.each([
    ['cut off', async (f: string) => writeFile(f, (await readFile(f)).subarray(0, 30)), /\(cut off or not gzip-compressed\)/],
    ['not JSON inside', (f: string) => writeFile(f, gzipSync('{"property": {')), /\(cut off or not valid JSON\)/],
    [
      'a billable value that is text',
      (f: string) => editAnswers(f, (j) => (j.units[1].consumption.measuring_points[0].segments[0].period_consumption.billable_value = '12.5')),
      /\(field units\[1\]\.consumption\.measuring_points\[0\]\.segments\[0\]\.period_consumption\.billable_value is missing or has the wrong type\)/,
    ],
    ['a unit without its consumption', (f: string) => editAnswers(f, (j) => delete j.units[0].consumption), /\(field units\[0\]\.consumption is missing/],
  ] as const)('%s', async (_what, damage, why) => {
    const x = await interrupted();
    const ref = await reference(x.data);
    const file = path.join(x.dir, 'property-000000.json.gz');
    await damage(file);
    const r = await rerun(x);
    expect(r.notes).toContain(`property "Haus 1": the saved answers in ${file} are damaged (`);
    expect(r.notes).toMatch(why);
    expect(r.notes).toMatch(/; fetching them again\.$/m);
    // Haus 1 fetched again, Haus 2 taken from the journal, Haus 3 fetched for the first time
    const consumption = (i: number) => r.calls.filter((c) => x.data[i]!.units.some((u) => c === `consumption:${u.unit.id}`)).length;
    expect([consumption(0), consumption(1), consumption(2)]).toEqual([2, 0, 2]);
    expect(await contents(x.s.args.out)).toEqual(ref);
  });

  it('the answers of another Property under its number are fetched again, not billed twice', async () => {
    const x = await interrupted();
    const ref = await reference(x.data);
    const file = path.join(x.dir, 'property-000000.json.gz');
    await writeFile(file, await readFile(path.join(x.dir, 'property-000001.json.gz')));
    const r = await rerun(x);
    expect(r.notes).toContain(`property "Haus 1": the saved answers in ${file} are damaged (it holds the answers of another Property); fetching them again.`);
    expect(await contents(x.s.args.out)).toEqual(ref);
  });
});

describe('a lock file that is not a holder record', () => {
  it('is taken over once it is old, like a damaged one, instead of blocking every later run', async () => {
    const x = await interrupted();
    const lock = `${x.dir}.lock`;
    // another tool's record, or a hand edit: the pid is text
    await writeFile(lock, JSON.stringify({ pid: String(process.pid + 100000), host: os.hostname() }));
    const fresh = await runExport({ api: fakeApi(x.data).api, ...x.s, reporter: reporter(), toolVersion: 't', now: () => T1 }).catch((e: unknown) => e);
    expect(fresh).toMatchObject({ code: 'EXPORT_ALREADY_RUNNING', exitCode: 2 });
    const old = new Date(Date.now() - LOCK_DAMAGED_STALE_MS - 5_000);
    await utimes(lock, old, old);
    await rerun(x);
    expect(existsSync(lock)).toBe(false);
  });
});
