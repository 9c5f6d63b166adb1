// The state folder's list of refresh tokens already sent (src/auth/spent-tokens.ts): a token is
// claimed durably before it is sent, a second claim of it (another profile holding a copy of the
// record) is refused, only hashes are kept, the list stays bounded, and a damaged list stops the
// refresh without being written over. The refusal's message says who took the token: another profile
// (this record is a copy of that profile's), or this profile itself (an earlier run's answer lost, a claim not given
// back, or an older copy of itself).
import os from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../src/core/atomic-file.js';
import { MeterdataError, ServiceUnavailableError } from '../../src/core/errors.js';
import { PID_SPACE_TAG } from '../../src/core/pid.js';
import {
  claimRefreshToken,
  readSpent,
  RefreshTokenSpentError,
  releaseClaim,
  sendOnce,
  SPENT_MAX_AGE_MS,
  SPENT_MAX_ENTRIES,
  spentFile,
  tokenHash,
  withEntry,
  type SpentEntry,
} from '../../src/auth/spent-tokens.js';
import { RefreshAnswerLostError } from '../../src/auth/token-exchange.js';
import { setLanguage, type Lang } from '../../src/i18n/index.js';

// the real writer, but a test can make one write fail (a full disk)
vi.mock('../../src/core/atomic-file.js', async (real) => {
  const mod = await real<typeof import('../../src/core/atomic-file.js')>();
  return { ...mod, writeFileAtomic: vi.fn(mod.writeFileAtomic) };
});

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-spent-')) }) as NodeJS.ProcessEnv;
const AT = '2026-11-27T10:00:00.000Z';
const relogin = 'Run `meterdata login --profile default`.';

describe('claiming a refresh token', () => {
  it('a second claim of the same token, from another profile, gets the first entry; the file holds the hash, never the token', async () => {
    const env = home();
    expect(await claimRefreshToken(env, 'rt-secret-1', 'beta', AT)).toBeNull();
    const again = await claimRefreshToken(env, 'rt-secret-1', 'default', '2026-11-27T11:00:00.000Z');
    expect(again).toEqual({
      h: tokenHash('rt-secret-1'),
      at: AT,
      profile: 'beta',
      c: expect.stringMatching(/^[0-9a-f]{16}$/),
      pid: process.pid,
      host: os.hostname(),
      ns: PID_SPACE_TAG,
    });
    const text = readFileSync(spentFile(env), 'utf8');
    expect(text).not.toContain('rt-secret-1');
    expect(text).toContain(tokenHash('rt-secret-1'));
    expect(readSpent(env)).toHaveLength(1);
    // another token is free
    expect(await claimRefreshToken(env, 'rt-secret-2', 'default', AT)).toBeNull();
  });

  it('ten processes claiming one token at once: exactly one claim succeeds', async () => {
    const env = home();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => claimRefreshToken(env, 'rt-shared', `p${i}`, AT)));
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(readSpent(env)).toHaveLength(1);
  });

  it('releasing gives back only our own claim (same token and time)', async () => {
    const env = home();
    await claimRefreshToken(env, 'a', 'default', AT);
    await claimRefreshToken(env, 'b', 'default', AT);
    await releaseClaim(env, 'a', '2026-11-27T09:00:00.000Z');
    expect(readSpent(env)).toHaveLength(2);
    await releaseClaim(env, 'a', AT);
    expect(readSpent(env).map((e) => e.h)).toEqual([tokenHash('b')]);
  });
});

