// A run paused (a closed laptop, a suspended VM) longer than the 10-minute rule of the --out folder's
// lock finds on waking that another host's run took the folder over. Before, it carried on, committed
// into that folder and its end removed the other run's lock: both committed, the manifest was gone.
// Now it commits nothing (EXPORT_OUT_TAKEN_OVER, exit 2) and its release leaves any lock not its own.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { formatError, isMeterdataError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { FOLDER_LOCK, lockInFolder } from '../../src/export/folder/folder-lock.js';
import { holdsLock, ownRecord, releaseLock, takeLock } from '../../src/export/folder/locks.js';
import { Journal } from '../../src/export/journal/journal.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';
import { NORDLICHT_WHO } from '../helpers/who.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-takeover-'));
/** What the run of another host that took the folder over wrote into its lock. */
const OTHER = JSON.stringify({ pid: 4242, host: 'otherhost', started: 1 });
const busy = () => new Error('busy');

afterEach(() => setLanguage('en'));

describe("a release after another run took the lock over leaves that run's lock", () => {
  it('the lock inside the --out folder', async () => {
    const out = tmp();
    const held = await lockInFolder(out, busy);
    writeFileSync(held.file, OTHER);
    await held.unlock();
    expect(readFileSync(path.join(out, FOLDER_LOCK), 'utf8')).toBe(OTHER);
  });

  it("the state folder's lock, and its own lock is still removed", async () => {
    const file = path.join(tmp(), 'out-x.lock');
    const release = await takeLock(file, busy());
    writeFileSync(file, OTHER);
    await release();
    expect(readFileSync(file, 'utf8')).toBe(OTHER);
    rmSync(file);
    await (
      await takeLock(file, busy())
    )();
    expect(existsSync(file)).toBe(false);
  });

  it('the locks a journal handed over to the committing thread', async () => {
    const [state, out] = [tmp(), tmp()];
    const j = await Journal.open(state, { from: '2025-01-01', to: '2025-12-31', template: 'default', out }, NORDLICHT_WHO, T0, out);
    const handle = j.handOver();
    writeFileSync(path.join(out, FOLDER_LOCK), OTHER);
    await Journal.release(handle, false);
    expect(readFileSync(path.join(out, FOLDER_LOCK), 'utf8')).toBe(OTHER);
    expect(existsSync(handle.lockFile) || existsSync(handle.outLockFile)).toBe(false);
  });
});

