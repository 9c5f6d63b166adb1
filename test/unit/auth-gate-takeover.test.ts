// A claim turned away unused, taken over (src/auth/claim-gate.ts takeOverGate), and a claim given back (removeGate),
// session 26: the gate never leaves its name; only the process holding the claim's change marker (change-marker.ts)
// writes over it or removes it. Rounds 52 to 56 found eleven gaps while a takeover moved the gate aside to check it.
// Round 57 found that a marker left by a killed or stalled change, a torn one, or one whose link's reply was lost was
// taken for a claim that stands: "sign in again" for a token never sent (S1 to S5); and two tests that missed (S6).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, promises as fsPromises, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../src/core/atomic-file.js';
import { claimRefreshToken, releaseClaim, tokenHash } from '../../src/auth/spent-tokens.js';
import { pruneGates, readGate, removeGate, takeGate, takeOverGate } from '../../src/auth/claim-gate.js';
import { markerFile, PID_SPACE } from '../../src/auth/change-marker.js';
import { unrefreshable } from '../../src/auth/refresh-refusals.js';
import { pidSpace } from '../../src/core/pid.js';

vi.mock('../../src/core/atomic-file.js', async (original) => {
  const real = await original<typeof import('../../src/core/atomic-file.js')>();
  return { ...real, writeFileAtomic: vi.fn(real.writeFileAtomic) };
});

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-gate-takeover-')) }) as NodeJS.ProcessEnv;
const gates = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'state', 'refresh-claims');
const AT = '2026-11-29T10:00:00.000Z';
/** A claim of the profile `default`, made at `at` by process `pid`. */
const claim = (h: string, c: string, pid: number, at = AT) => ({ h, at, profile: 'default', c, pid, host: os.hostname() });
/** A change marker of the claim `of` by process `pid` (a takeover's where it carries `writes`, else a give-back's). */
const marker = (of: string, pid: number, writes?: object, ns = PID_SPACE) =>
  JSON.stringify({ of, by: `by-${pid}`, pid, host: os.hostname(), ns, at: AT, ...(writes ? { claim: writes } : {}) });
const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
const hourOn = () => Date.now() + 2 * 3_600_000;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
async function deadPid(): Promise<number> {
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => dead.on('exit', resolve));
  return dead.pid!;
}
async function livePid(): Promise<number> {
  const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  children.push(live);
  await new Promise((resolve) => live.once('spawn', resolve));
  return live.pid!;
}

