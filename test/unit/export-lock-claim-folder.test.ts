// A dead run's lock is removed under a claim named after it (`<lock>.<id>.claim`, created exclusively).
// A folder planted at that claim left the dead lock for ever, told on every run as "another run is
// writing" (round 27). It is named as the folder it is, with the hint to remove it; nothing is removed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
