// The hint to a process that waited too long for the refresh lock: its holder may be alive and waiting out the
// sign-in server's 429s (up to 30 s, three times), so removing the lock is advised only when no other meterdata
// process runs (round 26: "if it persists, remove …" invited breaking a live refresh's lock).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPathFor, withRefreshLock } from '../../src/auth/lock.js';
import { tokenTexts } from '../../src/auth/texts-tokens.js';
import { keptAnswerLost } from '../../src/auth/token-exchange.js';
import type { Profile } from '../../src/core/config.js';
import { setLanguage } from '../../src/i18n/index.js';

afterEach(() => setLanguage('en'));

describe('the refresh lock held too long', () => {
  it('the hint says to remove it only when no other meterdata process runs, in both languages', () => {
    expect(tokenTexts.lockTimeoutHint({ file: '/s/locks/default.refresh.lock' })).toMatch(
      /if it persists and no other meterdata process is running .*remove \/s\/locks\/default\.refresh\.lock\.$/,
    );
    setLanguage('de');
    expect(tokenTexts.lockTimeoutHint({ file: '/s/l' })).toMatch(/wenn es anhält und kein anderer meterdata-Prozess läuft .*entfernen Sie \/s\/l\.$/);
  });
});

// Round 27: a file or a dangling link where the refresh lock's folder goes read as a held lock: every command that
// had to refresh waited a minute, then blamed another process.
describe('a file or a link where the refresh lock folder goes', () => {
  it.each(['a file', 'a dangling link'])('%s: refused at once, named, nothing waited for', async (what) => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-lock-file-')) };
    const lock = `${lockPathFor(env, 'beta')}.lock`;
    mkdirSync(path.dirname(lock), { recursive: true });
    if (what === 'a file') writeFileSync(lock, 'junk');
    else symlinkSync('/nonexistent-target', lock);
    const started = Date.now();
    const e = (await withRefreshLock(env, 'beta', async () => 'held').catch((err: unknown) => err)) as { code: string; message: string; hint: string };
    expect(Date.now() - started).toBeLessThan(2000);
    expect(e.code).toBe('AUTH_LOCK_TIMEOUT');
    expect(e.message).toBe(`${lock} is a file or a link, where meterdata keeps a lock folder: no meterdata process holds it.`);
    expect(e.hint).toBe(`Remove ${lock}, then run the command again.`);
  });
});

// Round 29: a lock folder holding something (a hand-made folder, another tool's) cannot be taken over when stale:
// it was waited on for a minute, then blamed on another meterdata process.
describe('a lock folder that holds files', () => {
  it('stale or not: refused at once, named as not a holder, nothing waited for; an empty stale one is still taken over', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-lock-full-')) };
    const lock = `${lockPathFor(env, 'beta')}.lock`;
    mkdirSync(path.join(lock, 'sub'), { recursive: true });
    const old = new Date(Date.now() - 300_000);
    utimesSync(lock, old, old);
    const started = Date.now();
    const e = (await withRefreshLock(env, 'beta', async () => 'held').catch((err: unknown) => err)) as { code: string; message: string; hint: string };
    expect(Date.now() - started).toBeLessThan(2000);
    expect(e.code).toBe('AUTH_LOCK_TIMEOUT');
    expect(e.message).toBe(`${lock} holds files, where meterdata keeps an empty lock folder: no meterdata process holds it.`);
    expect(e.hint).toBe(`Look at what ${lock} holds, remove the folder, then run the command again.`);
    rmSync(path.join(lock, 'sub'), { recursive: true });
    utimesSync(lock, old, old);
    expect(await withRefreshLock(env, 'beta', async () => 'held')).toBe('held');
  });
});

// Round 44 N5: a `locks` that cannot hold the lock folder waited a minute, then blamed another meterdata process.
describe('a locks folder that cannot hold the lock', () => {
  it('a plain file where the folder goes: refused at once, naming the file and its move (exit 2)', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-locks-file-')) };
    const locks = path.dirname(lockPathFor(env, 'beta'));
    mkdirSync(path.dirname(locks), { recursive: true });
    writeFileSync(locks, 'junk');
    const started = Date.now();
    const e = (await withRefreshLock(env, 'beta', async () => 'held').catch((err: unknown) => err)) as { code: string; message: string; hint: string };
    expect(Date.now() - started).toBeLessThan(2000);
    expect(e).toMatchObject({
      code: 'CONFIG_INVALID',
      exitCode: 2,
      message: `The lock ${lockPathFor(env, 'beta')}.lock cannot be taken (${locks} is a file, not a folder).`,
    });
    expect(e.hint).toMatch(new RegExp(`^Move or rename ${locks}`));
  });
});

// Round 45 F6: a locks folder removed while a lock in it was waited for failed at once "(ENOENT)", with a hint to remove
// a lock that was not there. Made again, it handed the lock to a waiter while its holder still ran (round 46 M1: a
// new refresh token lost): the wait ends, saying what happened, and the folder is left to the holder.
describe('the locks folder removed during the wait', () => {
  it('the waiter stops, naming the removed folder, and takes no lock', async () => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-locks-gone-')) };
    const locks = path.dirname(lockPathFor(env, 'beta'));
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = withRefreshLock(env, 'beta', () => new Promise<void>((r) => (locked(), (release = r))));
    await isLocked;
    let ran = false;
    const waiter = withRefreshLock(env, 'beta', async () => void (ran = true)).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    rmSync(locks, { recursive: true, force: true });
    const e = (await waiter) as { code: string; message: string; hint: string };
    expect(ran).toBe(false);
    expect(e).toMatchObject({
      code: 'AUTH_LOCK_TIMEOUT',
      message: `The folder ${locks} was removed while meterdata was using it, by hand or by a clean-up.`,
    });
    expect(e.hint).toMatch(/^Nothing was sent to the sign-in server\. Run the command again; do not remove/);
    release();
    await holder;
    // Round 47 L-c: met after the server answered (the tokens could not be kept), it was told as a bare code
    const lost = keptAnswerLost(e, { name: 'beta' } as Profile);
    expect(lost.message).toBe(
      `The sign-in server answered the refresh of the access token (HTTP 200), but its answer cannot be used: the new tokens could not be kept (the folder ${locks} was removed while meterdata was using it, by hand or by a clean-up).`,
    );
    expect(lost.message).not.toMatch(/AUTH_LOCK_TIMEOUT|ENOENT|Nothing was sent/);
  });
});
