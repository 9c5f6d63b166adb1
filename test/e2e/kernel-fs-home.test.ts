// METERDATA_HOME or an XDG folder on /proc or /sys: Node's recursive mkdir never returns there, so every
// command (`--version` included, through the compile cache) spun at full CPU until killed, with nothing on
// stdout. Now a command is refused at once (exit 2, naming the variable) and the compile cache is skipped.
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderOnKernelFs, onKernelFs } from '../../src/core/paths.js';
import { assertBuilt, runBin } from '../helpers/bin.js';

beforeAll(() => assertBuilt());

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-kernel-fs-'));
/** Long enough for a start on a busy machine; the spin it guards against never ends. */
const BOUND = { timeoutMs: 20_000 };

describe('a home on /proc or /sys', () => {
  it.each([
    ['METERDATA_HOME=/proc/…', { METERDATA_HOME: '/proc/meterdata-x' }, 'METERDATA_HOME', '/proc/meterdata-x/config'],
    ['METERDATA_HOME=/sys/…', { METERDATA_HOME: '/sys/meterdata-x' }, 'METERDATA_HOME', '/sys/meterdata-x/config'],
    ['XDG_STATE_HOME=/proc/…', { XDG_STATE_HOME: '/proc/meterdata-x' }, 'XDG_STATE_HOME', '/proc/meterdata-x/meterdata'],
  ])(
    '%s: `export --json` exits 2 at once, one line naming the variable, the error object on stdout',
    async (_name, vars, variable, dir) => {
      const home = tmp();
      const r = await runBin(['export', '--json', '--year', '2025', '--out', path.join(home, 'out')], { HOME: home, ...vars }, BOUND);
      expect(r.signal, 'still spinning when killed').toBeNull();
      expect(r.code, r.stderr).toBe(2);
      const err = (JSON.parse(r.stdout) as { error: { code: string; message: string; hint: string } }).error;
      expect(err.code).toBe('HOME_ON_KERNEL_FS');
      expect(err.message).toBe(
        `Cannot keep meterdata's files in ${dir} (from ${variable}): it lies on /proc or /sys, the kernel's view of the system, not a disk.`,
      );
      expect(err.hint).toBe(`Set ${variable} to a folder on a disk, or unset it, then run the command again.`);
      expect(r.stderr.split('\n')[0]).toMatch(/^meterdata: Cannot keep meterdata's files in/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    30_000,
  );

  it('XDG_CACHE_HOME=/proc/…: `--version` answers (no compile cache there), `status` is refused naming XDG_CACHE_HOME', async () => {
    const home = tmp();
    const env = { HOME: home, XDG_CACHE_HOME: '/proc/meterdata-x' };
    const version = await runBin(['--version'], env, BOUND);
    expect(version.signal, 'still spinning when killed').toBeNull();
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const status = await runBin(['status'], env, BOUND);
    expect(status.signal).toBeNull();
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/\(from XDG_CACHE_HOME\)/);
  }, 45_000);
});

describe('onKernelFs', () => {
  it('finds /proc and /sys through folders not there yet and through a link, and nothing else', () => {
    const dir = tmp();
    symlinkSync('/proc/self', path.join(dir, 'link'));
    expect(onKernelFs('/proc/x/y/z')).toBe(true);
    expect(onKernelFs('/sys/x')).toBe(true);
    expect(onKernelFs(path.join(dir, 'link', 'x'))).toBe(true);
    expect(onKernelFs(path.join(dir, 'a', 'b'))).toBe(false);
    expect(onKernelFs('/proc/x', 'darwin')).toBe(false);
    expect(folderOnKernelFs({ METERDATA_HOME: dir, HOME: dir }, 'linux')).toBeUndefined();
  });
});
