// The claim's gate (src/auth/claim-gate.ts) at the edges round 52 found:
// - L3: a gate moved aside by a takeover keeps the gate's mtime; the prune of scratch files went by that mtime and
//   removed it before the takeover read it, which then took it for another claim (exit 3 for good, nothing sent);
// - L4: a link made whose reply was lost (told as EEXIST, as over NFS) had the run refuse its own gate from then on;
// - L2: a takeover finding no gate made its own while another takeover had the gate aside to check it; the gate put
//   back then failed, and a live connection was told to sign in again;
// - L5: a gate that could not be made was told as the list of tokens sent not written, with advice to free disk space
//   whatever the cause.
import { execFileSync, spawn } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  promises as fsPromises,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { claimRefreshToken, releaseClaim, tokenHash } from '../../src/auth/spent-tokens.js';
import { pruneGates, readGate, removeGate, takeGate, takeOverGate } from '../../src/auth/claim-gate.js';

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-gate-edges-')) }) as NodeJS.ProcessEnv;
const gates = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'state', 'refresh-claims');
const AT = '2026-11-29T10:00:00.000Z';
const statQuiet = (file: string) => statSync(file, { throwIfNoEntry: false });
/** A claim of the profile `default`, made at `at` by process `pid`. */
const claim = (h: string, c: string, pid: number, at = AT) => ({ h, at, profile: 'default', c, pid, host: os.hostname() });
const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
async function deadPid(): Promise<number> {
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => dead.on('exit', resolve));
  return dead.pid!;
}

describe('the prune of the gates’ scratch files', () => {
  it('leaves a gate just moved aside by a takeover, however old its mtime; removes scratch files an hour old', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const h = tokenHash('rt-old');
    const gate = path.join(gates(env), h);
    writeFileSync(gate, JSON.stringify({ h, at: AT, profile: 'default', c: 'unused1' }));
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(gate, twoHoursAgo, twoHoursAgo);
    const aside = `${gate}.${await deadPid()}.0a1b2c3d.taken.tmp`;
    renameSync(gate, aside); // what takeOverGate does: the mtime stays two hours old, the ctime is now
    await pruneGates(env, 400 * 86_400_000, Date.now());
    expect(readdirSync(gates(env))).toEqual([path.basename(aside)]);
    // an hour on (the ctime then an hour old too), a killed takeover's file goes
    await pruneGates(env, 400 * 86_400_000, Date.now() + 3_700_000);
    expect(readdirSync(gates(env))).toEqual([]);
  });
});

describe('a gate linked whose reply was lost (EEXIST over NFS)', () => {
  it('is this run’s own claim: it passes, and a second claim of the token finds it', async () => {
    const env = home();
    const realLink = fsPromises.link.bind(fsPromises);
    const link = vi.spyOn(fsPromises, 'link').mockImplementation(async (from, to) => {
      await realLink(from, to);
      throw errno('EEXIST');
    });
    try {
      expect(await claimRefreshToken(env, 'rt-nfs', 'default', AT)).toBeNull();
    } finally {
      link.mockRestore();
    }
    expect(await claimRefreshToken(env, 'rt-nfs', 'beta', AT)).toMatchObject({ profile: 'default' });
  });
});

describe('a gate that cannot be made', () => {
  it('is told as the note of the claim in the gates’ folder, not as the list; the hint fits the cause; nothing stays', async () => {
    for (const [code, hint] of [
      ['ENOSPC', /Free space/],
      ['EROFS', /read-only/],
      ['EACCES', /chown/],
    ] as const) {
      const env = home();
      const link = vi.spyOn(fsPromises, 'link').mockRejectedValue(errno(code));
      const e = await claimRefreshToken(env, 'rt-full', 'default', AT)
        .catch((x: unknown) => x)
        .finally(() => link.mockRestore());
      expect(e).toMatchObject({ code: 'AUTH_STORE_WRITE_FAILED', exitCode: 5 });
      expect((e as Error).message).toContain(gates(env));
      expect((e as Error).message).not.toContain('refresh-tokens-spent.json');
      expect((e as { hint: string }).hint).toMatch(hint);
      if (code === 'EROFS') expect((e as { hint: string }).hint).not.toMatch(/chown|Free space/); // a read-only mount (round 53 N5, 54 P6)
      expect((e as Error).message).not.toMatch(/\.\)/); // the reason without a stray period
      expect(readdirSync(gates(env))).toEqual([]);
      // the cause gone, the token is claimed
      expect(await claimRefreshToken(env, 'rt-full', 'default', AT)).toBeNull();
    }
  });
});

