// A write the disk refuses while an export runs (full, quota, read-only, refused, failed):
// EXPORT_WRITE_FAILED with one line naming the file and why, the hint to make room and to
// run the same command again, in English and German; never an unexpected error with a stack.
// Other errors stay what they are. A workbook written in a worker thread keeps the system
// error's code and file across the thread.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatError, isMeterdataError, MeterdataError } from '../../src/core/errors.js';
import { deserializeError, serializeError } from '../../src/core/isolate.js';
import { setLanguage } from '../../src/i18n/index.js';
import { OutputSet } from '../../src/export/output/index.js';
import { diskProblem } from '../../src/export/run-errors.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

const sysError = (code: string, file?: string) =>
  Object.assign(new Error(`${code}: something, write${file ? ` '${file}'` : ''}`), { code, syscall: 'write', ...(file ? { path: file } : {}) });

afterEach(() => setLanguage('en'));

// round 27: a state folder left root's by `sudo meterdata export` was told as a full disk, the hint to free space
const DENIED_EN = 'permission denied (it or its folder may belong to another user, for instance after `sudo meterdata …`)';
const DENIED_DE = 'keine Berechtigung (die Datei oder ihr Ordner gehört womöglich einem anderen Benutzer, etwa nach `sudo meterdata …`)';

describe('diskProblem', () => {
  it.each([
    ['ENOSPC', 'the disk is full', 'der Datenträger ist voll'],
    ['EDQUOT', 'the disk quota is used up', 'das Speicherkontingent (Quota) ist ausgeschöpft'],
    ['EROFS', 'the file system is read-only', 'das Dateisystem ist schreibgeschützt'],
    ['EACCES', DENIED_EN, DENIED_DE],
    ['EPERM', DENIED_EN, DENIED_DE],
    ['EIO', 'the disk reported an input/output error', 'der Datenträger hat einen Lese- oder Schreibfehler gemeldet'],
  ])('%s names the file and why, in both languages', (code, en, de) => {
    const e = diskProblem(sysError(code, '/srv/out/.billing.csv.partial'))!;
    expect([e.code, e.exitCode, e.message, e.hint]).toEqual([
      'EXPORT_WRITE_FAILED',
      1,
      `A file of this run could not be written (/srv/out/.billing.csv.partial): ${en}.`,
      en === DENIED_EN
        ? 'Give the file or folder back to this user (chown -R), or run meterdata as the user it belongs to.'
        : 'Free space on that disk (or make it writable again).',
    ]);
    setLanguage('de');
    const g = diskProblem(sysError(code, '/srv/out/.billing.csv.partial'))!;
    expect([g.message, g.hint]).toEqual([
      `Eine Datei dieses Laufs konnte nicht geschrieben werden (/srv/out/.billing.csv.partial): ${de}.`,
      de === DENIED_DE
        ? 'Bitte geben Sie die Datei oder den Ordner diesem Benutzer zurück (chown -R) oder führen Sie meterdata als der Benutzer aus, dem sie gehören.'
        : 'Bitte schaffen Sie auf diesem Datenträger Platz (bzw. machen Sie ihn wieder beschreibbar).',
    ]);
  });

  it('without a file (a write on an open file): says so without one', () => {
    expect(diskProblem(sysError('ENOSPC'))!.message).toBe('A file of this run could not be written: the disk is full.');
  });

  it('leaves every other error alone', () => {
    for (const e of [
      new Error('boom'),
      sysError('ECONNRESET'),
      sysError('ENOENT', '/x'),
      sysError('toString'),
      new MeterdataError('x', { code: 'EXPORT_SCRATCH_DAMAGED', exitCode: 1 }),
      'ENOSPC',
      null,
      { code: 'ENOSPC' },
    ])
      expect(diskProblem(e)).toBeNull();
  });

  it('a workbook worker’s ENOSPC keeps its code and file across the thread', () => {
    const back = deserializeError(serializeError(sysError('ENOSPC', '/srv/out/.billing.xlsx.partial')));
    expect(diskProblem(back)?.message).toBe('A file of this run could not be written (/srv/out/.billing.xlsx.partial): the disk is full.');
    expect(deserializeError(serializeError(new Error('plain'))) as NodeJS.ErrnoException).not.toHaveProperty('code');
  });
});

describe('an export whose disk fills up', () => {
  it('while the Properties are written: EXPORT_WRITE_FAILED, which Properties are missing, run again to continue; one line and a hint, no stack', async () => {
    const s = await setup();
    const write = OutputSet.prototype.write;
    const spy = vi.spyOn(OutputSet.prototype, 'write').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof write>) {
      if (args[0] === 'plant-points') throw sysError('ENOSPC', `${s.args.out}/.plant-points.csv.partial`);
      return write.apply(this, args);
    });
    let failed: unknown;
    try {
      failed = await stageExport({
        api: api([building(5, 31, 'Haus A'), building(4, 32, 'Haus B')]),
        ...s,
        reporter: reporter(),
        toolVersion: 't',
        now: () => T0,
      }).catch((e: unknown) => e);
    } finally {
      spy.mockRestore();
    }
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
    const { text, exitCode } = formatError(failed);
    expect(exitCode).toBe(1);
    expect(text).toBe(
      `meterdata: A file of this run could not be written (${s.args.out}/.plant-points.csv.partial): the disk is full. The export stopped after 0 of 2 Properties (not finished: "Haus A", "Haus B"); no files were put under their final names in ${s.args.out}.\n` +
        '  Free space on that disk (or make it writable again). Run the same command again to continue: what was fetched is kept.',
    );
  });

  it('while the workbook is written: EXPORT_WRITE_FAILED, every Property fetched, run again', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 33)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const failed = await finishExport(staged, {
      writeWorkbook: async (input) => Promise.reject(deserializeError(serializeError(sysError('ENOSPC', input.file)))),
    }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_WRITE_FAILED', 1]);
    expect((failed as Error).message).toMatch(
      /could not be written \(.*billing\.xlsx.*\): the disk is full\. Every Property was fetched, but the files could not be finished;/,
    );
    expect((failed as MeterdataError).hint).toBe(
      'Free space on that disk (or make it writable again). Run the same command again: it continues from what was fetched.',
    );
  });
});

describe('an export whose temporary files another program removes', () => {
  it('before they are put in place: EXPORT_SCRATCH_DAMAGED naming the file, in both languages; never "a bug"', async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 33)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const partials = (await readdir(s.args.out)).filter((n) => n.endsWith('.partial'));
    expect(partials.length).toBeGreaterThan(0);
    for (const n of partials) await rm(path.join(s.args.out, n)); // what a second account's run did as "leftovers"
    setLanguage('de');
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_SCRATCH_DAMAGED', 1]);
    const { text } = formatError(failed);
    expect(text).toMatch(/^meterdata: Die Arbeitsdatei .*\/\.[\w.-]+\.partial des Exports wurde während des Laufs entfernt\./);
    expect(text).toContain('meterdata unter einem anderen Benutzer');
    expect(text).not.toMatch(/this is a bug|\n\s+at /);
    setLanguage('en');
    expect(formatError(failed).text).not.toMatch(/this is a bug/);
  });
});
