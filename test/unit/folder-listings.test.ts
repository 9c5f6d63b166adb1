// The listings kept of folders unchanged since (src/export/folder/listings.ts): the checks of where the other command has
// written list every folder above --out at each run's start and commit. A kept listing must never hide an entry made
// after it: not one made in the same second, not one whose folder's mtime was then set back.
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesKeptNow, folders } from '../../src/export/folder/listings.js';

const MONTH = /^\d{4}-\d{2}$/;
const settled = (dir: string) => {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
  return past;
};

describe('folders above --out, listed once while unchanged', () => {
  it('a month folder made after a kept listing is found', () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-listings-'));
    mkdirSync(path.join(d, '2025-10'));
    settled(d);
    expect(folders(d, MONTH)).toEqual([path.join(d, '2025-10')]);
    mkdirSync(path.join(d, '2025-11'));
    expect(folders(d, MONTH).sort()).toEqual([path.join(d, '2025-10'), path.join(d, '2025-11')]);
  });

  it('an entry made and the folder’s mtime set back to what it was is found (its ctime moved)', () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-listings-'));
    const past = settled(d);
    expect(folders(d)).toEqual([]);
    mkdirSync(path.join(d, '2025-11'));
    writeFileSync(path.join(d, 'billing.csv'), 'x');
    utimesSync(d, past, past);
    expect(statSync(d).mtimeMs).toBe(past.getTime());
    expect(folders(d)).toEqual([path.join(d, '2025-11')]);
  });

  it('a folder that became a file, or went, is no folder any more', () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-listings-'));
    mkdirSync(path.join(d, '2025-11'));
    mkdirSync(path.join(d, '2025-12'));
    settled(d);
    expect(folders(d, MONTH)).toHaveLength(2);
    rmSync(path.join(d, '2025-11'), { recursive: true });
    writeFileSync(path.join(d, '2025-11'), 'x');
    renameSync(path.join(d, '2025-12'), path.join(d, 'old'));
    expect(folders(d, MONTH)).toEqual([]);
  });

  it('a folder changed in the last 2 s is listed anew each time (a file system counting mtimes in seconds)', () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-listings-'));
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(d, now, now);
    expect(folders(d)).toEqual([]);
    mkdirSync(path.join(d, '2025-11'));
    utimesSync(d, now, now); // the same whole second, as FAT would keep it; ctime stays as the kernel set it
    expect(folders(d)).toEqual([path.join(d, '2025-11')]);
  });

  it('a folder that cannot be listed has none', () => {
    expect(folders(path.join(os.tmpdir(), 'md-listings-none', 'x'))).toEqual([]);
  });

  it('keeps at most 20,000 entries in all, however many large folders a run lists (round 53 N4: 256 × 10,000)', () => {
    const big = () => {
      const d = mkdtempSync(path.join(os.tmpdir(), 'md-listings-big-'));
      for (let i = 0; i < 8_000; i++) mkdirSync(path.join(d, `f${i}`));
      settled(d);
      return d;
    };
    const dirs = [big(), big(), big()];
    for (const d of dirs) expect(folders(d)).toHaveLength(8_000);
    expect(entriesKeptNow()).toBeLessThanOrEqual(20_000);
    expect(entriesKeptNow()).toBeGreaterThanOrEqual(8_000);
    for (const d of dirs) rmSync(d, { recursive: true });
  });
});
