// The claim's gate (src/auth/claim-gate.ts) at its edges:
// - round 52 L4: a link made whose reply was lost (told as EEXIST, as over NFS) had the run refuse its own gate;
// - round 52 L5: a gate that could not be made was told as the list of tokens sent not written, with advice to free
//   disk space whatever the cause;
// - session 26: a takeover writes over the gate under the claim's change marker; it never moves it aside (rounds 52 to
//   56 found eleven gaps in the asides: a gate missing meanwhile, put back, given back while aside).
import { execFileSync, spawn } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  promises as fsPromises,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { claimRefreshToken, tokenHash } from '../../src/auth/spent-tokens.js';
import { pruneGates, readGate, takeOverGate } from '../../src/auth/claim-gate.js';

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-gate-edges-')) }) as NodeJS.ProcessEnv;
const gates = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'state', 'refresh-claims');
const AT = '2026-11-29T10:00:00.000Z';
const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });

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

describe('a takeover that finds no gate (a claim older than the gates, or given back)', () => {
  it('makes its own', async () => {
    const env = home();
    const h = tokenHash('rt-list-only');
    expect(await takeOverGate(env, { h, at: AT, profile: 'default', c: 'new', pid: 2, host: os.hostname() }, 'unused1')).toBeNull();
    expect(readGate(env, h)).toMatchObject({ c: 'new' });
    expect(readdirSync(gates(env))).toEqual([h]);
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

describe('round 53: scratch files and texts', () => {
  it('a scratch file of another process still running is not pruned within the day; one named with this pid is (round 54 P5)', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => live.once('spawn', resolve));
      const theirs = path.join(gates(env), `${tokenHash('rt-live')}.${live.pid}.0a1b2c3d.tmp`);
      const ours = path.join(gates(env), `${tokenHash('rt-live')}.${process.pid}.0a1b2c3e.tmp`);
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

// Round 55 Q7: a link or FIFO in place of the prune's marker made every claim prune; scratch files of a live pid stayed.
describe('the prune’s marker and scratch files of a live process', () => {
  it('a link there is replaced by the marker itself; a scratch file of a live process goes after a day', async () => {
    const env = home();
    mkdirSync(gates(env), { recursive: true });
    const elsewhere = path.join(env.METERDATA_HOME!, 'elsewhere.txt');
    writeFileSync(elsewhere, 'keep me');
    symlinkSync(elsewhere, `${gates(env)}.pruned`);
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => live.once('spawn', resolve));
      const theirs = path.join(gates(env), `${tokenHash('rt-day')}.${live.pid}.0a1b2c3d.tmp`);
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