describe('a run whose --out folder another run took over before its commit', () => {
  const stage = async () => {
    const s = await setup();
    const staged = await stageExport({ api: api([building(3, 33)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    return { out: s.args.out, staged };
  };
  const finals = (out: string) => readdirSync(out).filter((n) => !n.startsWith('.'));

  it('lock replaced while it was paused: EXPORT_OUT_TAKEN_OVER, exit 2, nothing committed, the new lock and its temporary files kept', async () => {
    const { out, staged } = await stage();
    writeFileSync(path.join(out, FOLDER_LOCK), OTHER);
    const partials = readdirSync(out).filter((n) => n.endsWith('.partial'));
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_OUT_TAKEN_OVER', 2]);
    const { text } = formatError(failed);
    expect(text.split('\n')[0]).toBe(
      `meterdata: The lock of ${out} was replaced while this run was writing into it: another meterdata run took the folder over (as one does when a run was paused for more than 10 minutes: a closed laptop, a suspended virtual machine), or something else was put in the lock's place. ` +
        `Every Property was fetched, but the files could not be finished; no files were put under their final names in ${out}.`,
    );
    expect(finals(out)).toEqual([]);
    expect(readFileSync(path.join(out, FOLDER_LOCK), 'utf8')).toBe(OTHER);
    expect(readdirSync(out).filter((n) => n.endsWith('.partial'))).toEqual(partials);
  });

  it('lock replaced while the workbook was written: checked again right before the renames', async () => {
    const { out, staged } = await stage();
    const failed = await finishExport(staged, { writeWorkbook: async () => writeFileSync(path.join(out, FOLDER_LOCK), OTHER) }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && failed.code).toBe('EXPORT_OUT_TAKEN_OVER');
    expect(finals(out)).toEqual([]);
    expect(readFileSync(path.join(out, FOLDER_LOCK), 'utf8')).toBe(OTHER);
  });

  // Gone, with no other run's record there: deleted (someone followed the busy hint, or a run that took over finished).
  // Told with the heartbeat's words, never as a takeover of a run paused for 10 minutes (round 26: it never paused).
  it('lock gone: refused as well, told as deleted, not as taken over after a pause', async () => {
    const { out, staged } = await stage();
    rmSync(path.join(out, FOLDER_LOCK));
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && [failed.code, failed.exitCode]).toEqual(['EXPORT_OUT_TAKEN_OVER', 2]);
    const { text } = formatError(failed);
    expect(text.split('\n')[0]).toContain(`meterdata: The lock ${path.join(out, FOLDER_LOCK)} was deleted while this run was writing into ${out}`);
    expect(text).not.toMatch(/took over|paused/);
    expect(finals(out)).toEqual([]);
  });

  it('lock gone, in German too', async () => {
    const { out, staged } = await stage();
    rmSync(path.join(out, FOLDER_LOCK));
    setLanguage('de');
    const failed = await finishExport(staged, { writeWorkbook: async () => undefined }).catch((e: unknown) => e);
    expect(isMeterdataError(failed) && failed.code).toBe('EXPORT_OUT_TAKEN_OVER');
    expect(formatError(failed).text).toContain(`Die Sperrdatei ${path.join(out, FOLDER_LOCK)} wurde gelöscht, während dieser Lauf in ${out} schrieb`);
    expect(formatError(failed).text).not.toContain('übernommen');
    expect(finals(out)).toEqual([]);
  });

  it('its own lock still in place: the commit happens as before', async () => {
    const { out, staged } = await stage();
    await finishExport(staged, { writeWorkbook: async () => undefined });
    expect(finals(out)).toContain('meterdata-manifest.json');
    expect(existsSync(path.join(out, FOLDER_LOCK))).toBe(false);
  });
});

describe("a lock of this process after its host's name changed (a laptop that joined another network)", () => {
  it('is still its own: held, released by it, and not stale to it; the same pid with another mark is not', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-lock-rename-'));
    const file = path.join(dir, 'x.lock');
    await writeFile(file, ownRecord());
    const renamed = vi.spyOn(os, 'hostname').mockReturnValue('MacBook.fritz.box');
    try {
      expect(holdsLock(file)).toBe(true);
      await releaseLock(file);
      expect(existsSync(file)).toBe(false);
      await writeFile(file, JSON.stringify({ ...JSON.parse(ownRecord()), owner: `${process.pid}.0000000000000000` }));
      expect(holdsLock(file)).toBe(false);
    } finally {
      renamed.mockRestore();
    }
  });
});

describe('a lock of another host whose process has this pid (every container runs node as pid 1)', () => {
  it("is that host's live lock: busy while it is touched, taken over only after the 10-minute rule", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-lock-samepid-'));
    const file = path.join(dir, 'x.lock');
    const theirs = JSON.stringify({ pid: process.pid, host: 'hostB', started: 1, owner: `${process.pid}.0123456789abcdef` });
    await writeFile(file, theirs);
    await expect(takeLock(file, busy(), { foreignStaleMs: 10 * 60_000 })).rejects.toThrow('busy');
    await expect(takeLock(file, busy())).rejects.toThrow('busy');
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    // this host's earlier process of this pid (a restarted container) is gone: taken over at once
    await writeFile(file, JSON.stringify({ ...JSON.parse(theirs), host: os.hostname() }));
    await (
      await takeLock(file, busy())
    )();
    expect(existsSync(file)).toBe(false);
  });
});
