// A full disk under the saved progress (the state folder, often another disk than --out):
// before anything is fetched (the journal's start, its Property list) and while a Property's
// answers are saved. One line naming the file, EXPORT_WRITE_FAILED, never a stack; the
// journal's locks are let go (a later export of the same process, browse's, is not told that
// another one runs); no half-written temporary file is left.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatError, isMeterdataError } from '../../src/core/errors.js';
import { Journal } from '../../src/export/journal/journal.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { deserializeError, serializeError } from '../../src/core/isolate.js';
import { T0, T1, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

const { failWrite, failRm, failRename } = vi.hoisted(() => ({
  failWrite: { when: null as null | ((file: string) => boolean) },
  failRm: { when: null as null | ((file: string) => boolean) },
  failRename: {
    when: null as null | ((to: string) => boolean),
    dirOpen: null as null | ((dir: string) => boolean),
    onOpen: null as null | ((file: string) => void),
  },
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  // A disk that fills up while the file is written: part of it lands, then ENOSPC (a write on an open file names no file).
  const open: typeof real.open = async (file, flags, mode) => {
    if (typeof file === 'string') failRename.onOpen?.(file);
    if (typeof file === 'string' && flags === 'r' && failRename.dirOpen?.(file))
      throw Object.assign(new Error(`EIO: i/o error, open '${file}'`), { code: 'EIO' });
    const handle = await real.open(file, flags, mode);
    if (typeof file === 'string' && failWrite.when?.(file)) {
      handle.writeFile = async () => {
        await real.writeFile(file, 'part of it');
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
      };
    }
    return handle;
  };
  // a state folder gone read-only: its removals refused
  const rm: typeof real.rm = async (file, opts) => {
    if (typeof file === 'string' && failRm.when?.(file))
      throw Object.assign(new Error(`EROFS: read-only file system, rmdir '${file}'`), { code: 'EROFS', path: file });
    return real.rm(file, opts);
  };
  // a disk failing mid-commit: one rename into --out refused
  const rename: typeof real.rename = async (from, to) => {
    if (typeof to === 'string' && failRename.when?.(to)) throw Object.assign(new Error(`EIO: i/o error, rename '${String(from)}' -> '${to}'`), { code: 'EIO' });
    return real.rename(from, to);
  };
  return { ...real, open, rm, rename, default: { ...real, open, rm, rename } };
});

const sysError = (code: string) => Object.assign(new Error(`${code}: no space left on device, write`), { code, syscall: 'write' });

afterEach(() => {
  failWrite.when = null;
  failRm.when = null;
  failRename.when = null;
  failRename.dirOpen = null;
  failRename.onOpen = null;
  vi.restoreAllMocks();
});

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true }).catch(() => [] as string[])).map(String).sort();
}

