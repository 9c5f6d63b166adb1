// SIGHUP (the terminal closed, an ssh session dropped) while export or uvi replaces a complete
// set of files ends the run as SIGTERM does: exit 130 and one line on stderr, the previous
// files untouched, no temporary file and no lock left, and the same command runs again. Before,
// the process died of the signal (129 by the shell's count) with nothing said and its locks left.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, BIN, runBin } from '../helpers/bin.js';
import { signedInNord } from '../helpers/portfolio.js';
import { requireTool } from '../helpers/tools.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedInNord('md-signals-hup-'));
}, 120_000);
afterAll(async () => sandbox?.close());

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name],
  );
}
/** Every file with its size and time of change: a file replaced or touched shows. */
const snapshot = (dir: string) =>
  Object.fromEntries(filesUnder(dir).map((f) => [f, `${statSync(path.join(dir, f)).size}:${statSync(path.join(dir, f)).mtimeMs}`]));
const manifestFiles = (dir: string): string[] =>
  [
    ...(JSON.parse(readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name),
    'meterdata-manifest.json',
  ].sort();

/**
 * Starts `args` and sends SIGHUP once `when` holds for the folder's files. `readerGone`: the
 * reader of its stdout and stderr ends first (`meterdata … 2>&1 | tee log`, tee hung up as well).
 */
async function hungUp(args: string[], out: string, when: (files: string[]) => boolean, readerGone = false) {
  const child = spawn(process.execPath, [BIN, ...args, '--out', out], { env: { ...process.env, ...env }, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, sig) => resolve([code, sig])));
  let sent = false;
  for (let i = 0; i < 6000 && !sent && child.exitCode === null; i++) {
    if (!when(filesUnder(out))) await new Promise((r) => setTimeout(r, 5));
    else {
      if (readerGone) for (const s of [child.stdout, child.stderr]) s.destroy();
      sent = child.kill('SIGHUP');
    }
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = await done;
  clearTimeout(timer);
  return { sent, code, signal, stderr };
}

describe('SIGHUP while a complete set of files is replaced', () => {
  it.each([
    ['uvi', ['uvi', '--month', '2025-11', '--profile', 'nord'], '2025-11'],
    ['export', ['export', '--year', '2025', '--profile', 'nord'], '.'],
  ] as const)(
    '%s: exit 130, one line, the previous files untouched, no lock left, a re-run exits 0',
    async (cmd, args, sub) => {
      const out = path.join(home, `out-${cmd}`);
      const first = await runBin([...args, '--out', out], env);
      expect(first.code, first.stderr).toBe(0);
      const before = snapshot(out);
      // Once the run has begun writing the new set (a letter's temporary file; any new file of the export).
      const writing = (files: string[]) => files.some((f) => !(f in before) && (cmd === 'export' || /letter-.*\.pdf/.test(f)));
      const r = await hungUp([...args], out, writing);
      expect(r.sent, r.stderr).toBe(true);
      expect([r.code, r.signal], r.stderr).toEqual([130, null]);
      expect(r.stderr).toMatch(/^meterdata: Interrupted/m);
      expect(r.stderr.match(/^meterdata:/gm), r.stderr).toHaveLength(1);
      // the command to run again is named for the monthly information ("Run the same `meterdata uvi` command again")
      expect(r.stderr).toMatch(cmd === 'uvi' ? /run the same `meterdata uvi` command again/i : /run the same command again/i);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(snapshot(out)).toEqual(before);
      expect(filesUnder(env.METERDATA_HOME!).filter((f) => /\.lock$/.test(f))).toEqual([]);
      const again = await runBin([...args, '--out', out], env);
      expect(again.code, again.stderr).toBe(0);
      expect(filesUnder(path.join(out, sub)).sort()).toEqual(manifestFiles(path.join(out, sub)));
    },
    400_000,
  );
});

describe('SIGHUP with the reader of the output gone as well (meterdata … 2>&1 | tee log)', () => {
  it('uvi: exit 130 (the message that finds the pipe closed comes after the clean-up), no lock left, a re-run exits 0', async () => {
    const args = ['uvi', '--month', '2025-11', '--profile', 'nord'];
    const out = path.join(home, 'out-tee');
    const first = await runBin([...args, '--out', out], env);
    expect(first.code, first.stderr).toBe(0);
    const before = snapshot(out);
    const r = await hungUp(args, out, (files) => files.some((f) => !(f in before) && /letter-.*\.pdf/.test(f)), true);
    expect(r.sent, `exit ${r.code}: ${r.stderr}`).toBe(true);
    expect([r.code, r.signal]).toEqual([130, null]);
    expect(snapshot(out)).toEqual(before);
    expect(filesUnder(env.METERDATA_HOME!).filter((f) => /\.lock$/.test(f))).toEqual([]);
    const again = await runBin([...args, '--out', out], env);
    expect(again.code, again.stderr).toBe(0);
  }, 400_000);
});

describe('the terminal closes under a running uvi (tmux ends: SIGHUP, and the terminal is gone for stderr)', () => {
  it('exit 130, the previous files untouched, no lock left, a re-run exits 0', async (ctx) => {
    requireTool(ctx, 'tmux', 'a closed terminal is a tmux server ended under the run');
    const args = ['uvi', '--month', '2025-11', '--profile', 'nord'];
    const out = path.join(home, 'out-tmux');
    const first = await runBin([...args, '--out', out], env);
    expect(first.code, first.stderr).toBe(0);
    const before = snapshot(out);
    // A closed terminal signals its session's leader; a login shell passes SIGHUP on to its jobs. Here the
    // tmux server ends (the terminal is gone: meterdata's writes to stderr fail with EIO), then the test
    // passes SIGHUP on as that shell would, and a shell that outlives it writes the status down.
    const rc = path.join(home, 'tmux-rc');
    const pid = path.join(home, 'tmux-pid');
    const script = path.join(home, 'tmux-run.sh');
    const vars = Object.entries(env)
      .filter(([k, v]) => /^(METERDATA_|HOME$|SOURCE_DATE_EPOCH$)/.test(k) && v !== undefined)
      .map(([k, v]) => `export ${k}='${v!}'`);
    const run = `'${process.execPath}' '${BIN}' ${args.join(' ')} --out '${out}' &`;
    writeFileSync(script, [...vars, `trap '' HUP`, `cd '${home}'`, run, `echo $! > '${pid}'`, 'wait $!', `echo $? > '${rc}'`, ''].join('\n'));
    const tmux = (...a: string[]) => execFileSync('tmux', ['-L', `md-hup-${process.pid}`, ...a], { encoding: 'utf8' });
    tmux('new-session', '-d', '-s', 'run', '-x', '120', '-y', '30', `sh '${script}'`);
    let seen = false;
    for (let i = 0; i < 6000 && !seen && !existsSync(rc); i++) {
      seen = filesUnder(out).some((f) => !(f in before) && /letter-.*\.pdf/.test(f));
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    tmux('kill-server');
    process.kill(Number(readFileSync(pid, 'utf8')), 'SIGHUP');
    expect(seen).toBe(true);
    for (let i = 0; i < 600 && !existsSync(rc); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(rc, 'utf8').trim()).toBe('130');
    expect(snapshot(out)).toEqual(before);
    expect(filesUnder(env.METERDATA_HOME!).filter((f) => /\.lock$/.test(f))).toEqual([]);
    const again = await runBin([...args, '--out', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(filesUnder(path.join(out, '2025-11')).sort()).toEqual(manifestFiles(path.join(out, '2025-11')));
  }, 400_000);
});
