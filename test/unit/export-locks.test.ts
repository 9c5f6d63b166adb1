// The export's locks: the --out lock's key where names ignore case, and a takeover claim left
// by a process that died holding it. (Many takers at one instant: test/e2e/lock-takeover.test.ts.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { look, outLockFile, outLockKey, takeLock } from '../../src/export/folder/locks.js';
import { lockOutFolder } from '../../src/export/journal/out-locks.js';
import { FOLDER_LOCK } from '../../src/export/folder/folder-lock.js';
import { PID_SPACE } from '../../src/core/pid.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-locks-'));
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const holder = (pid: number) => JSON.stringify({ pid, host: os.hostname(), started: 1 });

describe('the --out lock where names ignore case', () => {
  it('"Out" and "out" are one lock whatever the platform', async () => {
    const state = tmp();
    const base = tmp();
    expect(await outLockFile(state, path.join(base, 'Abrechnung', 'Out'))).toBe(await outLockFile(state, path.join(base, 'abrechnung', 'out')));
  });

  it('an empty folder whose names ignore case, below a parent whose names keep it (a fresh FAT stick): one lock before and after it has entries', async () => {
    const state = tmp();
    const usb = path.join(tmp(), 'usb');
    mkdirSync(usb);
    const first = await outLockFile(state, path.join(usb, 'Out')); // the stick is empty: nothing tells its case rule
    mkdirSync(path.join(usb, 'Out'));
    writeFileSync(path.join(usb, 'Out', 'x'), '');
    symlinkSync('Out', path.join(usb, 'oUT')); // what a case-insensitive stick answers for "oUT"
    expect(await outLockFile(state, path.join(usb, 'out'))).toBe(first);
    expect(readdirSync(usb).length).toBe(2); // nothing was written there to find out
  });

  // Round 34b: `--out casea` while a run wrote to CaseA was told "is writing to …/casea", a folder that does not exist.
  it('a run into "casea" while one writes to "CaseA" is refused naming CaseA, the folder that run writes to', async () => {
    const [state, base] = [tmp(), tmp()];
    const first = await lockOutFolder(state, path.join(base, 'CaseA'));
    await expect(lockOutFolder(state, path.join(base, 'casea'))).rejects.toMatchObject({
      code: 'EXPORT_OUT_BUSY',
      message: `Another \`meterdata export\` or \`meterdata uvi\` is writing to ${path.join(base, 'CaseA')}; one run owns a folder at a time.`,
    });
    // a file of another spelling beside it is no folder a run writes to; with two folders which one cannot be told (round 36b F4)
    writeFileSync(path.join(base, 'CASEA'), '');
    await expect(lockOutFolder(state, path.join(base, 'casea'))).rejects.toMatchObject({
      message: expect.stringContaining(`writing to ${path.join(base, 'CaseA')};`),
    });
    // two folders of that name: both named, as the lock cannot tell which (round 37b F3: the one asked for was named alone)
    mkdirSync(path.join(base, 'cASEA'));
    const both = await lockOutFolder(state, path.join(base, 'casea')).catch((e: Error) => e.message);
    const [a, b] = [path.join(base, 'CaseA'), path.join(base, 'cASEA')];
    expect(
      [`writing to ${a} or ${b};`, `writing to ${b} or ${a};`].some((w) => String(both).includes(w)),
      String(both),
    ).toBe(true);
    // the same spelling while both are there: both, as well
    const same = await lockOutFolder(state, path.join(base, 'CaseA')).catch((e: Error) => e.message);
    expect(
      [`writing to ${a} or ${b};`, `writing to ${b} or ${a};`].some((w) => String(same).includes(w)),
      String(same),
    ).toBe(true);
    await first.unlock();
  });

  it('folds through upper case and NFC: σ/ς and a decomposed ü meet', () => {
    expect(outLockKey('/x/ΟΔΟΣ')).toBe(outLockKey('/x/οδος'));
    expect(outLockKey('/x/οδοσ')).toBe(outLockKey('/x/οδος'));
    expect(outLockKey('/x/Mu\u0308ller')).toBe(outLockKey('/x/müller'));
  });
});

describe('a takeover claim', () => {
  it('left by a process that died holding it is taken over in turn; the lock is won and no claim is left', async () => {
    const dir = tmp();
    const file = path.join(dir, 'out-x.lock');
    writeFileSync(file, holder(deadPid()));
    writeFileSync(`${file}.${look(file)!.id}.claim`, holder(deadPid()));
    const release = await takeLock(file, new Error('busy'));
    expect(readdirSync(dir)).toEqual(['out-x.lock']);
    await release();
    expect(existsSync(file)).toBe(false);
  });

  it("held by a live process: busy, the dead owner's lock is left to that process", async () => {
    const dir = tmp();
    const file = path.join(dir, 'out-x.lock');
    writeFileSync(file, holder(deadPid()));
    const claim = `${file}.${look(file)!.id}.claim`;
    writeFileSync(claim, holder(process.ppid)); // the test runner: alive
    await expect(takeLock(file, new Error('busy'))).rejects.toThrow('busy');
    expect(existsSync(claim)).toBe(true);
    expect(look(file)!.text).toContain('"started":1');
  });
});

describe('a lock naming no process', () => {
  // kill(0, 0) and kill(-1, 0) signal a process group and succeed: read as a live holder, such a lock was busy for ever
  it.each([0, -1, -42])('pid %i: a damaged lock, taken over once it is old', async (pid) => {
    const dir = tmp();
    const file = path.join(dir, 'out-x.lock');
    writeFileSync(file, JSON.stringify({ pid, host: os.hostname() }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const release = await takeLock(file, new Error('busy'));
    expect(look(file)!.text).toContain(`"pid":${process.pid}`);
    await release();
  });
});

describe('a folder lock of another pid space with this host’s name', () => {
  it('names its holder as such: its pid is none of this one’s (round 67 F7)', async () => {
    const [state, out] = [tmp(), tmp()];
    const record = { pid: process.ppid, host: os.hostname(), started: 1, ns: 'another pid space' };
    writeFileSync(path.join(out, FOLDER_LOCK), JSON.stringify(record));
    const refused = await lockOutFolder(state, out).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    expect((refused as { hint: string }).hint).toContain(
      `It is process ${process.ppid} on ${os.hostname()} (perhaps in another container, or from before the last restart).`,
    );
    writeFileSync(path.join(out, FOLDER_LOCK), JSON.stringify({ ...record, ns: PID_SPACE }));
    expect(await lockOutFolder(state, out).catch((e: { hint: string }) => e.hint)).toContain(`It is process ${process.ppid} on ${os.hostname()}. Wait`);
  });
});