describe('a takeover that finds no gate, while another has it aside', () => {
  it('waits for it to come back and finds the claim that stands, making no gate of its own', async () => {
    const env = home();
    const h = tokenHash('rt-aside');
    const claim = (c: string, pid: number) => ({ h, at: AT, profile: 'default', c, pid, host: os.hostname() });
    // the claim that took over the unused one already
    expect(await takeGate(env, claim('first', 2))).toBeNull();
    const gate = path.join(gates(env), h);
    const aside = `${gate}.3.0a1b2c3d.taken.tmp`;
    renameSync(gate, aside); // a second takeover has it aside, to check it
    const third = takeOverGate(env, claim('third', 4), 'unused1');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await fsPromises.link(aside, gate); // not the unused claim: put back
    await fsPromises.rm(aside);
    expect(await third).toMatchObject({ c: 'first' });
    expect(readGate(env, h)).toMatchObject({ c: 'first' });
  });

  it('no gate comes back (a claim older than the gates): the takeover makes its own', async () => {
    const env = home();
    const h = tokenHash('rt-list-only');
    expect(await takeOverGate(env, { h, at: AT, profile: 'default', c: 'new', pid: 2, host: os.hostname() }, 'unused1')).toBeNull();
    expect(readGate(env, h)).toMatchObject({ c: 'new' });
  });
});

// Each prune stats every gate, and a year of many profiles' refreshes leaves tens of thousands: once an hour is enough.
describe('the prune of old gates', () => {
  it('runs at the first claim, then not again within the hour; an hour on it does', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const old = (name: string) => {
      const file = path.join(gates(env), tokenHash(name));
      writeFileSync(file, JSON.stringify({ h: tokenHash(name), at: AT, profile: 'default' }));
      const past = new Date(Date.now() - 401 * 86_400_000);
      utimesSync(file, past, past);
      return path.basename(file);
    };
    old('rt-a');
    expect(await claimRefreshToken(env, 'rt-1', 'default', AT)).toBeNull();
    expect(readdirSync(gates(env))).toEqual([tokenHash('rt-1')]);
    const b = old('rt-b');
    expect(await claimRefreshToken(env, 'rt-2', 'default', AT)).toBeNull();
    expect(readdirSync(gates(env))).toContain(b);
    const marker = `${gates(env)}.pruned`;
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(marker, twoHoursAgo, twoHoursAgo);
    expect(await claimRefreshToken(env, 'rt-3', 'default', AT)).toBeNull();
    expect(readdirSync(gates(env)).sort()).toEqual([tokenHash('rt-1'), tokenHash('rt-2'), tokenHash('rt-3')].sort());
  });
});

