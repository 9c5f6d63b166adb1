// config.json's lock waits only for a lock another process holds. A settings folder the disk will not
// write (read-only, no permission, full) failed the same way after about 17 s of retries, as CONFIG_LOCKED
// with a hint to remove a lock that did not exist (round 18): now the disk's own error, at once, which the
// entry point tells as "could not be written … the file system is read-only" (src/core/disk.ts).
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const lock = vi.fn();
vi.mock('proper-lockfile', () => ({ default: { lock: (...a: unknown[]) => lock(...a) } }));
const { setProfileFields } = await import('../../src/core/config.js');
const { diskRefusal } = await import('../../src/core/disk.js');

const errno = (code: string) => Object.assign(new Error(`${code}: mkdir`), { code, path: '/x/config.json.lock' });
const env = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-config-lock-errors-')) });

beforeEach(() => {
  lock.mockReset();
});

describe("config.json's lock", () => {
  it('a read-only settings folder is the disk error at once, tried once (before: 70 tries, CONFIG_LOCKED)', async () => {
    lock.mockImplementation(() => Promise.reject(errno('EROFS')));
    const started = Date.now();
    const e = await setProfileFields(env(), 'default', { last_refresh_at: 'x' }).catch((x: unknown) => x);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(lock).toHaveBeenCalledTimes(1);
    expect((e as { code?: string }).code).toBe('EROFS');
    expect(diskRefusal(e)?.why).toBe('the file system is read-only');
  });

  it('a held lock is waited for, and taken once free', async () => {
    lock
      .mockRejectedValueOnce(errno('ELOCKED'))
      .mockRejectedValueOnce(errno('ELOCKED'))
      .mockResolvedValue(async () => undefined);
    await expect(setProfileFields(env(), 'default', { last_refresh_at: 'x' })).resolves.toBeUndefined();
    expect(lock).toHaveBeenCalledTimes(3);
  });

  it('another error is CONFIG_LOCKED naming the lock, at once', async () => {
    lock.mockImplementation(() => Promise.reject(errno('ENOTDIR')));
    const e = await setProfileFields(env(), 'default', {}).catch((x: unknown) => x);
    expect(lock).toHaveBeenCalledTimes(1);
    expect((e as { code?: string }).code).toBe('CONFIG_LOCKED');
    expect((e as Error).message).toMatch(/config\.json\.lock of the settings file cannot be used \(ENOTDIR\)/);
  });

  it('a stop ends the wait for a held lock at once, with the stop’s reason; nothing is written (it was deaf for 17 s)', async () => {
    lock.mockImplementation(() => Promise.reject(errno('ELOCKED')));
    const stop = new AbortController();
    const reason = new Error('stopped by SIGTERM');
    setTimeout(() => stop.abort(reason), 200);
    const started = Date.now();
    const home = env();
    const settled = setProfileFields(home, 'default', { last_refresh_at: 'x' }, stop.signal).catch((x: unknown) => x);
    const e = await Promise.race([settled, new Promise((r) => setTimeout(() => r('still waiting'), 3_000))]);
    expect(e).toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(existsSync(path.join(home.METERDATA_HOME, 'config', 'config.json'))).toBe(false);
    expect(lock.mock.calls.length).toBeLessThan(10);
  });
});