describe('a takeover of a claim turned away unused', () => {
  it('never leaves the gate’s name empty: after each step of it, the rename over the gate too, a claim is there', async () => {
    const env = home();
    const h = tokenHash('rt-never-empty');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const gate = path.join(gates(env), h);
    const seen: string[] = [];
    const spies = (['rename', 'link', 'rm', 'unlink'] as const).map((op) => {
      const real = (fsPromises[op] as (...a: unknown[]) => Promise<unknown>).bind(fsPromises);
      return vi.spyOn(fsPromises, op).mockImplementation((async (...args: unknown[]) => {
        const done = await real(...args);
        seen.push(`${op}:${statSync(gate, { throwIfNoEntry: false }) !== undefined}`);
        return done;
      }) as never);
    });
    syncBuiltinESMExports(); // the named imports (core/replace.ts's rename) see the spies too
    try {
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
    } finally {
      for (const spy of spies) spy.mockRestore();
      syncBuiltinESMExports();
    }
    expect(seen).toContain('rename:true'); // the write over the gate was looked at
    expect(seen.every((s) => s.endsWith(':true'))).toBe(true);
    expect(readGate(env, h)).toMatchObject({ c: 'mine' });
    expect(readdirSync(gates(env))).toEqual([h]); // its change marker gone with it
  });

  it('finds another claim there: it stands, and the gate is as it was', async () => {
    const env = home();
    const h = tokenHash('rt-other');
    expect(await takeGate(env, claim(h, 'first', 2))).toBeNull();
    const inode = statSync(path.join(gates(env), h)).ino;
    expect(await takeOverGate(env, claim(h, 'second', 3), 'unused1')).toMatchObject({ c: 'first' });
    expect(statSync(path.join(gates(env), h)).ino).toBe(inode);
    expect(readdirSync(gates(env))).toEqual([h]);
  });

  it('where links are refused (FAT, exFAT, some shares): the takeover passes once, a second finds its claim', async () => {
    const env = home();
    const h = tokenHash('rt-nolink-takeover');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const link = vi.spyOn(fsPromises, 'link').mockRejectedValue(errno('EPERM'));
    try {
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
      expect(await takeOverGate(env, claim(h, 'late', 4), 'unused1')).toMatchObject({ c: 'mine' });
    } finally {
      link.mockRestore();
    }
    expect(readdirSync(gates(env))).toEqual([h]);
  });

  it('its marker linked, the reply lost (EEXIST over NFS): its own marker, the takeover passes (round 57 S5)', async () => {
    const env = home();
    const h = tokenHash('rt-nfs-marker');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const realLink = fsPromises.link.bind(fsPromises);
    const link = vi.spyOn(fsPromises, 'link').mockImplementation(async (from, to) => {
      await realLink(from, to);
      if (String(to).endsWith('.took')) throw errno('EEXIST');
    });
    try {
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
    } finally {
      link.mockRestore();
    }
    expect(readGate(env, h)).toMatchObject({ c: 'mine' });
    expect(readdirSync(gates(env))).toEqual([h]);
  });

  it('a damaged gate is told, naming it, and left as it is; never taken for no claim', async () => {
    const env = home();
    const h = tokenHash('rt-torn-takeover');
    mkdirSync(gates(env), { recursive: true });
    writeFileSync(path.join(gates(env), h), '');
    for (let run = 0; run < 2; run++) {
      const e = await takeOverGate(env, claim(h, `run${run}`, 2), 'unused1').catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'AUTH_SPENT_LIST_DAMAGED' });
      expect((e as Error).message).toContain(`${path.join(gates(env), h)},`);
      expect(readdirSync(gates(env))).toEqual([h]);
    }
  });
});

