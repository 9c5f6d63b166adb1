// A portfolio (--profiles, --all-profiles) writes <out>/<profile>/… and its summary into <out>, but
// held only each profile's folder: a single-profile run into that --out, or a second portfolio,
// started while it ran passed its checks (nothing written yet) and wrote into the same folder. The
// portfolio now holds the lock of its --out root for the whole run, the lock a single run into that
// folder takes: the other is refused with EXPORT_OUT_BUSY (exit 2), and the folder holds one run's
// files. The first runs in this process at 60 requests a minute; the others, the built binary, start
// after its third request.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dirs } from '../../src/core/paths.js';
import { FOLDER_LOCK } from '../../src/export/folder/index.js';
import { lockOutFolder } from '../../src/export/journal/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-portfolio-out-lock-'));
});
afterAll(async () => sandbox?.close());

const exportOf = (who: string[], rate: string, out: string) => ['export', ...who, '--year', '2025', '--format', 'csv', '--rate-limit', rate, '--out', out];
const uviOf = (who: string[], rate: string, out: string) => ['uvi', ...who, '--month', '2025-11', '--rate-limit', rate, '--out', out];
const busy = (out: string) => `meterdata: Another \`meterdata export\` or \`meterdata uvi\` is writing to ${out}; one run owns a folder at a time.`;

async function binary(argv: string[]): Promise<{ code: number; stderr: string }> {
  const run = promisify(execFile)(process.execPath, [path.resolve('bin/meterdata.js'), ...argv], { env: { ...process.env, ...env }, cwd: home });
  return run.then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

async function afterRequests(n: number): Promise<void> {
  const until = sandbox.log.total + n;
  while (sandbox.log.total < until) await new Promise((r) => setTimeout(r, 100));
}

describe('a portfolio holds its --out root for the whole run', () => {
  it.each([
    ['export', exportOf, ['nord', 'portfolio-summary.csv']],
    ['uvi', uviOf, ['nord', 'portfolio-summary.csv']],
  ] as const)(
    '%s: a single run and a second portfolio into its --out, started while it runs, are refused (exit 2, one line naming the folder); its folder holds only its own files, and the lock is free after it',
    async (name, command, has) => {
      const out = path.join(home, `running-${name}`);
      const running = runCli(command(['--profiles', 'nord'], '60', out), { env, cwd: home });
      await afterRequests(3);
      const [single, second] = await Promise.all([binary(command(['--profile', 'nord'], '3000', out)), binary(command(['--all-profiles'], '3000', out))]);
      const done = await running;
      expect([done.code, single.code, second.code], `${done.stderr}\n${single.stderr}\n${second.stderr}`).toEqual([0, 2, 2]);
      for (const refused of [single, second]) {
        expect(refused.stderr.trim().split('\n')[0]).toBe(busy(out));
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      }
      expect((await readdir(out)).sort()).toEqual(has);
      // released at the end: the next run into that folder takes it
      await (await lockOutFolder(dirs(env).state, out)).unlock();
    },
    300_000,
  );

  it.each([
    ['export --profiles', (out: string) => exportOf(['--profiles', 'nord'], '3000', out)],
    ['export --all-profiles', (out: string) => exportOf(['--all-profiles'], '3000', out)],
    ['uvi --profiles', (out: string) => uviOf(['--profiles', 'nord'], '3000', out)],
  ])('%s into a folder another run holds is refused before any request with EXPORT_OUT_BUSY, and leaves the lock to its holder', async (_n, argv) => {
    const out = path.join(home, `held-${_n.replace(/\W+/g, '-')}`);
    // as a live process holds it: this process, its start time in the file
    const held = await lockOutFolder(dirs(env).state, out);
    const before = sandbox.log.total;
    const r = await runCli([...argv(out), '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ outcome: 'failed', exit_code: 2, error: { code: 'EXPORT_OUT_BUSY' } });
    expect(r.stderr.split('\n')[0]).toBe(busy(out));
    expect(sandbox.log.total).toBe(before);
    expect(await readdir(out)).toEqual([FOLDER_LOCK]); // the holder's lock only, which made the folder
    expect(existsSync(held.file)).toBe(true);
    await held.unlock();
    expect(existsSync(out)).toBe(false); // and took it away, empty
  });

  it('a portfolio holds the root while it runs and releases it when a signal stops it', async () => {
    const out = path.join(home, 'stopped');
    const stop = new AbortController();
    const running = runCli(exportOf(['--profiles', 'nord'], '60', out), { env, cwd: home, signal: stop.signal });
    await afterRequests(2);
    await expect(lockOutFolder(dirs(env).state, out)).rejects.toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    stop.abort();
    expect((await running).code).toBe(130);
    await (await lockOutFolder(dirs(env).state, out)).unlock();
  }, 120_000);
});
