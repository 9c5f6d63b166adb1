// The lock inside an --out folder (src/export/folder/folder-lock.ts), which keeps apart runs of two
// accounts (two METERDATA_HOMEs) sharing the folder: a live holder refuses, naming its process and
// host; a dead one on this host is taken over; one of another host only once it has been silent
// for FOREIGN_LOCK_STALE_MS; the folder the lock created goes again when left empty.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLDER_LOCK, FOREIGN_LOCK_STALE_MS, lockInFolder } from '../../src/export/folder/folder-lock.js';
import type { LockHolder } from '../../src/export/folder/locks.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-folder-lock-'));
const busy = (holder: LockHolder) => new Error(`busy: ${holder ? `${holder.pid}@${holder.host}` : 'unknown'}`);
const plant = (dir: string, pid: number, host: string, ageMs = 0) => {
  const file = path.join(dir, FOLDER_LOCK);
  writeFileSync(file, JSON.stringify({ pid, host, started: 1 }));
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
};

describe('the lock inside an --out folder', () => {
  it('is refused while another holds it, naming its process and host; released, nothing of it is left', async () => {
    const out = tmp();
    const held = await lockInFolder(out, busy);
    expect(readdirSync(out)).toEqual([FOLDER_LOCK]);
    await expect(lockInFolder(out, busy)).rejects.toThrow(`busy: ${process.pid}@${os.hostname()}`);
    await held.unlock();
    expect(readdirSync(out)).toEqual([]);
  });

  it("a dead process's lock on this host is taken over", async () => {
    const out = tmp();
    plant(out, spawnSync(process.execPath, ['-e', '0']).pid!, os.hostname());
    await (await lockInFolder(out, busy)).unlock();
    expect(readdirSync(out)).toEqual([]);
  });

  it('one of another host is kept while it is touched, taken over once silent longer than the bound', async () => {
    const out = tmp();
    plant(out, 4242, 'fileserver-clerk', FOREIGN_LOCK_STALE_MS - 60_000);
    await expect(lockInFolder(out, busy)).rejects.toThrow('busy: 4242@fileserver-clerk');
    plant(out, 4242, 'fileserver-clerk', FOREIGN_LOCK_STALE_MS + 60_000);
    await (await lockInFolder(out, busy)).unlock();
    expect(readdirSync(out)).toEqual([]);
  });

  it('creates a missing --out and removes it again when left empty, never a folder with content', async () => {
    const base = tmp();
    const out = path.join(base, 'a', 'b');
    const lock = await lockInFolder(out, busy);
    expect(lock.created).toBe(path.join(base, 'a'));
    await lock.unlock();
    expect(readdirSync(base)).toEqual([]);
    const kept = await lockInFolder(out, busy);
    writeFileSync(path.join(out, 'billing.csv'), 'x');
    await kept.unlock();
    expect(existsSync(path.join(out, 'billing.csv'))).toBe(true);
  });
});
