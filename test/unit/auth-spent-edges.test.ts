// The edges of the list of refresh tokens already sent (src/auth/spent-tokens.ts):
// - what `status` says of a record with a refresh intent: the next refresh refuses one left by a
//   process that died (exit 3), so status must not call it working; a live refresh's intent is no finding;
// - giving a claim back after the list's lock was taken over while this process stalled: the
//   write would drop the claim the new holder added, so the list is read again under a new lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, promises as fsPromises, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoredRecord } from '../../src/auth/credential-store/index.js';
import type { RefreshLock } from '../../src/auth/lock.js';
import { between429, tryAgainAfter, type RecordPlace } from '../../src/auth/refresh-outcome.js';
import {
  claimRefreshToken,
  readSpent,
  RefreshTokenSpentError,
  releaseClaim,
  sendOnce,
  settledAfter,
  spentFile,
  tokenHash,
} from '../../src/auth/spent-tokens.js';
import { readGate, takeGate, takeOverGate } from '../../src/auth/claim-gate.js';
import { markedError, unrefreshable } from '../../src/auth/refresh-refusals.js';

/** Called with each lock the list's holder gets; false makes `stillHeld` say the lock was taken over. */
const lockHook = vi.hoisted(() => ({ beforeCheck: undefined as undefined | (() => Promise<boolean>) }));

// the real lock, whose `stillHeld` a test can answer (a stall past the stale limit cannot be staged in one process)
vi.mock('../../src/auth/lock.js', async (real) => {
  const mod = await real<typeof import('../../src/auth/lock.js')>();
  const withLockAt: typeof mod.withLockAt = (env, file, fn, signal) =>
    mod.withLockAt(
      env,
      file,
      (lock) => fn({ stillHeld: () => (lockHook.beforeCheck ? lockHook.beforeCheck() : lock.stillHeld()) } satisfies RefreshLock),
      signal,
    );
  return { ...mod, withLockAt };
});

/** The list as a late write leaves it: without the entry of `token`. */
const dropFromListOf = (env: NodeJS.ProcessEnv, token: string) =>
  writeFileSync(spentFile(env), JSON.stringify({ v: 1, spent: readSpent(env).filter((x) => x.h !== tokenHash(token)) }));

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-spent-edges-')) }) as NodeJS.ProcessEnv;
const AT = '2026-11-27T10:00:00.000Z';
const relogin = 'Run `meterdata login`.';
const children: ChildProcess[] = [];

afterEach(() => {
  lockHook.beforeCheck = undefined;
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function record(intentPid: number): StoredRecord {
  return {
    v: 1,
    access_token: 'a',
    refresh_token: 'rt-intent',
    token_type: 'Bearer',
    updated_at: AT,
    access_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    refresh_intent: { at: new Date().toISOString(), pid: intentPid, host: os.hostname() },
  };
}

async function deadPid(): Promise<number> {
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => dead.on('exit', resolve));
  return dead.pid!;
}

function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  children.push(child);
  return child.pid!;
}

describe('status on a record with a refresh intent', () => {
  it('left by a process that ended: not refreshable, AUTH_REFRESH_UNCERTAIN exit 3 with the sign-in hint, as the next refresh says', async () => {
    const env = home();
    const e = unrefreshable(env, record(await deadPid()), 'default', relogin);
    expect(e?.code).toBe('AUTH_REFRESH_UNCERTAIN');
    expect(e?.exitCode).toBe(3);
    expect(e?.message).toMatch(/sent by a process that ended before saving its answer/);
    expect(e?.hint).toBe(relogin);
  });

  it('of a process still running: a refresh under way, no finding, even with its own claim in the list', async () => {
    const env = home();
    const rec = record(livePid());
    await claimRefreshToken(env, rec.refresh_token, 'default', rec.refresh_intent!.at);
    expect(unrefreshable(env, rec, 'default', relogin)).toBeNull();
  });
});

