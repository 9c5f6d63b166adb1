// The export engine against a fake ApiClient: request discipline, failure, resume.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import { LOCK_DAMAGED_STALE_MS, outLockFile } from '../../src/export/journal/journal.js';
import { parseExportArgs } from '../../src/export/options/options.js';
import { finishExport, nameList, runExport, stageExport } from '../../src/export/run.js';
import { T0, T1, dataset, fakeApi, reporter, setup, type Data } from '../helpers/export-fixtures.js';

async function contents(dir: string) {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await readFile(path.join(dir, n))).toString('base64')])));
}

describe('export engine', () => {
  it('names at most five unfinished Properties, then how many more', () => {
    expect(nameList(['A'])).toBe('"A"');
    expect(nameList(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBe('"A", "B", "C", "D", "E" and 2 more');
  });

  it('asks for everything once, in Property order, and cleans up its journal', async () => {
    const s = await setup();
    const data = dataset();
    const { api, calls } = fakeApi(data);
    const summary = await runExport({ api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls.filter((c) => c.startsWith('consumption:')).length).toBe(6);
    expect(calls.filter((c) => c.startsWith('readings:')).length).toBe(3);
    // each Property's ids are dropped from the client's memory once it is billed, after its last request
    expect(calls.filter((c) => c.startsWith('forget:'))).toEqual(data.map((d) => `forget:${d.property.id}`));
    const lastOf = (d: Data) =>
      Math.max(...[...d.units.map((u) => `consumption:${u.unit.id}`), ...d.plant.map((p) => `readings:${p.point.id}`)].map((c) => calls.indexOf(c)));
    for (const d of data) expect(calls.indexOf(`forget:${d.property.id}`)).toBeGreaterThan(lastOf(d));
    expect(summary.counts).toMatchObject({ properties: 3, units: 6, plant_points: 3 });
    expect(summary.exportedAt).toBe('2026-11-22T08:00:00Z');
    expect(await readdir(path.join(s.stateDir, 'exports'))).toEqual([]);
    const billing = (await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).split('\r\n');
    expect(billing.slice(1, 3).map((l) => l.split(',')[1] + ' ' + l.split(',')[3])).toEqual(['Haus 1 WE 1', 'Haus 1 WE 2']);
  });

  it('lists the exported Properties in the About sheet when --property narrows the export', async () => {
    const data = dataset();
    const s = await setup();
    const ids = [data[2]!.property.id, data[0]!.property.id];
    const args = parseExportArgs({ year: '2025', out: 'out', property: ids }, s.home, {});
    await runExport({ api: fakeApi(data).api, ...s, args, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(args.out, 'billing.xlsx'));
    const rows = wb
      .getWorksheet('About')!
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows).toContainEqual(['Exported Properties (--property)', 'Haus 3, Haus 1']);
  });

  it('fails without final files, then resumes fetching only the rest, with the first start as export time', async () => {
    const data = dataset();
    const ref = await setup();
    await runExport({ api: fakeApi(data).api, ...ref, reporter: reporter(), toolVersion: 't', now: () => T0 });

    const s = await setup();
    const failing = fakeApi(data, { failAt: 2 });
    const err = await runExport({ api: failing.api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 5 });
    expect((err as Error).message).toMatch(/stopped after 2 of 3 Properties \(not finished: "Haus 3"\); no files were put under their final names/);
    expect(existsSync(s.args.out)).toBe(false); // the folder it created is gone again: nothing looks like an export

    const again = fakeApi(data);
    const rep = reporter();
    const summary = await runExport({ api: again.api, ...s, reporter: rep, toolVersion: 't', now: () => T1 });
    expect(rep.notes.join('\n')).toMatch(/resuming the export started at 2026-11-22T08:00:00Z/);
    expect(
      again.calls
        .filter((c) => c !== 'whoami' && !c.startsWith('forget:'))
        .every((c) => !c.includes(data[0]!.property.id) && !c.includes(data[1]!.property.id)),
    ).toBe(true);
    expect(again.calls).not.toContain('properties');
    expect(summary.exportedAt).toBe('2026-11-22T08:00:00Z');
    expect(await contents(s.args.out)).toEqual(await contents(ref.args.out));
  });

  it('commits nothing when the workbook phase fails or is interrupted, keeps the journal, and a re-run fetches nothing again', async () => {
    const data = dataset();
    const ref = await setup();
    await runExport({ api: fakeApi(data).api, ...ref, reporter: reporter(), toolVersion: 't', now: () => T0 });

    const s = await setup();
    const deps = { ...s, reporter: reporter(), toolVersion: 't', now: () => T0 };
    // a failing workbook writer (the disk filled up, the worker ran out of memory)
    const full = new ServiceUnavailableError('disk full', { code: 'SERVICE_UNAVAILABLE' });
    const e1 = await finishExport(await stageExport({ api: fakeApi(data).api, ...deps }), { writeWorkbook: async () => Promise.reject(full) }).catch(
      (e: unknown) => e,
    );
    expect(e1).toMatchObject({ code: 'SERVICE_UNAVAILABLE', exitCode: 5 });
    expect((e1 as Error).message).toMatch(
      /^disk full Every Property was fetched, but the files could not be finished; no files were put under their final names/,
    );
    expect(existsSync(s.args.out)).toBe(false);
    // Ctrl-C while the workbook is written
    const ac = new AbortController();
    const e2 = await finishExport(await stageExport({ api: fakeApi(data).api, ...deps, signal: ac.signal }), {
      signal: ac.signal,
      writeWorkbook: async () => ac.abort(new Error('interrupted by SIGINT')),
    }).catch((e: unknown) => e);
    expect(e2).toMatchObject({ code: 'EXPORT_INTERRUPTED', exitCode: 130 });
    expect(existsSync(s.args.out)).toBe(false);
    // Ctrl-C after the last Property, with no workbook to write (CSV only): nothing is committed
    const csv = { ...deps, args: { ...deps.args, formats: ['csv' as const] } };
    const staged = await stageExport({ api: fakeApi(data).api, ...csv });
    const e3 = await finishExport(staged, { signal: ac.signal }).catch((e: unknown) => e);
    expect(e3).toMatchObject({ code: 'EXPORT_INTERRUPTED', exitCode: 130 });
    expect(existsSync(s.args.out)).toBe(false);

    const again = fakeApi(data);
    await runExport({ api: again.api, ...deps });
    expect(again.calls.filter((c) => c.startsWith('consumption:') || c.startsWith('readings:'))).toEqual([]);
    expect(await contents(s.args.out)).toEqual(await contents(ref.args.out));
  });

  it('fails with EXPORT_SCRATCH_DAMAGED, one line naming the file, when a spool was cut before the workbook: nothing put in place, a re-run finishes', async () => {
    const data = dataset();
    const s = await setup();
    const deps = { ...s, reporter: reporter(), toolVersion: 't', now: () => T0 };
    const staged = await stageExport({ api: fakeApi(data).api, ...deps });
    const spool = staged.output.xlsx!.spools.billing!;
    await truncate(spool, (await stat(spool)).size - 7); // cut inside the last row, as a failing disk or another program would
    const err = await finishExport(staged).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXPORT_SCRATCH_DAMAGED', exitCode: 1 });
    expect((err as Error).message).toMatch(
      new RegExp(
        `^The export's scratch file ${spool.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged: its last row is incomplete\\. Every Property was fetched`,
      ),
    );
    expect((err as Error).message).not.toMatch(/\n/);
    expect((err as { hint: string }).hint).toMatch(/^Check the disk, and that no other program writes into the --out folder during the export\. /);
    expect(existsSync(s.args.out)).toBe(false);
    await runExport({ api: fakeApi(data).api, ...deps });
    expect(existsSync(path.join(s.args.out, 'billing.xlsx'))).toBe(true);
  });

  it('starts over and says why when the property scope changed since the interruption', async () => {
    const data = dataset();
    const s = await setup();
    await runExport({ api: fakeApi(data, { failAt: 1 }).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch(() => undefined);
    const again = fakeApi(data, { scope: [data[0]!.property.id, data[1]!.property.id, data[2]!.property.id] });
    const rep = reporter();
    const summary = await runExport({ api: again.api, ...s, reporter: rep, toolVersion: 't', now: () => T1 });
    expect(rep.notes.join('\n')).toMatch(/starting over: .*property selection has changed/);
    expect(again.calls).toContain('properties');
    expect(summary.exportedAt).toBe('2026-11-22T09:30:00Z');
  });
});

/** An export that has taken its locks and waits (listing units) until `release` is called. */
async function heldExport(data: ReturnType<typeof dataset>, s: Awaited<ReturnType<typeof setup>>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow = fakeApi(data);
  const inner = slow.api.listUsageUnits.bind(slow.api);
  slow.api.listUsageUnits = async function* (q) {
    await gate;
    yield* inner(q);
  };
  const first = runExport({ api: slow.api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
  await new Promise((r) => setTimeout(r, 100));
  return { first, release };
}

describe('export journal lock', () => {
  it('refuses a second export with the same arguments while the first runs', async () => {
    const data = dataset();
    const s = await setup();
    const { first, release } = await heldExport(data, s);
    const second = await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'EXPORT_ALREADY_RUNNING', exitCode: 2 });
    release();
    await first;
    await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
  });

  it('one export owns a folder: a second one with other arguments into the same --out is refused (exit 2) and cannot mix up the files', async () => {
    const data = dataset();
    const s = await setup();
    const { first, release } = await heldExport(data, s);
    const other = { ...s, args: parseExportArgs({ year: '2024', out: 'out', format: 'csv' }, s.home, {}) };
    const second = await runExport({ api: fakeApi(data).api, ...other, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'EXPORT_OUT_BUSY', exitCode: 2 });
    expect((second as Error).message).toMatch(/Another `meterdata export` or `meterdata uvi` is writing to .*out; one run owns a folder at a time/);
    release();
    const summary = await first;
    const manifest = JSON.parse(await readFile(path.join(s.args.out, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] };
    expect(manifest.files.map((f) => f.name).sort()).toEqual((await readdir(s.args.out)).filter((n) => n !== 'meterdata-manifest.json').sort());
    expect(summary.files.length).toBe(manifest.files.length);
    // Once the first is done, the folder holds its export: the other arguments are refused as before.
    const third = await runExport({ api: fakeApi(data).api, ...other, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(third).toMatchObject({ code: 'EXPORT_OUT_IN_USE', exitCode: 2 });
    expect(await readdir(path.join(s.stateDir, 'exports'))).toEqual([]);
  });

  it('takes over the folder lock of an export that no longer runs', async () => {
    const data = dataset();
    const s = await setup();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const lock = await outLockFile(s.stateDir, s.args.out);
    await mkdir(path.dirname(lock), { recursive: true });
    await writeFile(lock, JSON.stringify({ pid: dead, host: os.hostname() }));
    await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(path.join(s.args.out, 'meterdata-manifest.json'))).toBe(true);
  });

  it('takes over a lock left by an earlier process that had this process’s pid (every cron run in a container may be pid 7)', async () => {
    const data = dataset();
    const s = await setup();
    const lock = await outLockFile(s.stateDir, s.args.out);
    await mkdir(path.dirname(lock), { recursive: true });
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), started: Date.now() - 86_400_000 }));
    await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(path.join(s.args.out, 'meterdata-manifest.json'))).toBe(true);
  });

  // A kill -9 used to be able to leave an empty lock file (created, not yet written); the
  // re-run then crashed with exit 1 instead of resuming. A damaged lock is now a handled case.
  it('takes over a damaged lock file once it is old, and refuses (exit 2, no crash) while it is fresh', async () => {
    const data = dataset();
    const s = await setup();
    await runExport({ api: fakeApi(data, { failAt: 1 }).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch(() => undefined);
    const [key] = (await readdir(path.join(s.stateDir, 'exports'))).filter((n) => !n.endsWith('.lock'));
    const lock = path.join(s.stateDir, 'exports', `${key}.lock`);
    await writeFile(lock, '');
    const fresh = await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(fresh).toMatchObject({ code: 'EXPORT_ALREADY_RUNNING', exitCode: 2 });
    const old = new Date(Date.now() - LOCK_DAMAGED_STALE_MS - 5_000);
    await utimes(lock, old, old);
    const rep = reporter();
    await runExport({ api: fakeApi(data).api, ...s, reporter: rep, toolVersion: 't', now: () => T0 });
    expect(existsSync(lock)).toBe(false);
    expect(await readdir(path.join(s.stateDir, 'exports'))).toEqual([]);
  });

  it('never leaves its own scratch files next to the lock', async () => {
    const data = dataset();
    const s = await setup();
    await runExport({ api: fakeApi(data).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    expect(await readdir(path.join(s.stateDir, 'exports'))).toEqual([]);
  });
});
