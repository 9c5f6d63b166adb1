// The --out folder lock's heartbeat (folder-lock.ts keepTouching), time scaled: a beat every 20 ms
// (METERDATA_TEST_LOCK_HEARTBEAT_MS). It keeps the lock touched while a portfolio's profile waits
// for a workbook slot, goes on after a failed touch, and stops the run when the lock is deleted.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatError, isMeterdataError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { FOLDER_LOCK, lockInFolder, type LockLoss } from '../../src/export/folder/folder-lock.js';
import { lockOutFolder } from '../../src/export/journal/out-locks.js';
import { Slots } from '../../src/export/pipeline/held.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

/** How many of the next touches fail with EIO (a network share's hiccup). */
const failing = vi.hoisted(() => ({ next: 0 }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const utimes: typeof fs.utimes = async (...a) => {
    if (failing.next > 0 && String(a[0]).endsWith(FOLDER_LOCK_NAME)) {
      failing.next--;
      throw Object.assign(new Error('EIO: i/o error, utime'), { code: 'EIO' });
    }
    return fs.utimes(...a);
  };
  return { ...fs, default: { ...fs, utimes }, utimes };
});
const FOLDER_LOCK_NAME = '.meterdata-lock';

const BEAT_MS = 20;
const saved = { hooks: process.env.METERDATA_TEST_HOOKS, beat: process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS };
beforeAll(() => {
  process.env.METERDATA_TEST_HOOKS = '1';
  process.env.METERDATA_TEST_LOCK_HEARTBEAT_MS = String(BEAT_MS);
});
afterAll(() => {
  for (const [k, v] of [
    ['METERDATA_TEST_HOOKS', saved.hooks],
    ['METERDATA_TEST_LOCK_HEARTBEAT_MS', saved.beat],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});
afterEach(() => {
  failing.next = 0;
  setLanguage('en');
});

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-heartbeat-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const busy = () => new Error('busy');
/** Sets the lock's time 100 s back: only a touch makes it young again. */
const age = (file: string) => utimesSync(file, new Date(Date.now() - 100_000), new Date(Date.now() - 100_000));
const silentFor = (file: string) => Date.now() - statSync(file).mtimeMs;

describe('a portfolio profile waiting for a workbook slot', () => {
  it('keeps its folder lock touched through the wait, then commits once the slot is free', async () => {
    const s = await setup();
    expect(FOLDER_LOCK).toBe(FOLDER_LOCK_NAME);
    const staged = await stageExport({ api: api([building(2, 22)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const lock = path.join(s.args.out, FOLDER_LOCK);
    age(lock);
    const workbooks = new Slots(1);
    const other = await workbooks.acquire(); // another profile's workbook
    const done = finishExport(staged, { writeWorkbook: async () => undefined, slot: () => workbooks.acquire() });
    await sleep(15 * BEAT_MS);
    // before: the handover stopped the touching and only the commit's thread started it again, after the wait
    expect(silentFor(lock)).toBeLessThan(5 * BEAT_MS);
    expect(existsSync(path.join(s.args.out, 'meterdata-manifest.json'))).toBe(false);
    other();
    await done;
    expect(readdirSync(s.args.out)).toContain('meterdata-manifest.json');
    expect(existsSync(lock)).toBe(false);
    expect(workbooks.inUse).toBe(0);
  });
});

describe('the heartbeat of a folder lock', () => {
  it('goes on after failed touches (EIO) and touches the lock again at the next beat', async () => {
    const lost: LockLoss[] = [];
    const held = await lockInFolder(tmp(), busy, (how) => lost.push(how));
    failing.next = 3;
    age(held.file);
    await sleep(15 * BEAT_MS);
    expect(failing.next).toBe(0);
    // before: the first failed touch ended the heartbeat, and the lock stayed 100 s old
    expect(silentFor(held.file)).toBeLessThan(5 * BEAT_MS);
    expect(lost).toEqual([]);
    await held.unlock();
  });

  it('deleted under a live run: reported once as deleted, and not put back', async () => {
    const lost: LockLoss[] = [];
    const held = await lockInFolder(tmp(), busy, (how) => lost.push(how));
    rmSync(held.file);
    await sleep(10 * BEAT_MS);
    // before: the heartbeat stopped without a word, and the run went on into a folder another run may now hold
    expect(lost).toEqual(['deleted']);
    expect(existsSync(held.file)).toBe(false);
    await held.unlock();
  });

  it("deleted: the run's error is EXPORT_OUT_TAKEN_OVER naming the lock, in English and German", async () => {
    const firstLine = async (lang: 'en' | 'de') => {
      setLanguage(lang);
      const [state, out] = [tmp(), tmp()];
      const errors: unknown[] = [];
      const held = await lockOutFolder(state, out, (e) => errors.push(e));
      rmSync(path.join(out, FOLDER_LOCK));
      await sleep(10 * BEAT_MS);
      await held.unlock();
      expect(errors).toHaveLength(1);
      const e = errors[0];
      expect(isMeterdataError(e) && [e.code, e.exitCode]).toEqual(['EXPORT_OUT_TAKEN_OVER', 2]);
      return { lock: path.join(out, FOLDER_LOCK), out, line: formatError(e).text.split('\n')[0] };
    };
    const en = await firstLine('en');
    expect(en.line).toBe(
      `meterdata: The lock ${en.lock} was deleted while this run was writing into ${en.out}: someone took it for a leftover, and another run may be starting there now.`,
    );
    const de = await firstLine('de');
    expect(de.line).toContain(`Die Sperrdatei ${de.lock} wurde gelöscht, während dieser Lauf in ${de.out} schrieb`);
  });

  it("is never reported for the run's own release, whenever it comes", async () => {
    const lost: LockLoss[] = [];
    for (let i = 0; i < 25; i++) {
      const held = await lockInFolder(tmp(), busy, (how) => lost.push(how));
      await sleep(i % 5);
      await held.unlock();
    }
    await sleep(5 * BEAT_MS);
    expect(lost).toEqual([]);
  });
});