describe('giving a claim back', () => {
  it('taken over between reading and writing: the claim the new holder added stays, ours goes', async () => {
    const env = home();
    await claimRefreshToken(env, 'rt-ours', 'default', AT);
    let checks = 0;
    lockHook.beforeCheck = async () => {
      if (++checks > 1) return true;
      // this process stalled: another took the lock over as stale and wrote its claim meanwhile
      const theirs = { h: tokenHash('rt-theirs'), at: AT, profile: 'beta' };
      writeFileSync(spentFile(env), JSON.stringify({ v: 1, spent: [...readSpent(env), theirs] }));
      return false;
    };
    await releaseClaim(env, 'rt-ours', AT);
    expect(readSpent(env).map((e) => e.h)).toEqual([tokenHash('rt-theirs')]);
    expect(checks).toBe(2);
  });

  it('taken over at every try: nothing is written, the claim stays (the token is never sent again) and the error says the lock was lost', async () => {
    const env = home();
    await claimRefreshToken(env, 'rt-ours', 'default', AT);
    lockHook.beforeCheck = async () => false;
    await expect(releaseClaim(env, 'rt-ours', AT)).rejects.toMatchObject({ code: 'AUTH_LOCK_LOST' });
    expect(readSpent(env).map((e) => e.h)).toEqual([tokenHash('rt-ours')]);
  });
});

