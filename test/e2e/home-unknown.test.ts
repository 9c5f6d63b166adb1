// A user with no account entry (a container's `--user 1234`) and HOME empty or relative (round 33 F1): round 32's fix
// took os.homedir(), which gives that same HOME back, and `login` put config.json and the refresh token under the
// working folder. Now nothing is guessed: one line naming the fix, exit 2, nothing written in the working folder.
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runBin } from '../helpers/bin.js';

const asRoot = process.getuid?.() === 0;
if (!asRoot && process.env.CI !== 'true') console.warn('home-unknown: skipped, needs root to run as a user without an account entry');

beforeAll(() => assertBuilt());

describe.skipIf(!asRoot && process.env.CI !== 'true')('a user without an account entry, HOME empty or relative', () => {
  it.each([[''], ['rel']])('HOME=%j: status says so (HOME_UNKNOWN, exit 2), nothing in the working folder', async (home) => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'md-home-unknown-'));
    chmodSync(cwd, 0o777);
    const r = await runBin(['status', '--json'], { HOME: home, METERDATA_LANG: 'en' }, { uid: 54321, cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^meterdata: There is no home folder to keep the sign-in and settings in/);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ error: { code: 'HOME_UNKNOWN' } });
    expect(readdirSync(cwd)).toEqual([]);
  });

  // Round 34 F4: HOME is only the fallback of XDG's three folders; with all three named it is not needed.
  it('HOME empty, the three XDG variables full paths: they are used, no HOME_UNKNOWN', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'md-home-unknown-'));
    chmodSync(cwd, 0o777);
    const xdg = { XDG_CONFIG_HOME: path.join(cwd, 'c'), XDG_STATE_HOME: path.join(cwd, 's'), XDG_CACHE_HOME: path.join(cwd, 'k') };
    const r = await runBin(['status', '--json'], { HOME: '', METERDATA_LANG: 'en', ...xdg }, { uid: 54321, cwd });
    expect(r.stderr).not.toMatch(/home folder/);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ signed_in: false, problem: { code: 'AUTH_NOT_SIGNED_IN' } });
    expect(readdirSync(cwd).filter((n) => !['c', 's', 'k'].includes(n))).toEqual([]);
  });
});

// Round 34 F3: a relative METERDATA_HOME put config.json, the refresh token and the compile cache under the working folder.
describe('a relative METERDATA_HOME', () => {
  it.each([['relhome'], ['.']])('METERDATA_HOME=%j: refused (HOME_UNKNOWN, exit 2) naming it, nothing in the working folder', async (home) => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'md-home-relative-'));
    const r = await runBin(['status', '--json'], { METERDATA_HOME: home, HOME: '/root', METERDATA_LANG: 'en' }, { cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`meterdata: METERDATA_HOME is not a full path (${home})`);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ error: { code: 'HOME_UNKNOWN' } });
    expect(readdirSync(cwd)).toEqual([]);
  });
});