describe('a takeover while another change of the same claim has its marker (round 57 S2 to S4)', () => {
  it('of a process still running: exit 5, nothing claimed and no claim that stands; status: under way', async () => {
    const env = home();
    expect(await claimRefreshToken(env, 'rt-live-taker', 'default', AT)).toBeNull();
    const h = tokenHash('rt-live-taker');
    const unused = readGate(env, h)!.c!;
    const taker = await livePid();
    writeFileSync(markerFile(env, h, unused), marker(unused, taker, claim(h, 'theirs', taker)));
    const e = await takeOverGate(env, claim(h, 'mine', 3), unused).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT', exitCode: 5 });
    expect((e as Error).message).toContain(`pid ${taker}`);
    expect(readGate(env, h)).toMatchObject({ c: unused });
    const rec = {
      v: 1 as const,
      access_token: 'a',
      refresh_token: 'rt-live-taker',
      token_type: 'Bearer' as const,
      updated_at: AT,
      refresh_claim_unused: unused,
    };
    expect(unrefreshable(env, rec, 'default', 'meterdata login')).toBeNull();
  });

  it('of a process killed before its write (a takeover or a give-back): the next takeover passes, by the next marker', async () => {
    for (const writes of [true, false]) {
      const env = home();
      const h = tokenHash('rt-killed-taker');
      expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
      const dead = await deadPid();
      writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', dead, writes ? claim(h, 'killed', dead) : undefined));
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
      expect(readGate(env, h)).toMatchObject({ c: 'mine' });
      // the killed one's marker stays (never removed while its gate holds its claim); an hour on, the gate changed, it goes
      expect(readdirSync(gates(env))).toHaveLength(2);
      await pruneGates(env, 400 * 86_400_000, Date.now() + 10 * 60_000);
      expect(readdirSync(gates(env))).toHaveLength(2); // not within the hour
      utimesSync(`${gates(env)}.pruned`, new Date(0), new Date(0));
      await pruneGates(env, 400 * 86_400_000, hourOn());
      expect(readdirSync(gates(env))).toEqual([h]);
    }
  });

  it('of a process in another pid space (a container sharing the folder and the hostname), its pid not running here: exit 5 (round 59 U1)', async () => {
    const env = home();
    const h = tokenHash('rt-other-ns');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const elsewhere = await deadPid(); // not running here: it may be running there
    writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', elsewhere, claim(h, 'theirs', elsewhere), 'another boot pid:[1]'));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1').catch((x: unknown) => x)).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT' });
    // with this process's pid there (each container's first process has the same): still theirs
    writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', process.pid, undefined, 'another boot pid:[1]'));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1').catch((x: unknown) => x)).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT' });
    expect(readGate(env, h)).toMatchObject({ c: 'unused1' });
  });

  it('the pid space on Linux without a readable /proc: one of this process’s own, never shared by another (round 60 V1)', () => {
    const throwing = {
      readFileSync: (() => {
        throw errno('EACCES');
      }) as never,
      readlinkSync: (() => {
        throw errno('ENOENT');
      }) as never,
    };
    const a = pidSpace('linux', throwing);
    expect(a).toMatch(/^unknown /);
    expect(pidSpace('linux', throwing)).not.toBe(a);
    // ProcSubset=pid: the boot id hidden, the namespace's link there: the boot minute stands in, the same for every process (round 61 W1)
    const subset = { ...throwing, readlinkSync: (() => 'pid:[4026532999]') as never };
    expect(pidSpace('linux', subset)).toBe('booted - pid:[4026532999]');
    expect(pidSpace('linux', subset)).toBe(pidSpace('linux', subset));
    // and the machine's id, hashed: two machines of one name, booted within seconds, in their init pid namespace (round 62 X5)
    const machine = (id: string) => ({
      ...subset,
      readFileSync: ((f: string) => {
        if (f === '/etc/machine-id') return id;
        throw errno('EACCES');
      }) as never,
    });
    const [machineA, machineB] = [machine('a'.repeat(32)), machine('b'.repeat(32))];
    expect(pidSpace('linux', machineA)).toMatch(/^booted [0-9a-f]{16} pid:\[4026532999\]$/);
    expect(pidSpace('linux', machineA)).not.toContain('a'.repeat(32));
    expect(pidSpace('linux', machineA)).not.toBe(pidSpace('linux', machineB));
    // no pid namespaces there: the machine's name and boot minute, the same for every process
    expect(pidSpace('darwin', throwing)).toBe(pidSpace('darwin', throwing));
  });

  it('of an earlier process with this pid in this pid space (a restarted container’s pid 1): ended, the takeover passes', async () => {
    const env = home();
    const h = tokenHash('rt-own-pid');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', process.pid));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
  });

  it('ended, its gate still holding its claim: the prune keeps it however old (a later generation may be live)', async () => {
    const env = home();
    const h = tokenHash('rt-kept-marker');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', await deadPid()));
    await pruneGates(env, 400 * 86_400_000, Date.now() + 30 * 86_400_000);
    expect(readdirSync(gates(env))).toHaveLength(2);
  });

  it('torn (killed while writing it, links refused), a folder or a link: exit 5, never a claim that stands; pruned an hour on', async () => {
    for (const kind of ['torn', 'folder', 'link'] as const) {
      const env = home();
      const h = tokenHash('rt-torn-marker');
      expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
      const at = markerFile(env, h, 'unused1');
      const elsewhere = path.join(env.METERDATA_HOME!, 'elsewhere.json');
      writeFileSync(elsewhere, marker('unused1', 1, claim(h, 'followed', 1))); // a link is never followed (round 57 S8)
      if (kind === 'torn') writeFileSync(at, '');
      if (kind === 'folder') mkdirSync(path.join(at, 'inside'), { recursive: true });
      if (kind === 'link') symlinkSync(elsewhere, at);
      const e = await takeOverGate(env, claim(h, 'mine', 3), 'unused1').catch((x: unknown) => x);
      expect(e, kind).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT', exitCode: 5 });
      expect((e as Error).message).toContain(at);
      await pruneGates(env, 400 * 86_400_000, hourOn());
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1'), kind).toBeNull();
    }
  });

  it('given back meanwhile (its gate gone, its marker not yet): the takeover claims as any', async () => {
    const env = home();
    const h = tokenHash('rt-given-meanwhile');
    mkdirSync(gates(env), { recursive: true });
    writeFileSync(markerFile(env, h, 'unused1'), marker('unused1', await livePid()));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
    expect(readGate(env, h)).toMatchObject({ c: 'mine' });
  });
});

