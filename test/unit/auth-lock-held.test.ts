// Whether a refresh lock is still this holder's (src/auth/lock.ts stillHeld). A young lock was taken as held without
// a look: a lock folder removed and made again by another process (a clean-up, or its stale takeover) within the
// first half of the stale limit went unnoticed, and a claim written after such a takeover could replace the new
// holder's claim of the same token (round 48 F1: one refresh token sent twice, the connection revoked).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPathFor, withRefreshLock } from '../../src/auth/lock.js';

const home = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-lock-held-')) }) as NodeJS.ProcessEnv;

describe('a young refresh lock', () => {
  it('is held while its folder is the one it made', async () => {
    const env = home();
    expect(await withRefreshLock(env, 'beta', (lock) => lock.stillHeld())).toBe(true);
  });

  it('removed and made again by another process (same name, maybe the same inode): no longer held, at once', async () => {
    const env = home();
    const folder = `${lockPathFor(env, 'beta')}.lock`;
    const held = await withRefreshLock(env, 'beta', async (lock) => {
      await new Promise((r) => setTimeout(r, 30)); // past the file system's clock tick: a birth time of its own
      rmSync(folder, { recursive: true });
      mkdirSync(folder);
      const t0 = Date.now();
      const still = await lock.stillHeld();
      return { still, ms: Date.now() - t0 };
    });
    expect(held.still).toBe(false);
    expect(held.ms).toBeLessThan(500); // a look, not a wait for an update cycle
  });

  it('removed and not made again: no longer held', async () => {
    const env = home();
    const folder = `${lockPathFor(env, 'beta')}.lock`;
    expect(await withRefreshLock(env, 'beta', async (lock) => (rmSync(folder, { recursive: true }), lock.stillHeld()))).toBe(false);
  });
});
