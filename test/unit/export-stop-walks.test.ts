// When an export stops (a failure at one Property's end), the walk of the next Property,
// fetched meanwhile, stops asking too: it would spend the connection's requests on answers
// nobody writes (in the portfolio, while the other profiles go on), hold a Property's
// answers outside the cap the failed profile gave back, and save them into a journal whose
// lock was already let go.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import { Journal } from '../../src/export/journal/journal.js';
import { OutputSet } from '../../src/export/output/index.js';
import { stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building, type Building } from '../helpers/export-stream-fixtures.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `api` counting the consumption requests of `b`'s units, each answered after 20 ms. */
function counting(data: Building[], b: Building) {
  const inner = api(data);
  const ids = new Set(b.units.map((u) => u.unit.id));
  const asked = { n: 0 };
  const client: ApiClient = {
    ...inner,
    async unitConsumption(id, q) {
      if (ids.has(id)) asked.n++;
      await wait(20);
      return inner.unitConsumption(id, q);
    },
  };
  return { client, asked };
}

async function journalFiles(stateDir: string): Promise<string[]> {
  const root = path.join(stateDir, 'exports');
  const dirs = await readdir(root).catch(() => [] as string[]);
  const out: string[] = [];
  for (const d of dirs.filter((n) => !n.endsWith('.lock')))
    out.push(...(await readdir(path.join(root, d)).catch(() => [] as string[])).filter((n) => n.endsWith('.gz')));
  return out.sort();
}

describe('an export that stops stops the walk fetched meanwhile', () => {
  it('a period change at the first Property: the second asks for at most the units in flight, and saves nothing', async () => {
    const first = building(6, 901);
    const second = building(80, 902);
    for (const u of first.units.slice(0, 3)) u.consumption = { ...u.consumption, to: '2025-11-30' }; // another period: EXPORT_PERIOD_CHANGED
    const { client, asked } = counting([first, second], second);
    const s = await setup();
    await expect(stageExport({ api: client, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 })).rejects.toMatchObject({
      code: 'EXPORT_PERIOD_CHANGED',
    });
    const atStop = asked.n;
    await wait(600); // 80 units at 8 in flight and 20 ms each would take 200 ms
    expect(asked.n).toBe(atStop);
    expect(asked.n).toBeLessThanOrEqual(16);
  });

  it('a disk failure at the first Property: the journal keeps the first Property only, nothing is saved after its lock is let go', async () => {
    const first = building(6, 903);
    const second = building(80, 904);
    const { client, asked } = counting([first, second], second);
    const s = await setup();
    const write = OutputSet.prototype.write;
    const spy = vi.spyOn(OutputSet.prototype, 'write').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof write>) {
      if (args[0] === 'plant-points') throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }); // at the first Property's end
      return write.apply(this, args);
    });
    try {
      await expect(stageExport({ api: client, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 })).rejects.toMatchObject({
        code: 'EXPORT_WRITE_FAILED',
        message: expect.stringMatching(/input\/output error/),
      });
    } finally {
      spy.mockRestore();
    }
    const saved = await journalFiles(s.stateDir);
    await wait(600);
    expect(asked.n).toBeLessThanOrEqual(16);
    expect(await journalFiles(s.stateDir)).toEqual(saved);
    expect(saved).toHaveLength(1);
  });
});

describe('a write the stream fails stops the walk of its own Property at once', () => {
  it('the disk refusing an early row: the export fails with it before the Property’s other units are asked for', async () => {
    const first = building(3, 905);
    const big = building(120, 906);
    const { client, asked } = counting([first, big], big);
    const s = await setup();
    const add = OutputSet.prototype.addOverview;
    let n = 0;
    const spy = vi.spyOn(OutputSet.prototype, 'addOverview').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof add>) {
      if (++n === 6) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }); // an early row of the large Property
      return add.apply(this, args);
    });
    let failed: unknown;
    try {
      failed = await stageExport({ api: client, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch((e: unknown) => e);
    } finally {
      spy.mockRestore();
    }
    expect((failed as { code?: string }).code).toBe('EXPORT_WRITE_FAILED');
    expect((failed as Error).message).toMatch(/the disk is full\. The export stopped after 1 of 2 Properties/);
    await wait(300);
    expect(asked.n).toBeLessThan(60); // 120 units, 8 in flight, 20 ms each: the rest is never asked for
  });
});

describe('a save already under way when the export stops', () => {
  it('ends before the journal’s lock is let go', async () => {
    const { existsSync } = await import('node:fs');
    let saveStarted!: () => void;
    const started = new Promise<void>((r) => (saveStarted = r));
    const lockAtSaveEnd: boolean[] = [];
    const save = Journal.prototype.save;
    const saveSpy = vi.spyOn(Journal.prototype, 'save').mockImplementation(async function (this: Journal, ...args: Parameters<typeof save>) {
      if (args[0] !== 1) return save.apply(this, args);
      saveStarted();
      await wait(200); // a large Property's gzip and write
      await save.apply(this, args);
      lockAtSaveEnd.push(existsSync(`${this.dir}.lock`));
    });
    const write = OutputSet.prototype.write;
    const writeSpy = vi.spyOn(OutputSet.prototype, 'write').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof write>) {
      if (args[0] === 'plant-points') {
        await started; // the second Property is being saved
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      }
      return write.apply(this, args);
    });
    const s = await setup();
    try {
      await expect(
        stageExport({ api: api([building(3, 905), building(2, 906)]), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }),
      ).rejects.toMatchObject({ code: 'EXPORT_WRITE_FAILED' });
      await wait(300);
    } finally {
      saveSpy.mockRestore();
      writeSpy.mockRestore();
    }
    expect(lockAtSaveEnd).toEqual([true]);
  });
});
