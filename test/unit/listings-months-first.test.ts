// A folder's listing is cut at 10,000 entries; month folders come first, so the look upward for a uvi root finds its
// months among any number of other folders (round 62 X2: past the cut, an export into <uvi root>/exports passed).
// The listing's order is the file system's: here it is set, the month last.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

type Entry = { name: string; isDirectory: () => boolean };
/** The listings set here, by folder; any other folder is listed by the file system. */
const set = new Map<string, Entry[]>();
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return { ...fs, readdirSync: (dir: string, opts?: unknown) => set.get(dir) ?? fs.readdirSync(dir, opts as never) };
});
const entry = (name: string, isDir: boolean): Entry => ({ name, isDirectory: () => isDir });

const { folders, listingCut, MONTH_FOLDER } = await import('../../src/export/folder/listings.js');
const { singleRunIn } = await import('../../src/export/folder/out-folder.js');

describe('a listing cut at 10,000 folders', () => {
  it('keeps every month folder, listed last among 20,000 others, and says only the others were cut', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-listing-months-'));
    set.set(dir, [...Array.from({ length: 20_000 }, (_, i) => entry(`d${i}`, true)), entry('letter.pdf', false), entry('2025-10', true)]);
    expect(folders(dir, MONTH_FOLDER)).toEqual([path.join(dir, '2025-10')]);
    expect(listingCut(dir, MONTH_FOLDER)).toBe(false);
    expect(listingCut(dir)).toBe(true);
    expect(folders(dir)).toHaveLength(10_000);
    expect(folders(dir)[0]).toBe(path.join(dir, '2025-10'));
  });

  it('more than 10,000 month folders: the months are told as cut', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-listing-months-'));
    const month = (i: number) => `${String(1000 + Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
    set.set(
      dir,
      Array.from({ length: 10_001 }, (_, i) => entry(month(i), true)),
    );
    expect(folders(dir, MONTH_FOLDER)).toHaveLength(10_000);
    expect(listingCut(dir, MONTH_FOLDER)).toBe(true);
  });
});

describe('a single run’s month of more letters than a listing holds', () => {
  it('its manifest, listed past the 10,000th entry, is still found: a portfolio does not go beside it (round 63 Y4)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-single-month-'));
    const month = path.join(root, '2025-11');
    mkdirSync(month);
    writeFileSync(path.join(month, 'meterdata-manifest.json'), '{}');
    set.set(root, [entry('2025-11', true)]);
    set.set(month, [...Array.from({ length: 20_000 }, (_, i) => entry(`Schreiben-${i}.pdf`, false)), entry('meterdata-manifest.json', false)]);
    expect(singleRunIn(root, 'uvi', ['uvi.csv'])).toBe(path.join(month, 'meterdata-manifest.json'));
  });
});
