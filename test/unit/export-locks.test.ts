// The export's locks: the --out lock's key where names ignore case, and a takeover claim left
// by a process that died holding it. (Many takers at one instant: test/e2e/lock-takeover.test.ts.)
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { look, namesIgnoreCase, outLockFile, outLockKey, takeLock } from '../../src/export/folder/locks.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-locks-'));
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const holder = (pid: number) => JSON.stringify({ pid, host: os.hostname(), started: 1 });

describe('the --out lock where names ignore case', () => {
  it('"Out" and "out" are one folder on Windows and macOS, two where names keep their case', async () => {
    const state = tmp();
    const base = tmp();
    const [upper, lower] = [path.join(base, 'Abrechnung', 'Out'), path.join(base, 'abrechnung', 'out')];
    expect(await outLockFile(state, upper, 'linux')).not.toBe(await outLockFile(state, lower, 'linux'));
    for (const platform of ['win32', 'darwin'] as const) expect(await outLockFile(state, upper, platform)).toBe(await outLockFile(state, lower, platform));
  });

  it('a folder whose names ignore case (an entry found under its swapped case) folds on Linux too', async () => {
    const base = tmp();
    writeFileSync(path.join(base, 'Abc'), '');
    expect(await namesIgnoreCase(base)).toBe(false);
    linkSync(path.join(base, 'Abc'), path.join(base, 'aBC')); // what a casefold folder answers: the same file
    expect(await namesIgnoreCase(base)).toBe(true);
    const state = tmp();
    expect(await outLockFile(state, path.join(base, 'Out'), 'linux')).toBe(await outLockFile(state, path.join(base, 'out'), 'linux'));
    expect(await namesIgnoreCase(tmp())).toBeNull(); // nothing to try: the platform decides
    // an existing, empty --out: its parent's names say it (there, "lEER" leads to "Leer")
    const parent = tmp();
    mkdirSync(path.join(parent, 'Leer'));
    symlinkSync('Leer', path.join(parent, 'lEER'));
    expect(await outLockFile(state, path.join(parent, 'Leer'), 'linux')).toBe(await outLockFile(state, path.join(parent, 'LEER'), 'linux'));
  });

  it('folds through upper case and NFC: σ/ς and a decomposed ü meet, a case-keeping key is left alone', () => {
    expect(outLockKey('/x/ΟΔΟΣ', true)).toBe(outLockKey('/x/οδος', true));
    expect(outLockKey('/x/οδοσ', true)).toBe(outLockKey('/x/οδος', true));
    expect(outLockKey('/x/Mu\u0308ller', true)).toBe(outLockKey('/x/müller', true));
    expect(outLockKey('/x/Out', false)).toBe('/x/Out');
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
