// A claim turned away unused, taken over (src/auth/claim-gate.ts takeOverGate), and a claim given back (removeGate),
// session 26: the gate never leaves its name; the one process that makes the claim's change marker writes over it or
// removes it. Rounds 52 to 56 found eleven gaps while a takeover moved the gate aside to check it: a third claim made
// in the gap (L2, N2), a gate put back as empty (P1) or not at all (P3), given back while aside (Q1), a claim of this
// process or of one with its pid held aside (Q2, R1), a wait held by the wall clock (R2), and more.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, promises as fsPromises, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { claimRefreshToken, releaseClaim, tokenHash } from '../../src/auth/spent-tokens.js';
import { markerFile, pruneGates, readGate, removeGate, takeGate, takeOverGate } from '../../src/auth/claim-gate.js';
import { unrefreshable } from '../../src/auth/refresh-refusals.js';

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-gate-takeover-')) }) as NodeJS.ProcessEnv;
const gates = (env: NodeJS.ProcessEnv) => path.join(env.METERDATA_HOME!, 'state', 'refresh-claims');
const AT = '2026-11-29T10:00:00.000Z';
/** A claim of the profile `default`, made at `at` by process `pid`. */
const claim = (h: string, c: string, pid: number, at = AT) => ({ h, at, profile: 'default', c, pid, host: os.hostname() });
const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
const hourOn = () => Date.now() + 2 * 3_600_000;
async function deadPid(): Promise<number> {
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => dead.on('exit', resolve));
  return dead.pid!;
}

describe('a takeover of a claim turned away unused', () => {
  it('never leaves the gate’s name empty: after each step of it, a claim of the token finds a claim there', async () => {
    const env = home();
    const h = tokenHash('rt-never-empty');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const gate = path.join(gates(env), h);
    const seen: boolean[] = [];
    const spies = (['rename', 'link', 'rm', 'unlink'] as const).map((op) => {
      const real = (fsPromises[op] as (...a: unknown[]) => Promise<unknown>).bind(fsPromises);
      return vi.spyOn(fsPromises, op).mockImplementation((async (...args: unknown[]) => {
        const done = await real(...args);
        seen.push(statSync(gate, { throwIfNoEntry: false }) !== undefined);
        return done;
      }) as never);
    });
    try {
      expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
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

describe('a takeover while another change of the same claim is under way (its change marker there)', () => {
  it('another takeover, stalled or killed before its write: that one’s claim stands, and the marker stays until its gate changes', async () => {
    const env = home();
    const h = tokenHash('rt-stalled-taker');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    const taker = claim(h, 'stalled', await deadPid());
    writeFileSync(markerFile(env, h, 'unused1'), JSON.stringify({ of: 'unused1', claim: taker }));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toMatchObject({ c: 'stalled', pid: taker.pid });
    expect(readGate(env, h)).toMatchObject({ c: 'unused1' });
    // an hour on the prune leaves it: its process may be stalled, about to write (the safe side: sign in again)
    await pruneGates(env, 400 * 86_400_000, hourOn());
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toMatchObject({ c: 'stalled' });
    // once the gate holds another claim (the user signed in, the old claim aged out), the marker goes an hour on
    writeFileSync(path.join(gates(env), h), JSON.stringify(claim(h, 'later', 5)));
    utimesSync(`${gates(env)}.pruned`, new Date(0), new Date(0));
    await pruneGates(env, 400 * 86_400_000, hourOn());
    expect(readdirSync(gates(env))).toEqual([h]);
  });

  it('status says what the refresh finds: a takeover killed before its write is a claim that stands (exit 3), not a refresh that will work', async () => {
    const env = home();
    expect(await claimRefreshToken(env, 'rt-status', 'default', AT)).toBeNull();
    const h = tokenHash('rt-status');
    const unused = readGate(env, h)!.c!;
    const rec = { v: 1 as const, access_token: 'a', refresh_token: 'rt-status', token_type: 'Bearer' as const, updated_at: AT, refresh_claim_unused: unused };
    expect(unrefreshable(env, rec, 'default', 'meterdata login')).toBeNull();
    writeFileSync(markerFile(env, h, unused), JSON.stringify({ of: unused, claim: claim(h, 'killed', await deadPid()) }));
    expect(unrefreshable(env, rec, 'default', 'meterdata login')?.code).toBe('AUTH_REFRESH_SPENT');
    expect(await claimRefreshToken(env, 'rt-status', 'default', AT, { takeOver: unused })).toMatchObject({ c: 'killed' });
  });

  it('a give-back: the claim given back stands while under way; once done, the takeover claims as any', async () => {
    const env = home();
    const h = tokenHash('rt-giving-back');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    writeFileSync(markerFile(env, h, 'unused1'), JSON.stringify({ of: 'unused1' }));
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toMatchObject({ c: 'unused1' });
    await fsPromises.rm(path.join(gates(env), h)); // the give-back removes the gate, its marker not yet
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
    expect(readGate(env, h)).toMatchObject({ c: 'mine' });
  });

  it('a torn marker (killed while writing it, before any change) is pruned an hour on; a readable one is not', async () => {
    const env = home();
    const h = tokenHash('rt-torn-marker');
    expect(await takeGate(env, claim(h, 'unused1', 2))).toBeNull();
    writeFileSync(markerFile(env, h, 'unused1'), '{"of": "unu');
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toMatchObject({ c: 'unused1' });
    await pruneGates(env, 400 * 86_400_000, hourOn());
    expect(await takeOverGate(env, claim(h, 'mine', 3), 'unused1')).toBeNull();
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

  it('while a takeover of it is under way (its marker there): the gate stays with the takeover', async () => {
    const env = home();
    const h = tokenHash('rt-give-during-takeover');
    expect(await takeGate(env, claim(h, 'given', 2))).toBeNull();
    writeFileSync(markerFile(env, h, 'given'), JSON.stringify({ of: 'given', claim: claim(h, 'taker', 3) }));
    await removeGate(env, h, 'given', AT);
    expect(readGate(env, h)).toMatchObject({ c: 'given' });
    await fsPromises.rm(markerFile(env, h, 'given'));
    await removeGate(env, h, 'given', AT);
    expect(readdirSync(gates(env))).toEqual([]);
  });
});
