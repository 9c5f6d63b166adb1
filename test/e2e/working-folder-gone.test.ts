// A command started in a folder that was removed meanwhile (a failed run removed the --out the user stood in, a
// worktree deleted from another terminal): process.cwd() threw, and every command, --json too, ended with a Node
// stack and exit 1, nothing on stdout (round 32 F12). Now one line naming the fix, exit 2, and the --json object.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../helpers/bin.js';

beforeAll(() => assertBuilt());

describe('a command started in a folder that no longer exists', () => {
  it.each([['status'], ['export', '--year', '2025']])('%s: one line naming the fix, exit 2, the --json object; no stack', (...argv) => {
    const gone = mkdtempSync(path.join(os.tmpdir(), 'md-cwd-gone-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-cwd-home-'));
    const r = spawnSync('bash', ['-c', `cd "${gone}" && rmdir "${gone}" && exec "${process.execPath}" "${BIN}" ${argv.join(' ')} --json`], {
      env: { ...process.env, METERDATA_HOME: home, METERDATA_LANG: 'en' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^meterdata: The folder this command was started in no longer exists/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ error: { code: 'WORKING_FOLDER_GONE' } });
  });
});
