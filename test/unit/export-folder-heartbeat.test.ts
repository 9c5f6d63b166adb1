// The --out folder lock's heartbeat (folder-lock.ts keepTouching), time scaled: a beat every 20 ms
// (METERDATA_TEST_LOCK_HEARTBEAT_MS). It keeps the lock touched while a portfolio's profile waits
// for a workbook slot.
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LOCK } from '../../src/export/folder/folder-lock.js';
import { Slots } from '../../src/export/pipeline/held.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sets the lock's time 100 s back: only a touch makes it young again. */
const age = (file: string) => utimesSync(file, new Date(Date.now() - 100_000), new Date(Date.now() - 100_000));
const silentFor = (file: string) => Date.now() - statSync(file).mtimeMs;

describe('a portfolio profile waiting for a workbook slot', () => {
  it('keeps its folder lock touched through the wait, then commits once the slot is free', async () => {
    const s = await setup();
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
