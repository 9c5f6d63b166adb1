// The reader of meterdata's output goes away mid-run (`meterdata export … 2>&1 | logger` whose
// logger died, `| head -1`): the run goes on without its messages and ends with the status its
// work gives, the whole set written. Before, the first failed write (EPIPE) exited at once with 0:
// a cron job saw success for an export stopped mid-walk with nothing written.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, BIN } from '../helpers/bin.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  assertBuilt();
  // the default data set (3 Properties): a progress line at each Property's end, the next after the reader is gone
  ({ sandbox, home, env } = await signedIn({ rateLimitPerMinute: 0, homePrefix: 'md-reader-gone-' }));
}, 120_000);
afterAll(async () => sandbox?.close());

/** Runs `args` and closes both pipes (the reader gone) at the first byte it writes; its exit code and signal. */
async function readerGoneAtFirstLine(args: string[]): Promise<[number | null, NodeJS.Signals | null]> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  const gone = () => [child.stdout, child.stderr].forEach((s) => s.destroy());
  child.stdout.once('data', gone);
  child.stderr.once('data', gone);
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  return [code, signal];
}

describe('the reader of the output gone at the first line', () => {
  it('export: the run finishes, every file of its manifest written, exit 0', async () => {
    const out = path.join(home, 'out-export');
    expect(await readerGoneAtFirstLine(['export', '--year', '2025', '--rate-limit', '900', '--out', out])).toEqual([0, null]);
    const manifest = path.join(out, 'meterdata-manifest.json');
    expect(existsSync(manifest)).toBe(true);
    const files = (JSON.parse(readFileSync(manifest, 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name);
    expect(files).toContain('billing.csv');
    for (const f of files) expect(existsSync(path.join(out, f)), f).toBe(true);
  }, 300_000);

  it('a failing run still fails: exit 2 for a bad flag, not 0', async () => {
    expect(await readerGoneAtFirstLine(['export', '--year', '20x5'])).toEqual([2, null]);
  }, 60_000);

  it('`--help` with the reader gone: exit 0', async () => {
    expect(await readerGoneAtFirstLine(['--help'])).toEqual([0, null]);
  }, 60_000);
});

/** Runs `args` with stdout and stderr to the given files (`/dev/full`: a disk that is full); its exit code and signal. */
async function redirected(args: string[], stdout: string, stderr: string): Promise<[number | null, NodeJS.Signals | null]> {
  const [out, err] = [openSync(stdout, 'w'), openSync(stderr, 'w')];
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd: home, stdio: ['ignore', out, err] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const result = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  [out, err].forEach((fd) => closeSync(fd));
  return result;
}

const manifestComplete = (out: string) => {
  const files = (JSON.parse(readFileSync(path.join(out, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name);
  return files.length > 0 && files.every((f) => existsSync(path.join(out, f)));
};

describe('stdout or stderr on a full disk (a cron log under a full quota)', () => {
  it('stderr full: the run finishes, every file written, exit 0 (before: exit 1 with a stack at the first progress line)', async () => {
    const out = path.join(home, 'out-stderr-full');
    expect(await redirected(['export', '--year', '2025', '--rate-limit', '900', '--out', out], path.join(home, 'stdout-1.log'), '/dev/full')).toEqual([
      0,
      null,
    ]);
    expect(manifestComplete(out)).toBe(true);
  }, 300_000);

  it('stdout full under --json: the files written, but exit 1 (OUTPUT_WRITE_FAILED) with one line on stderr (the answer a script reads is lost)', async () => {
    const out = path.join(home, 'out-stdout-full');
    const log = path.join(home, 'stderr-2.log');
    expect(await redirected(['export', '--year', '2025', '--rate-limit', '900', '--json', '--out', out], '/dev/full', log)).toEqual([1, null]);
    expect(manifestComplete(out)).toBe(true);
    const stderr = readFileSync(log, 'utf8');
    expect(stderr).toMatch(/^meterdata: The run's own output could not be written \(ENOSPC\)/m);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 300_000);
});
