// A lock's record is written aside, then linked into place. Another host's run tidying the same --out folder
// (atomic.ts isLeftover) cannot tell a live record of a pid it does not know from a killed run's, and may remove
// it between the two steps: the taker then found no record to link and failed with ENOENT naming a file the user
// never saw. It writes its record again and goes on: the lock is taken where it was free, busy where it was not.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const removedBeforeLink = vi.hoisted(() => ({ times: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const link = async (from: string, to: string) => {
    if (removedBeforeLink.times > 0 && from.endsWith('.tmp')) {
      removedBeforeLink.times--;
      await real.rm(from);
    }
    return real.link(from, to);
  };
  return { ...real, link, default: { ...real, link } };
});

const { holdsLock, takeLock } = await import('../../src/export/folder/locks.js');
const busy = () => new Error('busy');

describe("a lock whose record another run's tidying removed before it was linked", () => {
  it('is taken all the same, and no record is left beside it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-lock-tidied-'));
    const file = path.join(dir, '.meterdata-lock');
    removedBeforeLink.times = 1;
    const release = await takeLock(file, busy());
    expect(removedBeforeLink.times).toBe(0);
    expect(holdsLock(file)).toBe(true);
    expect(readdirSync(dir)).toEqual(['.meterdata-lock']);
    await release();
    expect(existsSync(file)).toBe(false);
  });

  it('held by another live run: busy, as without the tidying', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-lock-tidied-'));
    const file = path.join(dir, '.meterdata-lock');
    const release = await takeLock(file, busy());
    const theirs = readFileSync(file, 'utf8');
    removedBeforeLink.times = 1;
    await expect(takeLock(file, busy())).rejects.toThrow('busy');
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    await release();
  });

  it('removed at every attempt: bounded, told busy rather than tried for ever', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-lock-tidied-'));
    const file = path.join(dir, '.meterdata-lock');
    removedBeforeLink.times = 100;
    await expect(takeLock(file, busy())).rejects.toThrow('busy');
    expect(removedBeforeLink.times).toBe(97);
    expect(readdirSync(dir)).toEqual([]);
    removedBeforeLink.times = 0;
  });
});