// Round 53: a takeover's gate put back where links are refused (N1), a damaged gate put back (N3), an aside gone before it
// was read (N6), scratch files of a live process (N6 on FAT), the texts of a gate that cannot be made or read (N5).
describe('round 53: a takeover that moved another claim’s gate aside', () => {
  it('puts it back where links are refused, by a rename: the same file, which a claim still writing it writes to (round 54 P1)', async () => {
    const env = home();
    const h = tokenHash('rt-nolink');
    expect(await takeGate(env, claim(h, 'first', 2))).toBeNull();
    const inode = statSync(path.join(gates(env), h)).ino;
    const link = vi.spyOn(fsPromises, 'link').mockRejectedValue(errno('EPERM'));
    try {
      expect(await takeOverGate(env, claim(h, 'second', 3), 'unused1')).toMatchObject({ c: 'first' });
    } finally {
      link.mockRestore();
    }
    expect(readGate(env, h)).toMatchObject({ c: 'first' });
    expect(statSync(path.join(gates(env), h)).ino).toBe(inode);
    expect(readdirSync(gates(env))).toEqual([h]);
    expect(await takeOverGate(env, claim(h, 'third', 4), 'unused1')).toMatchObject({ c: 'first' });
  });

  it('held aside by a takeover that stalls past the second, it still stands against a third (round 53 N2)', async () => {
    const env = home();
    const h = tokenHash('rt-stalled');
    expect(await takeGate(env, claim(h, 'first', 2))).toBeNull();
    const gate = path.join(gates(env), h);
    renameSync(gate, `${gate}.3.0a1b2c3d.taken.tmp`); // the second takeover, stalled with it aside
    expect(await takeOverGate(env, claim(h, 'third', 4), 'unused1')).toMatchObject({ c: 'first' });
    expect(readdirSync(gates(env))).toEqual([`${h}.3.0a1b2c3d.taken.tmp`]);
    // the unused claim aside (a takeover about to make its own gate) is no claim that stands: after the second, one claims
    const env2 = home();
    expect(await takeGate(env2, claim(h, 'unused1', 2))).toBeNull();
    renameSync(path.join(gates(env2), h), `${path.join(gates(env2), h)}.3.0a1b2c3d.taken.tmp`);
    expect(await takeOverGate(env2, claim(h, 'fourth', 4), 'unused1')).toBeNull();
  });

  it('not put back at all (the disk fails): the gate aside still stands against the next takeover (round 54 P3)', async () => {
    const env = home();
    const h = tokenHash('rt-stuck');
    expect(await takeGate(env, claim(h, 'first', 2))).toBeNull();
    const realRename = fsPromises.rename.bind(fsPromises);
    const link = vi.spyOn(fsPromises, 'link').mockRejectedValue(errno('EIO'));
    const rename = vi.spyOn(fsPromises, 'rename').mockImplementation(async (from, to) => {
      if (String(from).endsWith('.taken.tmp')) throw errno('EIO');
      await realRename(from, to);
    });
    const e = await takeOverGate(env, claim(h, 'second', 3), 'unused1')
      .catch((x: unknown) => x)
      .finally(() => {
        link.mockRestore();
        rename.mockRestore();
      });
    expect(e).toMatchObject({ code: 'EIO' });
    expect(await takeOverGate(env, claim(h, 'third', 4), 'unused1')).toMatchObject({ c: 'first' });
  });

  it('damaged: put back and told, naming the gate, never taken for no claim by the next run', async () => {
    const env = home();
    const h = tokenHash('rt-torn-takeover');
    mkdirSync(gates(env), { recursive: true });
    writeFileSync(path.join(gates(env), h), '');
    for (let run = 0; run < 2; run++) {
      const e = await takeOverGate(env, claim(h, `run${run}`, 2), 'unused1').catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'AUTH_SPENT_LIST_DAMAGED' });
      expect((e as Error).message).toContain(`${path.join(gates(env), h)},`);
      expect((e as Error).message).toMatch(/note of a claimed refresh token/);
      expect(readdirSync(gates(env))).toEqual([h]);
    }
  });

  it('gone before it was read (another program): nothing claimed, exit 5 to run again; not told as taken by this profile', async () => {
    const env = home();
    const h = tokenHash('rt-vanished');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const realRename = fsPromises.rename.bind(fsPromises);
    const rename = vi.spyOn(fsPromises, 'rename').mockImplementation(async (from, to) => {
      await realRename(from, to);
      await fsPromises.rm(to);
    });
    const e = await takeOverGate(env, claim(h, 'mine', 3), 'unused1')
      .catch((x: unknown) => x)
      .finally(() => rename.mockRestore());
    expect(e).toMatchObject({ code: 'AUTH_LOCK_LOST', exitCode: 5 });
    expect((e as Error).message).not.toMatch(/lock/);
    expect(readdirSync(gates(env))).toEqual([]);
    // the next run finds no gate, waits its second, and claims
    expect(await takeOverGate(env, claim(h, 'next', 3), 'unused1')).toBeNull();
  });
});

