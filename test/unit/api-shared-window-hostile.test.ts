// The shared rate window (issue 14): a damaged state folder must never hang or
// swamp a run. A FIFO, a link to an endless device or a huge file where the window file
// belongs is read as an empty window, at once.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWindow, writeWindow } from '../../src/api/shared-window.js';

const file = () => {
  const f = path.join(mkdtempSync(path.join(os.tmpdir(), 'md-window-')), 'pacing', 'default.json');
  mkdirSync(path.dirname(f), { recursive: true });
  return f;
};

/** `p`'s value, or 'hung' when it has not settled within `ms`. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(process.platform !== 'win32')('a window file that is no window file', () => {
  it('a FIFO in its place is an empty window, not a read that waits for a writer forever', async () => {
    const f = file();
    execFileSync('mkfifo', [f]);
    expect(await within(readWindow(f, 5000), 2000)).toEqual([]);
    // Writing replaces it (atomic rename), and never blocks either.
    expect(await within(writeWindow(f, [4000], 5000), 2000)).toBeUndefined();
    expect(await readWindow(f, 5000)).toEqual([4000]);
  });

  it('a link to /dev/zero is an empty window, read without filling the memory', async () => {
    const f = file();
    symlinkSync('/dev/zero', f);
    const before = process.memoryUsage().rss;
    expect(await within(readWindow(f, 5000), 2000)).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('a window file far larger than any window', () => {
  it('is not read at all (a damaged or planted file), while a full window of 10,000 starts still is', async () => {
    const f = file();
    const now = 2_000_000_000_000;
    const starts = Array.from({ length: 10_000 }, (_, i) => now - 10_000 + i);
    writeFileSync(f, JSON.stringify({ starts }));
    expect(await readWindow(f, now)).toHaveLength(10_000);
    writeFileSync(f, `${JSON.stringify({ starts: [now - 1] })}${' '.repeat(8 * 1024 * 1024)}`);
    expect(await readWindow(f, now)).toEqual([]);
  });

  it('a link to a real window file is followed', async () => {
    const f = file();
    const real = path.join(path.dirname(f), 'elsewhere.json');
    writeFileSync(real, JSON.stringify({ starts: [4000] }));
    symlinkSync(real, f);
    expect(await readWindow(f, 5000)).toEqual([4000]);
  });
});