describe('a claim given back', () => {
  it('is removed by its id, not its time: a claim of another process made in the same millisecond stays (round 56 R4)', async () => {
    const env = home();
    const h = tokenHash('rt-same-ms');
    expect(await claimRefreshToken(env, 'rt-same-ms', 'default', AT)).toBeNull();
    // a copy of this record in another process took the claim over meanwhile, with the same intent time
    writeFileSync(path.join(gates(env), h), JSON.stringify(claim(h, 'theirs', 9, AT)));
    await releaseClaim(env, 'rt-same-ms', AT);
    expect(readGate(env, h)).toMatchObject({ c: 'theirs' });
  });

  it('while a live takeover of it has its marker: the gate stays with the takeover', async () => {
    const env = home();
    const h = tokenHash('rt-give-during-takeover');
    expect(await takeGate(env, claim(h, 'given', 2))).toBeNull();
    const taker = await livePid();
    writeFileSync(markerFile(env, h, 'given'), marker('given', taker, claim(h, 'taker', taker)));
    await removeGate(env, h, 'given', AT);
    expect(readGate(env, h)).toMatchObject({ c: 'given' });
  });

  it('reads the gate again under its marker: a takeover that wrote over it just before keeps its claim (round 57 S6)', async () => {
    const env = home();
    const h = tokenHash('rt-reread');
    expect(await takeGate(env, claim(h, 'given', 2))).toBeNull();
    const realLink = fsPromises.link.bind(fsPromises);
    // between the give-back's first look and its marker, a takeover writes its claim over the gate and ends
    const link = vi.spyOn(fsPromises, 'link').mockImplementation(async (from, to) => {
      if (String(to).endsWith('.took')) writeFileSync(path.join(gates(env), h), JSON.stringify(claim(h, 'taker', 3)));
      return realLink(from, to);
    });
    await removeGate(env, h, 'given', AT).finally(() => link.mockRestore());
    expect(readGate(env, h)).toMatchObject({ c: 'taker' });
    expect(readdirSync(gates(env))).toEqual([h]);
  });

  it('its note not made on a full disk that refuses a marker too: the gate goes with it, no marker needed (round 57 S1)', async () => {
    const env = home();
    const full = errno('ENOSPC');
    vi.mocked(writeFileAtomic).mockRejectedValueOnce(full); // the list's write
    const realLink = fsPromises.link.bind(fsPromises);
    const spy = vi.spyOn(fsPromises, 'link').mockImplementation(async (from, to) => {
      if (String(to).endsWith('.took')) throw full;
      return realLink(from, to);
    });
    const e = await claimRefreshToken(env, 'rt-full-note', 'default', AT)
      .catch((x: unknown) => x)
      .finally(() => spy.mockRestore());
    expect(e).toMatchObject({ code: 'AUTH_STORE_WRITE_FAILED', exitCode: 5 });
    expect(readdirSync(gates(env))).toEqual([]);
    expect(await claimRefreshToken(env, 'rt-full-note', 'default', AT)).toBeNull();
  });
});