describe('round 53: scratch files and texts', () => {
  it('a scratch file of another process still running is not pruned, however old; one named with this pid is (round 54 P5)', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => live.once('spawn', resolve));
      const theirs = path.join(gates(env), `${tokenHash('rt-live')}.${live.pid}.0a1b2c3d.taken.tmp`);
      const ours = path.join(gates(env), `${tokenHash('rt-live')}.${process.pid}.0a1b2c3e.taken.tmp`);
      writeFileSync(theirs, '{}');
      writeFileSync(ours, '{}'); // as a container's pid 1, every run has the same pid: left by an earlier one
      await pruneGates(env, 400 * 86_400_000, Date.now() + 10 * 3_600_000);
      expect(readdirSync(gates(env))).toEqual([path.basename(theirs)]);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('a link left where the gates’ folder goes: the hint says to move it, not to free disk space', async () => {
    const env = home();
    mkdirSync(path.join(env.METERDATA_HOME!, 'state'), { recursive: true });
    symlinkSync(path.join(env.METERDATA_HOME!, 'nowhere'), gates(env));
    const e = await claimRefreshToken(env, 'rt-dangling', 'default', AT).catch((x: unknown) => x);
    expect(e).toMatchObject({ exitCode: 5 });
    expect((e as { hint: string }).hint).toMatch(/Move or rename/);
    expect((e as { hint: string }).hint).not.toMatch(/space/);
  });
});

describe('the prune’s marker', () => {
  it('a link put there is not followed (the file it names keeps its bytes); a FIFO there holds no claim up', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const elsewhere = path.join(env.METERDATA_HOME!, 'precious.txt');
    writeFileSync(elsewhere, 'keep me');
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(elsewhere, old, old);
    symlinkSync(elsewhere, `${gates(env)}.pruned`);
    expect(await claimRefreshToken(env, 'rt-link-marker', 'default', AT)).toBeNull();
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me');
    expect(statSync(elsewhere).mtimeMs).toBe(old.getTime());
    const fifoHome = home();
    mkdirSync(path.join(fifoHome.METERDATA_HOME!, 'state'), { recursive: true });
    execFileSync('mkfifo', [`${gates(fifoHome)}.pruned`]);
    utimesSync(`${gates(fifoHome)}.pruned`, old, old); // an hour past: the marker is touched
    expect(await claimRefreshToken(fifoHome, 'rt-fifo-marker', 'default', AT)).toBeNull();
  });
});

