// A folder's listing is cut at 10,000 entries; month folders come first, so the look upward for a uvi root finds its
// months among any number of other folders (round 62 X2: past the cut, an export into <uvi root>/exports passed).
// The listing's order is the file system's: here it is set, the month last.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const listed: { name: string; isDirectory: () => boolean }[] = [];
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return { ...fs, readdirSync: (dir: string, opts?: unknown) => (listed.length > 0 ? listed : fs.readdirSync(dir, opts as never)) };
});

const { folders, listingCut, MONTH_FOLDER } = await import('../../src/export/folder/listings.js');

describe('a listing cut at 10,000 folders', () => {
  it('keeps every month folder, listed last among 20,000 others, and says only the others were cut', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-listing-months-'));
    listed.push(...Array.from({ length: 20_000 }, (_, i) => ({ name: `d${i}`, isDirectory: () => true })));
    listed.push({ name: 'letter.pdf', isDirectory: () => false }, { name: '2025-10', isDirectory: () => true });
    expect(folders(dir, MONTH_FOLDER)).toEqual([path.join(dir, '2025-10')]);
    expect(listingCut(dir, MONTH_FOLDER)).toBe(false);
    expect(listingCut(dir)).toBe(true);
    expect(folders(dir)).toHaveLength(10_000);
    expect(folders(dir)[0]).toBe(path.join(dir, '2025-10'));
  });

  it('more than 10,000 month folders: the months are told as cut', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-listing-months-'));
    listed.length = 0;
    listed.push(
      ...Array.from({ length: 10_001 }, (_, i) => ({
        name: `${String(1000 + Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`,
        isDirectory: () => true,
      })),
    );
    expect(folders(dir, MONTH_FOLDER)).toHaveLength(10_000);
    expect(listingCut(dir, MONTH_FOLDER)).toBe(true);
  });
});