describe('sendOnce', () => {
  it('a token sent before is never sent again: RefreshTokenSpentError (exit 3) naming the profile that sent it', async () => {
    const env = home();
    await claimRefreshToken(env, 'rt', 'beta', AT);
    let sent = 0;
    const e = await sendOnce(env, 'rt', 'default', AT, relogin, async () => ++sent).catch((x: unknown) => x);
    expect(sent).toBe(0);
    expect(e).toBeInstanceOf(RefreshTokenSpentError);
    expect((e as MeterdataError).code).toBe('AUTH_REFRESH_SPENT');
    expect((e as MeterdataError).exitCode).toBe(3);
    expect((e as MeterdataError).message).toContain('"beta"');
    expect((e as MeterdataError).hint).toBe(relogin);
  });

  it('a token this profile sent itself (its record restored from a backup) is not sent again either, and the message says this profile took it', async () => {
    const env = home();
    await claimRefreshToken(env, 'rt-old', 'default', AT);
    const e = await sendOnce(env, 'rt-old', 'default', AT, relogin, async () => 'sent').catch((x: unknown) => x);
    expect((e as MeterdataError).code).toBe('AUTH_REFRESH_SPENT');
    expect((e as MeterdataError).message).toMatch(
      /taken for a refresh at 2026-11-27T10:00:00.000Z by this profile itself: .* or this sign-in is an older copy of itself/,
    );
  });

  it('a send that failed before the token was used gives the claim back; an answer lost after sending keeps it', async () => {
    const env = home();
    const refused = new ServiceUnavailableError('connection refused', { code: 'AUTH_SERVER_UNREACHABLE' });
    await expect(sendOnce(env, 'rt1', 'default', AT, relogin, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(readSpent(env)).toEqual([]);
    const lost = new RefreshAnswerLostError('lost', { code: 'AUTH_ANSWER_LOST' });
    await expect(sendOnce(env, 'rt2', 'default', AT, relogin, () => Promise.reject(lost))).rejects.toBe(lost);
    expect(readSpent(env).map((e) => e.h)).toEqual([tokenHash('rt2')]);
    // and a success keeps it too: the server has rotated the token
    expect(await sendOnce(env, 'rt3', 'default', AT, relogin, async () => 'tokens')).toBe('tokens');
    expect(readSpent(env)).toHaveLength(2);
  });
});

describe('the bounds', () => {
  const entry = (i: number, at: string): SpentEntry => ({ h: i.toString(16).padStart(64, '0'), at, profile: 'default' });
  const now = Date.parse(AT);

  it(`keeps at most ${SPENT_MAX_ENTRIES} entries, dropping the oldest`, () => {
    const full = Array.from({ length: SPENT_MAX_ENTRIES }, (_, i) => entry(i, AT));
    const next = withEntry(full, entry(SPENT_MAX_ENTRIES, AT), now);
    expect(next).toHaveLength(SPENT_MAX_ENTRIES);
    expect(next[0]).toEqual(entry(1, AT));
    expect(next.at(-1)).toEqual(entry(SPENT_MAX_ENTRIES, AT));
  });

  it('drops entries older than the age bound, keeps younger ones and ones dated ahead of the clock', () => {
    const old = entry(1, new Date(now - SPENT_MAX_AGE_MS - 1000).toISOString());
    const young = entry(2, new Date(now - SPENT_MAX_AGE_MS + 60_000).toISOString());
    const ahead = entry(3, new Date(now + 86_400_000).toISOString());
    expect(withEntry([old, young, ahead], entry(4, AT), now)).toEqual([young, ahead, entry(4, AT)]);
  });
});

describe('a damaged list', () => {
  for (const [what, text] of [
    ['cut off', '{"v":1,"spent":[{"h":"'],
    ['a hash that is no hash', JSON.stringify({ v: 1, spent: [{ h: 'abc', at: AT, profile: 'x' }] })],
    ['not an object', '[]'],
  ] as const) {
    it(`${what}: no claim and no send (exit 5, AUTH_SPENT_LIST_DAMAGED naming the file), and the file is not written over`, async () => {
      const env = home();
      mkdirSync(path.dirname(spentFile(env)), { recursive: true });
      writeFileSync(spentFile(env), text);
      let sent = 0;
      const e = await sendOnce(env, 'rt', 'default', AT, relogin, async () => ++sent).catch((x: unknown) => x);
      expect(sent).toBe(0);
      expect((e as MeterdataError).code).toBe('AUTH_SPENT_LIST_DAMAGED');
      expect((e as MeterdataError).exitCode).toBe(5);
      expect((e as MeterdataError).message).toContain(spentFile(env));
      expect(readFileSync(spentFile(env), 'utf8')).toBe(text);
    });
  }
});

describe('a list that cannot be written', () => {
  it('no send: exit 5 AUTH_STORE_WRITE_FAILED naming the list, never an unexplained error', async () => {
    const env = home();
    await claimRefreshToken(env, 'other', 'default', AT);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    vi.mocked(writeFileAtomic).mockRejectedValueOnce(full);
    let sent = 0;
    const e = await sendOnce(env, 'rt', 'default', AT, relogin, async () => ++sent).catch((x: unknown) => x);
    expect(sent).toBe(0);
    expect(e).toBeInstanceOf(MeterdataError);
    expect((e as MeterdataError).code).toBe('AUTH_STORE_WRITE_FAILED');
    expect((e as MeterdataError).exitCode).toBe(5);
    expect((e as MeterdataError).message).toContain(spentFile(env));
    expect((e as MeterdataError).message).toContain('(the disk is full)'); // the disk's refusal in the run's words
    expect(readSpent(env).map((x) => x.h)).toEqual([tokenHash('other')]);
  });
});

async function refusal(env: NodeJS.ProcessEnv, lang: Lang): Promise<MeterdataError> {
  setLanguage(lang);
  let sent = 0;
  const e = await sendOnce(env, 'rt', 'default', '2026-11-27T11:00:00.000Z', relogin, async () => ++sent).catch((x: unknown) => x);
  expect(sent).toBe(0);
  expect(e).toBeInstanceOf(MeterdataError);
  expect([(e as MeterdataError).code, (e as MeterdataError).exitCode, (e as MeterdataError).hint]).toEqual(['AUTH_REFRESH_SPENT', 3, relogin]);
  return e as MeterdataError;
}

describe('the message of a token taken before, by whom (AUTH_REFRESH_SPENT), in English and German', () => {
  afterEach(() => setLanguage('en'));

  it('an earlier run whose claim could not be given back: the message names this profile’s own earlier run, not only a backup', async () => {
    const env = home();
    const refused = new ServiceUnavailableError('connection refused', { code: 'AUTH_SERVER_UNREACHABLE' });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    // the request never left, but giving the claim back fails: the claim stays
    const first = sendOnce(env, 'rt', 'default', AT, relogin, () => {
      vi.mocked(writeFileAtomic).mockRejectedValueOnce(full);
      return Promise.reject(refused);
    });
    await expect(first).rejects.toBe(refused);
    expect(readSpent(env)).toHaveLength(1);
    const en = (await refusal(env, 'en')).message;
    expect(en).toContain(`at ${AT} by this profile itself: an earlier run of this profile sent it and its answer was lost`);
    expect(en).toContain('or this sign-in is an older copy of itself');
    expect(en).toContain('sign in again');
    expect(en).not.toContain('this sign-in was restored from a backup or copied back');
    const de = (await refusal(env, 'de')).message;
    expect(de).toContain(
      `am ${AT} von diesem Profil selbst für eine Erneuerung verwendet: Ein früherer Lauf dieses Profils hat es gesendet, und die Antwort ging verloren`,
    );
    expect(de).toContain('ein älterer Stand ihrer selbst');
    expect(de).toContain('Bitte melden Sie sich neu an');
    expect(de).not.toContain('Diese Anmeldung wurde aus einer Sicherung zurückgespielt oder zurückkopiert');
  });

  it('the message names that profile: this sign-in is a copy of its record', async () => {
    const env = home();
    await claimRefreshToken(env, 'rt', 'beta', AT);
    const en = (await refusal(env, 'en')).message;
    expect(en).toContain(`already sent at ${AT} by the profile "beta": this sign-in is a copy of that profile's`);
    expect(en).not.toContain('this profile itself');
    const de = (await refusal(env, 'de')).message;
    expect(de).toContain(`bereits am ${AT} vom Profil „beta“ gesendet: Diese Anmeldung ist eine Kopie der Anmeldung jenes Profils`);
    expect(de).not.toContain('diesem Profil selbst');
  });
});
