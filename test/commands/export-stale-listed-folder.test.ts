// When an export replaces the one in its --out, the files the old manifest listed that this
// run does not write are removed (staleFiles, src/export/folder/out-folder.ts; AtomicOutput.commit,
// src/export/folder/atomic.ts). A name there that is a folder (a planted or edited manifest; anyone
// who can write into a shared --out) makes rm throw EISDIR after the old manifest was moved
// aside: exit 1 "unexpected failure (this is a bug)" with a stack, the folder left without a
// manifest, and every re-run failed the same way until the folder was removed. meterdata writes
// only regular files, so a listed folder, link or FIFO is not its own: left where it is.
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', units: 6, rateLimitPerMinute: 0 });
  home = await mkdtemp(path.join(os.tmpdir(), 'md-stale-folder-'));
  env = { METERDATA_HOME: home };
  await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: AbortSignal.timeout(30_000) });
});
afterAll(async () => sandbox?.close());

describe('an --out whose manifest lists a name that is a folder', () => {
  it('is replaced leaving that folder (and a listed link and FIFO) where they are, never an unexpected failure that leaves the folder without a manifest', async () => {
    const out = path.join(home, 'out');
    const args = ['export', '--year', '2024', '--format', 'csv', '--out', out, '--quiet', '--rate-limit', '10000'];
    expect((await runCli(args, { env, cwd: home })).code).toBe(0);
    const file = path.join(out, 'meterdata-manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as { files: { name: string }[] };
    manifest.files.push({ name: 'sub' }, { name: 'link' }, { name: 'fifo' }, { name: 'old.csv' });
    await writeFile(file, JSON.stringify(manifest));
    await mkdir(path.join(out, 'sub'));
    await writeFile(path.join(home, 'target.txt'), "the user's");
    await symlink(path.join(home, 'target.txt'), path.join(out, 'link'));
    execFileSync('mkfifo', [path.join(out, 'fifo')]);
    await writeFile(path.join(out, 'old.csv'), 'a table this run no longer writes');
    const r = await runCli(args, { env, cwd: home });
    expect(r.stderr).not.toContain('unexpected failure');
    expect(r.code).toBe(0);
    const left = await readdir(out);
    expect(left).toContain('meterdata-manifest.json');
    expect(left).toEqual(expect.arrayContaining(['sub', 'link', 'fifo']));
    expect(left).not.toContain('old.csv'); // a listed regular file this run does not write still goes
    expect((await lstat(path.join(out, 'sub'))).isDirectory()).toBe(true);
    expect(await readFile(path.join(home, 'target.txt'), 'utf8')).toBe("the user's");
    // and the next run again
    expect((await runCli(args, { env, cwd: home })).code).toBe(0);
  });
});