// Round 48 F1, round 49 N2 and N4: the claim rested on the list's lock. A process whose lock was taken over while it
// wrote the list (a stall, a slow disk, the lock's folder removed; on a file system without birth times even a young
// lock) wrote a list without a claim made meanwhile: of the same token (sent twice), or of another profile's (whose
// restored backup then sent a spent token). Each claim also makes one file per token with an exclusive create.
describe('the gate of a claimed token', () => {
  it('a claim the list lost (a late write) still stands: the same token is not claimed twice, by any profile', async () => {
    const env = home();
    expect(await claimRefreshToken(env, 'rt-gated', 'beta', AT)).toBeNull();
    dropFromListOf(env, 'rt-gated');
    let sent = false;
    const e = await sendOnce(env, 'rt-gated', 'default', AT, relogin, async () => void (sent = true)).catch((x: unknown) => x);
    expect(sent).toBe(false);
    expect(e).toMatchObject({ code: 'AUTH_REFRESH_SPENT' });
    expect((e as Error).message).toContain('by the profile "beta"');
    // status and a restored backup of the other profile see it too (round 49 N4)
    const rec = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-gated' };
    expect(unrefreshable(env, rec, 'default', relogin)?.code).toBe('AUTH_REFRESH_SPENT');
  });

  it('given back with its claim (the token never used): the next claim takes it', async () => {
    const env = home();
    expect(await claimRefreshToken(env, 'rt-back', 'default', AT)).toBeNull();
    await releaseClaim(env, 'rt-back', AT);
    expect(readdirSync(path.join(env.METERDATA_HOME!, 'state', 'refresh-claims'))).toEqual([]);
    expect(await claimRefreshToken(env, 'rt-back', 'default', AT)).toBeNull();
  });

  it('damaged (a process killed between making and writing it): told, naming it; never taken for no claim', async () => {
    const env = home();
    const gates = path.join(env.METERDATA_HOME!, 'state', 'refresh-claims');
    mkdirSync(gates, { recursive: true });
    writeFileSync(path.join(gates, tokenHash('rt-torn')), '');
    const e = await sendOnce(env, 'rt-torn', 'default', AT, relogin, async () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_SPENT_LIST_DAMAGED', exitCode: 5 });
    expect((e as Error).message).toContain(path.join(gates, tokenHash('rt-torn')));
  });
});

// Round 47 M1′, L-a: the token is claimed before the intent is written. A claim of this profile's by another process on
// this machine that still runs, made a short while ago, is a refresh on its way: not a token sent before (which said
// "sign in again" to processes whose connection was fine), and not sent again either.
describe('a claim of this profile by another process still running, its intent not written yet', () => {
  /** The list's entry for `token` made to be the claim of `pid`, `agoMs` ago. */
  async function claimedBy(env: NodeJS.ProcessEnv, token: string, pid: number, agoMs = 0) {
    const at = new Date(Date.now() - agoMs).toISOString();
    await claimRefreshToken(env, token, 'default', at);
    const spent = readSpent(env).map((e) => (e.h === tokenHash(token) ? { ...e, pid } : e));
    writeFileSync(spentFile(env), JSON.stringify({ v: 1, spent }));
  }
  const unsent = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-claimed' };

  it('status: under way, no finding; a refresh: exit 5 naming the process, nothing sent', async () => {
    const env = home();
    const pid = livePid();
    await claimedBy(env, 'rt-claimed', pid);
    expect(unrefreshable(env, unsent, 'default', relogin)).toBeNull();
    let sent = false;
    const e = await sendOnce(env, 'rt-claimed', 'default', AT, relogin, async () => void (sent = true)).catch((x: unknown) => x);
    expect(sent).toBe(false);
    expect(e).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT', exitCode: 5 });
    expect((e as Error).message).toContain(`(pid ${pid}) started a refresh`);
  });

  it('of another profile, of a process that ended, or from long ago: a token sent before (exit 3)', async () => {
    const other = home();
    await claimedBy(other, 'rt-claimed', livePid());
    expect(unrefreshable(other, unsent, 'beta', relogin)?.code).toBe('AUTH_REFRESH_SPENT');
    const ended = home();
    await claimedBy(ended, 'rt-claimed', await deadPid());
    expect(unrefreshable(ended, unsent, 'default', relogin)?.code).toBe('AUTH_REFRESH_SPENT');
    const old = home();
    await claimedBy(old, 'rt-claimed', livePid(), 11 * 60_000);
    const e = await sendOnce(old, 'rt-claimed', 'default', AT, relogin, async () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_REFRESH_SPENT', exitCode: 3 });
  });
});

// Round 27 (F9): a claim whose token was never used (the send failed before the request left) but which could not be
// given back (the list's lock held by a stuck process; a file there is refused at once) stood in the list with no
// intent in the record, and the next run refused the token. The record names the claim now; only that claim is
// taken over, by this profile.
describe('a claim that could not be given back', () => {
  const unsent = new Error('connect ECONNREFUSED');
  async function keptClaim(env: NodeJS.ProcessEnv) {
    const rec = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-kept' };
    const e = await sendOnce(env, 'rt-kept', 'default', AT, relogin, async () => {
      writeFileSync(`${spentFile(env)}.lock`, 'stuck');
      throw unsent;
    }).catch((x: unknown) => x);
    expect(e).toBe(unsent);
    rmSync(`${spentFile(env)}.lock`);
    return { rec, settled: settledAfter(e, rec) };
  }

  it('is named by the settled record; status and the next claim of this profile take it for unused, not sent', async () => {
    const env = home();
    const { rec, settled } = await keptClaim(env);
    const entry = readSpent(env).find((e) => e.h === tokenHash('rt-kept'))!;
    expect(settled).toEqual({ ...rec, refresh_claim_unused: entry.c });
    expect(unrefreshable(env, rec, 'default', relogin)?.code).toBe('AUTH_REFRESH_SPENT');
    expect(unrefreshable(env, settled, 'default', relogin)).toBeNull();
    expect(await claimRefreshToken(env, 'rt-kept', 'default', AT, { takeOver: settled.refresh_claim_unused })).toBeNull();
    expect(readSpent(env).filter((e) => e.h === tokenHash('rt-kept'))).toHaveLength(1);
  });

  it('is not taken over by another profile holding a copy, nor by a claim id that is not its own', async () => {
    const env = home();
    const { settled } = await keptClaim(env);
    expect(await claimRefreshToken(env, 'rt-kept', 'beta', AT, { takeOver: settled.refresh_claim_unused })).toMatchObject({ profile: 'default' });
    expect(await claimRefreshToken(env, 'rt-kept', 'default', AT, { takeOver: 'ffffffffffffffff' })).toMatchObject({ profile: 'default' });
    expect(unrefreshable(env, settled, 'beta', relogin)?.code).toBe('AUTH_REFRESH_SPENT');
  });

  // Round 31 F4: the 429's wait could not give the claim back (a minute on a held lock), and the send's failure then
  // tried once more: another minute before the exit. Here the lock goes away between the two: a second try would
  // take the claim out of the list.
  it("given back in vain during a 429's wait, is not tried again when the refresh then fails", async () => {
    const env = home();
    const before = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-429' };
    const intended = { ...before, refresh_intent: { at: AT, pid: process.pid, host: os.hostname() } };
    const persisted: StoredRecord[] = [];
    const place = { env, profile: 'default', store: undefined as never } satisfies RecordPlace;
    const between = between429(place, intended, { stillHeld: async () => true }, relogin, async (r) => void persisted.push(r), before);
    const e = await sendOnce(
      env,
      'rt-429',
      'default',
      AT,
      relogin,
      async () => {
        writeFileSync(`${spentFile(env)}.lock`, 'stuck');
        await between.refused().finally(() => rmSync(`${spentFile(env)}.lock`));
      },
      between.claim,
    ).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_LOCK_TIMEOUT' });
    const entry = readSpent(env).find((x) => x.h === tokenHash('rt-429'));
    expect(entry?.c).toBe(between.claim.id);
    expect(persisted).toEqual([{ ...before, refresh_claim_unused: entry?.c }]);
    expect(settledAfter(e, before)).toEqual({ ...before, refresh_claim_unused: entry?.c });
  });

  // Round 32 F2: the claim given back for the wait could not be taken again (the list's lock held): the send's
  // failure handler then waited for the lock once more to give back a claim that was not there (about 2 minutes in
  // all), and the record named that claim as kept.
  it("taken again in vain after a 429's wait: nothing to give back, so no second wait, and no claim named", async () => {
    const env = home();
    const before = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-again' };
    const intended = { ...before, refresh_intent: { at: AT, pid: process.pid, host: os.hostname() } };
    const place = { env, profile: 'default', store: undefined as never } satisfies RecordPlace;
    const between = between429(place, intended, { stillHeld: async () => true }, relogin, async () => undefined, before);
    const e = await sendOnce(
      env,
      'rt-again',
      'default',
      AT,
      relogin,
      async () => {
        await between.refused();
        writeFileSync(`${spentFile(env)}.lock`, 'stuck');
        await between.resend();
      },
      between.claim,
    ).catch((x: unknown) => x);
    rmSync(`${spentFile(env)}.lock`);
    expect(e).toMatchObject({ code: 'AUTH_LOCK_TIMEOUT' });
    expect(readSpent(env).filter((x) => x.h === tokenHash('rt-again'))).toEqual([]);
    expect(settledAfter(e, before)).toEqual(before);
  });
});

// Round 48 F5: a hand-edited pid of 0 or below stood for a process group that runs (kill(0) and kill(-n) ask about
// one): a refresh on its way, every run exit 5. Only a pid from 1 can be a refresh on its way.
describe('a claim naming no process that can be', () => {
  it.each([0, -1, 1.5])('pid %s: not a refresh on its way, a token sent before', async (pid) => {
    const env = home();
    await claimRefreshToken(env, 'rt-odd', 'default', new Date().toISOString());
    const spent = readSpent(env).map((x) => ({ ...x, pid }));
    writeFileSync(spentFile(env), JSON.stringify({ v: 1, spent }));
    const e = await sendOnce(env, 'rt-odd', 'default', AT, relogin, async () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'AUTH_REFRESH_SPENT' });
  });
});

// Round 48 F6: a record marked because its token was found taken by this profile (a run killed between its claim and
// its intent) was told on later runs as an answer that was lost, though nothing had been sent.
describe('a record marked for a token this profile took before', () => {
  it('is told as taken before, not as a lost answer; a lost answer’s mark still is', async () => {
    const env = home();
    const at = new Date(Date.now() - 60_000).toISOString();
    await claimRefreshToken(env, 'rt-taken', 'default', at);
    const rec = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-taken' };
    const taken = markedError(env, { ...rec, refresh_uncertain_since: at }, 'default', relogin);
    expect(taken.code).toBe('AUTH_REFRESH_SPENT');
    expect(taken.message).toMatch(/already taken for a refresh at .* by this profile itself/);
    const lost = markedError(env, { ...rec, refresh_uncertain_since: new Date().toISOString() }, 'default', relogin);
    expect(lost.code).toBe('AUTH_REFRESH_UNCERTAIN');
  });
});

// Round 48 F3: a run that lost the claim to a refresh of this profile that has since saved its tokens and ended was
// told to sign in again; it tries once more and uses them. A token taken before with the record unchanged is refused.
describe('whether a refresh that found its token taken tries once more', () => {
  const mine = new RefreshTokenSpentError({ h: tokenHash('rt-x'), at: AT, profile: 'default' }, 'default', relogin);
  const rec = { ...record(1), refresh_intent: undefined, refresh_token: 'rt-x' };
  const placeHolding = (now: StoredRecord | null): RecordPlace => ({ env: home(), profile: 'default', store: { read: async () => now } as never });

  it('taken by this profile, the record changed since: once more (the tokens saved are used)', async () => {
    expect(await tryAgainAfter(mine, false, placeHolding({ ...rec, refresh_token: 'rt-new' }), rec)).toBe('lock-lost');
  });

  it('the record as it was, the last try, or another profile’s: no (exit 3 as before)', async () => {
    expect(await tryAgainAfter(mine, false, placeHolding(rec), rec)).toBeNull();
    expect(await tryAgainAfter(mine, true, placeHolding({ ...rec, refresh_token: 'rt-new' }), rec)).toBeNull();
    const theirs = new RefreshTokenSpentError({ h: tokenHash('rt-x'), at: AT, profile: 'beta' }, 'default', relogin);
    expect(await tryAgainAfter(theirs, false, placeHolding({ ...rec, refresh_token: 'rt-new' }), rec)).toBeNull();
  });
});

// Round 51 G1: a claim turned away unused was taken over by replacing its gate in place; two takeovers beside a broken
// list lock both passed, and the token was sent twice. Only the process that makes the claim's change marker writes
// over it (session 26; rounds 51 to 56 moved it aside by a rename).
describe('taking over a claim turned away unused, twice at one moment', () => {
  it('exactly one takeover passes; the other finds the winner’s claim, or its change under way (exit 5)', async () => {
    const env = home();
    const h = tokenHash('rt-unused');
    const claim = (c: string, pid: number) => ({ h, at: AT, profile: 'default', c, pid, host: os.hostname() });
    expect(await takeGate(env, claim('unused1', 1))).toBeNull();
    for (let round = 0; round < 20; round++) {
      // in one process: each must see the other's marker as live (round 61's CI-found race: its own pid taken for an ended process's)
      const results = await Promise.allSettled([takeOverGate(env, claim(`a${round}`, 2), 'unused1'), takeOverGate(env, claim(`b${round}`, 3), 'unused1')]);
      expect(results.filter((r) => r.status === 'fulfilled' && r.value === null)).toHaveLength(1);
      const winner = readGate(env, h)!;
      const other = results.find((r) => !(r.status === 'fulfilled' && r.value === null))!;
      if (other.status === 'fulfilled') expect(other.value).toMatchObject({ c: winner.c });
      else expect(other.reason).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT', exitCode: 5 });
      // the next round starts from an unused claim again
      rmSync(path.join(env.METERDATA_HOME!, 'state', 'refresh-claims', h));
      expect(await takeGate(env, claim('unused1', 1))).toBeNull();
    }
  });
});

// Round 51 G3: a file where the gates' folder goes was told as a damaged gate with the advice for a killed process.
describe('a file where the gates’ folder goes', () => {
  it('is named as what it is, with the hint to move it', async () => {
    const env = home();
    mkdirSync(path.join(env.METERDATA_HOME!, 'state'), { recursive: true });
    writeFileSync(path.join(env.METERDATA_HOME!, 'state', 'refresh-claims'), 'not a folder');
    const e = await sendOnce(env, 'rt-blocked', 'default', AT, relogin, async () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ exitCode: 5 });
    expect((e as { hint: string }).hint).not.toMatch(/killed/);
  });
});

// A file system without hard links (FAT, exFAT, some shares): the gate, linked to its name elsewhere, is made by the
// exclusive create itself there; before, every refresh failed with the link's refusal.
describe('the gate on a file system without hard links', () => {
  it('is made by an exclusive create: the claim passes once, a second claim of the token finds it', async () => {
    const env = home();
    const link = vi.spyOn(fsPromises, 'link').mockRejectedValue(Object.assign(new Error('operation not permitted'), { code: 'EPERM' }));
    try {
      expect(await claimRefreshToken(env, 'rt-fat', 'default', AT)).toBeNull();
      expect(link).toHaveBeenCalled();
      dropFromListOf(env, 'rt-fat');
      expect(await claimRefreshToken(env, 'rt-fat', 'beta', AT)).toMatchObject({ profile: 'default' });
    } finally {
      link.mockRestore();
    }
  });
});
