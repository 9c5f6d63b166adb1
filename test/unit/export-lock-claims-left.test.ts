// A run killed while it removed a dead holder's lock leaves its claim (`<lock>.<id>.claim`, locks.ts removeStale). The
// lock it named is gone then, so no later removal looks at that claim again, and it stayed in the output folder for good
// (a uvi run killed while its letters were drawn; CI at 6116b50). The next run to take the lock removes the claims of
// claimants that are gone, and only those.
import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownRecord, takeLock } from '../../src/export/folder/locks.js';

const DEAD = JSON.stringify({ pid: 2_147_483_000, host: os.hostname(), started: 1 });

describe('claims left by runs killed while removing a dead lock', () => {
  it('go when the lock is next taken; a live claimant’s stays', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-claims-left-'));
    const file = path.join(dir, '.meterdata-lock');
    const dead = `${file}.b3419909b43aeb61.claim`;
    const live = `${file}.0123456789abcdef.claim`;
    writeFileSync(dead, DEAD);
    writeFileSync(live, ownRecord());
    const release = await takeLock(file, new Error('busy'));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    await release();
    expect(existsSync(file)).toBe(false);
  });

  it('a minute old, its pid now another live process’s (round 58 T4): goes too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-claims-left-'));
    const file = path.join(dir, '.meterdata-lock');
    const reused = `${file}.b3419909b43aeb62.claim`;
    writeFileSync(reused, JSON.stringify({ pid: process.ppid, host: os.hostname(), started: 1 }));
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(reused, twoMinutesAgo, twoMinutesAgo);
    const release = await takeLock(file, new Error('busy'));
    expect(existsSync(reused)).toBe(false);
    await release();
  });
});
