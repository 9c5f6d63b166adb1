// The rate window shared by the processes of one profile, and the urgent lane of the one
// pacer: plain functions and a simulated clock, no server.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RateBudget, Scheduler } from '../../src/api/pacer.js';
import { readWindow, SHARED_WINDOW_MS, writeWindow } from '../../src/api/shared-window.js';

const file = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'md-window-')), 'pacing', 'default.json');

describe('the shared window file', () => {
  it('keeps only the last window, merges what another process left, and caps what it holds', async () => {
    const f = file();
    const now = 1_000_000;
    await writeWindow(f, [now - SHARED_WINDOW_MS - 1, now - 500, now - 100], now);
    expect(await readWindow(f, now)).toEqual([now - 500, now - 100]);
    await writeWindow(f, [now - 300, now - 100], now);
    expect(await readWindow(f, now)).toEqual([now - 500, now - 300, now - 100]);
    await writeWindow(
      f,
      Array.from({ length: 12_000 }, (_, i) => now - 12_000 + i),
      now,
    );
    expect(JSON.parse(readFileSync(f, 'utf8')).starts).toHaveLength(10_000);
  });

  it('reads a missing, half-written or foreign file as empty, and a start in the future as now', async () => {
    const f = file();
    expect(await readWindow(f, 5000)).toEqual([]);
    await writeWindow(f, [4000], 5000);
    writeFileSync(f, '{"starts":[4000, 49');
    expect(await readWindow(f, 5000)).toEqual([]);
    writeFileSync(f, '{"starts":"all"}');
    expect(await readWindow(f, 5000)).toEqual([]);
    writeFileSync(f, JSON.stringify({ starts: [4000, 'x', null, 9_000_000] }));
    expect(await readWindow(f, 5000)).toEqual([4000, 5000]);
  });

  it('never throws when the state folder cannot be written', async () => {
    const blocker = path.join(mkdtempSync(path.join(os.tmpdir(), 'md-window-')), 'file');
    writeFileSync(blocker, 'not a folder');
    await expect(writeWindow(path.join(blocker, 'pacing', 'default.json'), [1], 2)).resolves.toBeUndefined();
  });

  it('a budget seeded with another process’s starts lets only the rest of the limit through in that window', () => {
    const budget = new RateBudget({ perMinute: 10, burst: 10 });
    budget.seed([0, 100, 200]);
    const starts: number[] = [];
    let t = 300;
    for (let i = 0; i < 8; i++) {
      t = budget.nextStart(t);
      budget.take(t);
      starts.push(t);
    }
    // Seven more fit beside the three seeded; the eighth waits until the first seeded start leaves the window.
    expect(starts.slice(0, 7).every((s) => s === 300)).toBe(true);
    expect(starts[7]).toBe(budget.windowMs);
  });
});

describe('the urgent lane of the pacer', () => {
  it('lets the /whoami of a refresh start while every concurrency slot is held by callers waiting for that refresh', async () => {
    const scheduler = new Scheduler(new RateBudget({ perMinute: 600, burst: 10 }), 2);
    const held = [await scheduler.acquire(), await scheduler.acquire()];
    const queued = scheduler.acquire();
    const urgent = await Promise.race([scheduler.acquire(undefined, true), new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), 500))]);
    expect(urgent).not.toBe('blocked');
    (urgent as () => void)();
    for (const release of held) release();
    (await queued)();
    scheduler.close();
  });
});
