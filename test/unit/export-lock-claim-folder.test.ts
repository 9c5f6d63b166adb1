// A dead run's lock is removed under a claim named after it (`<lock>.<id>.claim`, created exclusively).
// A folder planted at that claim left the dead lock for ever, told on every run as "another run is
// writing" (round 27). It is named as the folder it is, with the hint to remove it; nothing is removed.
import { existsSync, lutimesSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { look, takeLock } from '../../src/export/folder/locks.js';

const DEAD = JSON.stringify({ pid: 2_147_483_000, host: os.hostname(), started: 1 });

describe("a folder at the claim of a dead run's lock", () => {
  it('is told as a folder to remove, with the busy refusal’s code; the dead lock and the folder stay', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-claim-folder-'));
    const file = path.join(dir, '.meterdata-lock');
    writeFileSync(file, DEAD);
    const claim = `${file}.${look(file)!.id}.claim`;
    mkdirSync(claim);
    const busy = Object.assign(new Error('Another meterdata export is writing'), { code: 'EXPORT_OUT_BUSY' });
    const e = (await takeLock(file, busy).catch((err: unknown) => err)) as { message: string; hint?: string };
    expect(e.message).toBe(`${claim} is a folder, where meterdata keeps a lock file; it is not meterdata's, and meterdata removes no folder it did not make.`);
    expect(e.hint).toMatch(/^Remove the folder/);
    expect(readFileSync(file, 'utf8')).toBe(DEAD);
    expect(existsSync(claim)).toBe(true);
  });

  it('without the folder the dead lock is taken over', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-claim-folder-'));
    const file = path.join(dir, '.meterdata-lock');
    writeFileSync(file, DEAD);
    const release = await takeLock(file, new Error('busy'));
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    await release();
  });
});

// Round 27: a lock that is there but cannot be read (a dangling link, another user's file of mode 000) read as "gone"
// each time, so every run was told "another run is writing" for ever, however old it was.
describe('a lock that is there but cannot be read', () => {
  it('a dangling link an hour old is a damaged lock: taken over, the link removed (never its target)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-lock-unreadable-'));
    const file = path.join(dir, '.meterdata-lock');
    symlinkSync(path.join(dir, 'nothing-there'), file);
    const hourAgo = new Date(Date.now() - 3_600_000);
    lutimesSync(file, hourAgo, hourAgo);
    const release = await takeLock(file, new Error('busy'));
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    expect(existsSync(path.join(dir, 'nothing-there'))).toBe(false);
    await release();
  });

  it('a fresh one is still refused as held (it may be a run placing it this moment)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-lock-unreadable-'));
    const file = path.join(dir, '.meterdata-lock');
    symlinkSync(path.join(dir, 'nothing-there'), file);
    await expect(takeLock(file, new Error('busy'))).rejects.toThrow('busy');
  });
});