describe('a full disk under the saved progress', () => {
  it('when the journal starts: EXPORT_WRITE_FAILED naming meta.json, no stack, and its locks are let go', async () => {
    const s = await setup();
    const data = [building(3, 41)];
    failWrite.when = (f) => f.endsWith(`${path.sep}meta.json.tmp`);
    const failed = await stageExport({ api: api(data), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    failWrite.when = null;
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
    const { text } = formatError(failed);
    expect(text).toMatch(
      new RegExp(
        `^meterdata: A file of this run could not be written \\(${s.stateDir}/exports/[0-9a-f]+/meta\\.json\\.tmp\\): the disk is full\\.\\n  Free space`,
      ),
    );
    expect(text).not.toMatch(/unexpected|^\s+at /m);
    expect((await filesUnder(path.join(s.stateDir, 'exports'))).filter((f) => f.endsWith('.lock') || f.endsWith('.tmp'))).toEqual([]);
    // the same export again in this process (browse's `e`): not "another export is running"
    await expect(stageExport({ api: api(data), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 })).resolves.toBeTruthy();
  });

  it('when the Property list is saved: EXPORT_WRITE_FAILED, no stack', async () => {
    const s = await setup();
    vi.spyOn(Journal.prototype, 'setProperties').mockRejectedValueOnce(sysError('ENOSPC'));
    const failed = await stageExport({ api: api([building(3, 42)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
  });

  it('when a Property’s answers are saved: the message names the saved file; no part of it is left', async () => {
    const s = await setup();
    failWrite.when = (f) => f.endsWith('.json.gz.tmp');
    const failed = await stageExport({
      api: api([building(3, 43, 'Haus A'), building(2, 44, 'Haus B')]),
      ...s,
      reporter: reporter(),
      toolVersion: 't',
      now: () => T0,
    }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
    expect((failed as Error).message).toMatch(
      new RegExp(
        `^A file of this run could not be written \\(${s.stateDir}/exports/[0-9a-f]+/property-00000\\d\\.json\\.gz\\.tmp\\): the disk is full\\. The export stopped after 0 of 2 Properties`,
      ),
    );
    expect((await filesUnder(path.join(s.stateDir, 'exports'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a full disk while the workbook is written', () => {
  it("exceljs's stream names no file: the message names the workbook (across a worker too)", async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 45)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const failed = await finishExport(staged, { writeWorkbook: async () => Promise.reject(deserializeError(serializeError(sysError('ENOSPC')))) }).catch(
      (e: unknown) => e,
    );
    expect(isMeterdataError(failed) && failed.code).toBe('EXPORT_WRITE_FAILED');
    expect((failed as Error).message).toMatch(
      new RegExp(`^A file of this run could not be written \\(${s.args.out}/\\.billing\\.xlsx\\.partial\\): the disk is full\\.`),
    );
  });

  it("a worker's own MeterdataError is left as it is (no file is attached to it)", async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 46)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const { MeterdataError } = await import('../../src/core/errors.js');
    const oom = new MeterdataError('out of memory', { code: 'EXPORT_OUT_OF_MEMORY', exitCode: 1 });
    const failed = await finishExport(staged, { writeWorkbook: async () => Promise.reject(oom) }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && failed.code).toBe('EXPORT_OUT_OF_MEMORY');
    expect(oom).not.toHaveProperty('path');
  });
});

describe('a state folder gone read-only after the commit', () => {
  it('the journal that cannot be removed is told as such, never as files not put in place; the files stand, the locks go (round 63 Y3)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    failRm.when = (f) => f === staged.journal.dir;
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    failRm.when = null;
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
    const { text } = formatError(failed);
    expect(text).toContain(
      `The files in ${s.args.out} are complete, but this run's journal ${staged.journal.dir} could not be removed: the file system is read-only.`,
    );
    expect(text).toContain(`Remove the folder ${staged.journal.dir} once its disk is writable again. A later run with the same arguments sees`);
    expect(text).not.toMatch(/no files were put|^\s+at /m);
    expect(await readdir(s.args.out)).toContain('meterdata-manifest.json');
    expect((await filesUnder(path.join(s.stateDir, 'exports'))).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('a journal left after its commit is not resumed: the next run starts over, even where meta.json stayed (round 65 A5)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    failRm.when = (f) => f === staged.journal.dir || f.startsWith(`${staged.journal.dir}${path.sep}`); // meta.json too
    await finishExport(staged, { writeWorkbook: async () => undefined }).catch(() => undefined);
    failRm.when = null;
    const notes = reporter();
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: notes, toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(false);
    expect(notes.notes.join('\n')).toContain(
      `the run started at ${T0.toISOString().replace('.000', '')} had already begun finishing its files in ${s.args.out}, so what it fetched is not used again`,
    );
    await finishExport(again, { writeWorkbook: async () => undefined });
    const manifest = JSON.parse(await readFile(path.join(s.args.out, 'meterdata-manifest.json'), 'utf8')) as { exported_at: string };
    expect(manifest.exported_at).toBe(T1.toISOString().replace('.000', ''));
    expect(await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).toContain('Haus 48');
  });

  it('nor once the finished folder was moved away, nor where only meta.json could be removed (round 67 F2, F8)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    failRm.when = (f) => f === staged.journal.dir;
    await finishExport(staged, { writeWorkbook: async () => undefined }).catch(() => undefined);
    failRm.when = null;
    expect(await readdir(staged.journal.dir)).not.toContain('meta.json');
    await rename(s.args.out, `${s.args.out}-archived`);
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(false);
    await finishExport(again, { writeWorkbook: async () => undefined });
    expect(await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).toContain('Haus 48');
  });

  it('a commit refused before its first rename (a folder under a file’s name) keeps the journal resumable (round 68 G1)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    await mkdir(path.join(s.args.out, 'billing.csv'));
    const refused = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(refused) && refused.code).toBe('EXPORT_OUT_IN_USE');
    expect(await readdir(staged.journal.dir)).not.toContain('committing.json');
    await rmdir(path.join(s.args.out, 'billing.csv'));
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(true);
  });

  it('a folder planted where the mark goes is named, nothing renamed, and the journal resumed once it is gone (round 68 G3)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const mark = path.join(staged.journal.dir, 'committing.json');
    await mkdir(mark);
    const refused = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(refused) && [refused.code, refused.exitCode]).toEqual(['EXPORT_OUT_IN_USE', 2]);
    const { text } = formatError(refused);
    expect(text).toContain(`${mark} is in the way: there meterdata notes that this run's files are being put into place`);
    expect(text).not.toMatch(/this is a bug|^\s+at /m);
    expect(await readdir(s.args.out).catch(() => [])).not.toContain('billing.csv');
    await rmdir(mark);
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(true);
  });

  it('a commit whose files are all in place but whose old manifest cannot be removed succeeds: the journal goes (round 69 H1)', async () => {
    const s = await setup();
    await finishExport(await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }), {
      writeWorkbook: async () => undefined,
    });
    const staged = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    failRm.when = (f) => f.endsWith('.meterdata-manifest.json.replaced'); // an indexer holding it (EBUSY on Windows)
    await finishExport(staged, { writeWorkbook: async () => undefined });
    failRm.when = null;
    expect(await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).toContain('Haus 48');
    expect(await readdir(staged.journal.dir).catch(() => 'gone')).toBe('gone');
  });

  it('a commit whose folder cannot be synced after its last rename succeeds: every file is in place (round 70)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    const manifest = path.join(s.args.out, 'meterdata-manifest.json');
    failRename.dirOpen = (dir) => dir === s.args.out && existsSync(manifest); // only once the manifest is in place
    await finishExport(staged, { writeWorkbook: async () => undefined });
    failRename.dirOpen = null;
    expect(await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).toContain('Haus 48');
  });

  it('a folder taken over by another host’s run while the commit marks its journal: nothing renamed, the journal resumable (round 71 #2)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const lock = path.join(s.args.out, '.meterdata-lock');
    failRename.onOpen = (file) => {
      if (!file.endsWith('committing.json.tmp')) return;
      writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'otherhost', started: 1 }));
    };
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    failRename.onOpen = null;
    expect(isMeterdataError(failed) && failed.code).toBe('EXPORT_OUT_TAKEN_OVER');
    expect(await readdir(s.args.out)).not.toContain('billing.csv');
    expect(await readdir(staged.journal.dir)).not.toContain('committing.json');
    rmSync(lock);
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(true);
  });

  it('a commit that failed after its renames began keeps the mark: the re-run fetches afresh, and the hint says so (round 69 H1)', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    failRename.when = (to) => to === path.join(s.args.out, 'readings.csv'); // not the first rename
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    failRename.when = null;
    const { text } = formatError(failed);
    expect(text).toContain('some files of this run are under their final names');
    expect(text).toContain('Run the same command again: it fetches the data afresh and puts every file in place.');
    expect(text).not.toContain('it continues from what was fetched');
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T1 });
    expect(again.summary.resumed).toBe(false);
  });

  it('a journal stopped before its commit is resumed beside an earlier commit, the start time the same (SOURCE_DATE_EPOCH; round 67 F3)', async () => {
    const s = await setup();
    const first = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    await finishExport(first, { writeWorkbook: async () => undefined });
    const staged = await stageExport({ api: api([building(3, 47)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    await Journal.release(staged.journal, false); // stopped before its commit: the journal kept
    const again = await stageExport({ api: api([building(3, 48)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    expect(again.summary.resumed).toBe(true);
    await finishExport(again, { writeWorkbook: async () => undefined });
    expect(await readFile(path.join(s.args.out, 'billing.csv'), 'utf8')).toContain('Haus 47');
  });
});
