// The built binary and its --out folder: one export owns a folder at a time (two real
// processes with different arguments), a refused run leaves no folder behind, and a
// folder that cannot be written is refused before any request. Needs `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { BIN, runBin } from '../helpers/bin.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 60, homePrefix: 'md-e2e-folder-' }));
});
afterAll(async () => sandbox?.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('one export owns an --out folder at a time', () => {
  it('a second export with other arguments into the same --out is refused with exit 2 while the first writes; the first one’s files match its manifest', async () => {
    const out = path.join(home, 'shared');
    let startSecond!: () => void;
    const firstIsWriting = new Promise<void>((r) => (startSecond = r));
    // --rate-limit keeps the first one busy (about 20 s) long enough for the second to meet it,
    // even on a loaded machine where starting the second process takes seconds
    const first = runBin(['export', '--year', '2025', '--out', out, '--rate-limit', '150'], env, {
      timeoutMs: 80_000,
      onStderr: (text) => {
        if (/property 1\//.test(text)) startSecond();
      },
    });
    await Promise.race([firstIsWriting, first]);
    const second = await runBin(['export', '--year', '2024', '--format', 'csv', '--out', out], env, { timeoutMs: 60_000 });
    const a = await first;
    expect(a.code, a.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`Another \`meterdata export\` or \`meterdata uvi\` is writing to ${out}; one run owns a folder at a time.`);
    expect(second.stderr).not.toMatch(/ENOENT|unexpected failure/);

    const manifest = JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8')) as {
      range: { from: string };
      files: { name: string; sha256: string }[];
    };
    expect(manifest.range.from).toBe('2025-01-01');
    expect((await readdir(out)).sort()).toEqual([...manifest.files.map((f) => f.name), 'meterdata-manifest.json'].sort());
    for (const f of manifest.files) expect(sha(await readFile(path.join(out, f.name))), f.name).toBe(f.sha256);
  }, 90_000);

  it('a run the server refuses (--year 2030) leaves no folder behind', async () => {
    const out = path.join(home, 'future', 'deeper');
    const r = await runBin(['export', '--year', '2030', '--out', out], env, { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(existsSync(path.join(home, 'future'))).toBe(false);
  });
});

describe('an --out that cannot be written is refused before any request (exit 2, naming the folder)', () => {
  // Tests run as root, where chmod does not stop a write: /proc/sys refuses even root
  // (EACCES), a read-only tmpfs mounted in a private mount namespace refuses it (EROFS),
  // and a path under a file fails for everyone. No request is made: the
  // process has no sign-in (an empty METERDATA_HOME) and still gets exit 2, not 3.
  const unsigned = async () => ({ METERDATA_HOME: await mkdtemp(path.join(os.tmpdir(), 'md-e2e-unsigned-')) });

  it('permission denied', async () => {
    const r = await runBin(['export', '--year', '2025', '--out', '/proc/sys/meterdata-out'], await unsigned(), { timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--out /proc/sys/meterdata-out cannot be written (in /proc/sys): permission denied.');
  });

  it('read-only file system (a read-only tmpfs in a private mount namespace: refuses root too)', async () => {
    const e = await unsigned();
    const ro = path.join(e.METERDATA_HOME, 'ro');
    await mkdir(ro);
    const out = path.join(ro, 'out');
    // unshare gives the child its own mount table, so the read-only mount never shows outside it.
    const script = `mount -t tmpfs -o ro meterdata-ro "$1" && exec "$2" "$3" export --year 2025 --out "$4"`;
    const r = spawnSync('unshare', ['--mount', 'sh', '-c', script, 'sh', ro, process.execPath, BIN, out], {
      env: { PATH: process.env.PATH, ...e },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--out ${out} cannot be written (in ${ro}): it is on a read-only file system.`);
  });

  it('--out is a file', async () => {
    const e = await unsigned();
    const file = path.join(e.METERDATA_HOME, 'a-file');
    await writeFile(file, 'x');
    const r = await runBin(['export', '--year', '2025', '--out', file], e, { timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--out ${file} is a file, not a folder.`);
    expect(r.stderr).not.toMatch(/other arguments/);
    const under = await runBin(['export', '--year', '2025', '--out', path.join(file, 'sub')], e, { timeoutMs: 30_000 });
    expect(under.code, under.stderr).toBe(2);
    expect(under.stderr).toContain(`--out ${path.join(file, 'sub')} cannot be created: ${file} is a file, not a folder.`);
  });
});

describe('a disk that fills up during the export (a small tmpfs in a private mount namespace)', () => {
  it('exit 1 with one line naming the file and "the disk is full", nothing under a final name; with room again the same command finishes it, the bytes of an uninterrupted export', async () => {
    const whole = path.join(home, 'whole');
    const ok = await runBin(['export', '--year', '2025', '--format', 'csv', '--out', whole], env, { timeoutMs: 60_000 });
    expect(ok.code, ok.stderr).toBe(0);
    const mnt = path.join(home, 'small-disk');
    await mkdir(mnt);
    const out = path.join(mnt, 'out');
    const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-full-'));
    // 32 KiB take the folder check and the first rows, not the export; the remount gives room
    // for the same command again, in the same namespace (the tmpfs goes with it)
    const script = [
      'mount -t tmpfs -o size=32k meterdata-full "$1" || exit 90',
      '"$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/first.err"; echo $? >"$5/first.code"',
      'ls -A "$4" >"$5/first.ls" 2>/dev/null',
      'mount -o remount,size=64m "$1" || exit 91',
      '"$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/second.err"; echo $? >"$5/second.code"',
      'cp "$4/billing.csv" "$5/billing.csv"',
    ].join('\n');
    // not spawnSync: the sandbox answering these exports runs in this process
    const child = spawn('unshare', ['--mount', 'sh', '-c', script, 'sh', mnt, process.execPath, BIN, out, logs], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 120_000,
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const [status] = (await once(child, 'close')) as [number | null];
    expect(status, err).toBe(0);
    const first = await readFile(path.join(logs, 'first.err'), 'utf8');
    expect((await readFile(path.join(logs, 'first.code'), 'utf8')).trim(), first).toBe('1');
    expect(first).toMatch(
      new RegExp(
        `^meterdata: A file of this run could not be written \\(${out}/[^)]+\\): the disk is full\\. The export stopped after \\d+ of \\d+ Propert`,
        'm',
      ),
    );
    expect(first).toContain('  Free space on that disk (or make it writable again). Run the same command again to continue: what was fetched is kept.');
    expect(first).not.toMatch(/unexpected|^\s+at /m);
    expect((await readFile(path.join(logs, 'first.ls'), 'utf8')).trim()).toBe(''); // no file under a final name, no scratch file left
    const second = await readFile(path.join(logs, 'second.err'), 'utf8');
    expect((await readFile(path.join(logs, 'second.code'), 'utf8')).trim(), second).toBe('0');
    expect(await readFile(path.join(logs, 'billing.csv'), 'utf8')).toBe(await readFile(path.join(whole, 'billing.csv'), 'utf8'));
  }, 150_000);
});