// Round 55: a claim given back while a takeover holds its gate aside (Q1), this process's own earlier claim held aside
// (Q2), a damaged aside named by its own name (Q3), the prune's marker replaced and scratch files kept a day at most (Q7).
describe('round 55: gates held aside', () => {
  it('a claim given back while a takeover holds its gate aside goes from there too; that takeover then puts nothing back', async () => {
    const env = home();
    const h = tokenHash('rt-ghost');
    const at = '2026-11-29T10:00:01.000Z';
    expect(await takeGate(env, claim(h, 'given', 2, at))).toBeNull();
    const gate = path.join(gates(env), h);
    renameSync(gate, `${gate}.3.0a1b2c3d.taken.tmp`); // a takeover has it aside
    await removeGate(env, h, at);
    expect(readdirSync(gates(env))).toEqual([]);
    // a takeover whose aside goes between its look and its put-back: exit 5, nothing put back
    expect(await takeGate(env, claim(h, 'other', 2))).toBeNull();
    const realLink = fsPromises.link.bind(fsPromises);
    const link = vi.spyOn(fsPromises, 'link').mockImplementation(async (from, to) => {
      await fsPromises.rm(from);
      return realLink(from, to);
    });
    const e = await takeOverGate(env, claim(h, 'mine', 4), 'unused1')
      .catch((x: unknown) => x)
      .finally(() => link.mockRestore());
    expect(e).toMatchObject({ code: 'AUTH_LOCK_LOST', exitCode: 5 });
    expect(readdirSync(gates(env))).toEqual([]);
  });

  it('a claim this process gave back, held aside past the give-back’s look, does not stand against its next try', async () => {
    const env = home();
    const h = tokenHash('rt-own-aside');
    expect(await claimRefreshToken(env, 'rt-own-aside', 'default', AT)).toBeNull();
    const gate = path.join(gates(env), h);
    // takeovers move it to another name just after each of the give-back's listings: it finds it nowhere
    const realReaddir = fsPromises.readdir.bind(fsPromises);
    let at = gate;
    const readdir = vi.spyOn(fsPromises, 'readdir').mockImplementation((async (dir: string) => {
      const names = await realReaddir(dir);
      if (String(dir) === gates(env)) {
        const next = `${gate}.3.${names.length}${Math.random().toString(16).slice(2, 8)}.taken.tmp`;
        renameSync(at, next);
        at = next;
      }
      return names;
    }) as unknown as typeof fsPromises.readdir);
    await releaseClaim(env, 'rt-own-aside', AT).finally(() => readdir.mockRestore());
    expect(statQuiet(at)?.isFile()).toBe(true);
    expect(await takeOverGate(env, claim(h, 'next', process.pid), 'unused1')).toBeNull();
  });

  it('a claim of a process that ended, with this process’s pid (a container’s pid 1), stands (round 56 R1)', async () => {
    const env = home();
    const h = tokenHash('rt-same-pid');
    expect(await takeGate(env, claim(h, 'before-restart', process.pid))).toBeNull();
    const gate = path.join(gates(env), h);
    renameSync(gate, `${gate}.3.0a1b2c3d.taken.tmp`);
    expect(await takeOverGate(env, claim(h, 'now', process.pid), 'unused1')).toMatchObject({ c: 'before-restart' });
  });

  it('the second’s wait is kept by the monotonic clock: a step of the wall clock back does not hold it (round 56 R2)', async () => {
    const env = home();
    const h = tokenHash('rt-clock');
    const realNow = Date.now.bind(Date);
    let calls = 0; // the clock steps back an hour after the wait began
    const now = vi.spyOn(Date, 'now').mockImplementation(() => realNow() - (calls++ > 0 ? 3_600_000 : 0));
    const done = takeOverGate(env, claim(h, 'mine', 4), 'unused1').finally(() => now.mockRestore());
    const settled = await Promise.race([done.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 4_000))]);
    now.mockRestore();
    expect(settled).toBe(true);
  });

  it('damaged, held aside: told by its own name, which is there to look at', async () => {
    const env = home();
    const h = tokenHash('rt-torn-aside');
    mkdirSync(gates(env), { recursive: true });
    const aside = path.join(gates(env), `${h}.${await deadPid()}.0a1b2c3d.taken.tmp`);
    writeFileSync(aside, '');
    const e = await takeOverGate(env, claim(h, 'mine', 4), 'unused1').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_SPENT_LIST_DAMAGED' });
    expect((e as Error).message).toContain(aside);
  });

  it('the prune’s marker: a link there is replaced by the marker itself; a scratch file of a live process goes after a day', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const elsewhere = path.join(env.METERDATA_HOME!, 'elsewhere.txt');
    writeFileSync(elsewhere, 'keep me');
    symlinkSync(elsewhere, `${gates(env)}.pruned`);
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => live.once('spawn', resolve));
      const theirs = path.join(gates(env), `${tokenHash('rt-day')}.${live.pid}.0a1b2c3d.taken.tmp`);
      writeFileSync(theirs, '{}');
      await pruneGates(env, 400 * 86_400_000, Date.now() + 2 * 86_400_000);
      expect(readdirSync(gates(env))).toEqual([]);
    } finally {
      live.kill('SIGKILL');
    }
    expect(lstatSync(`${gates(env)}.pruned`).isFile()).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me');
  });
});
