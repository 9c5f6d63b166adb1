// Two accounts (two METERDATA_HOMEs: a cron user and a clerk, two clerks on a file server) exporting
// into one shared --out. Each account's lock lives in its own state folder, so both used to write
// into the folder and each removed the other's temporary files: both failed, one of them with
// "unexpected failure (this is a bug)". The lock inside the folder lets one run in; the other is
// refused (EXPORT_OUT_BUSY, exit 2, naming the process that holds it) and the folder holds one
// complete export, with no lock left in it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let envA: NodeJS.ProcessEnv;
let envB: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env: envA } = await signedInNord('md-two-homes-a-'));
  ({ env: envB } = await signedIn({
    at: sandbox,
    profiles: [{ name: 'nord', tenant: 0 }],
    homePrefix: 'md-two-homes-b-',
    env: { SOURCE_DATE_EPOCH: '1795000000' },
  }));
}, 120_000);
afterAll(async () => sandbox?.close());

const exportRun = (year: string, out: string) => ['export', '--year', year, '--format', 'csv', '--rate-limit', '60', '--profile', 'nord', '--out', out];

async function binary(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const run = promisify(execFile)(process.execPath, [path.resolve('bin/meterdata.js'), ...argv], {
    env: { ...process.env, ...env },
    cwd: home,
    timeout: 240_000,
  });
  return run.then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** The folder holds exactly the files its manifest lists (with their bytes), of `year`, and nothing else. */
async function oneCompleteExport(out: string, year: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8')) as {
    files: { name: string; sha256: string }[];
    identity: { from?: string };
  };
  expect(JSON.stringify(manifest.identity)).toContain(`${year}-01-01`);
  for (const f of manifest.files)
    expect(
      createHash('sha256')
        .update(await readFile(path.join(out, f.name)))
        .digest('hex'),
      f.name,
    ).toBe(f.sha256);
  expect((await readdir(out)).sort()).toEqual([...manifest.files.map((f) => f.name), 'meterdata-manifest.json'].sort());
}

const refusal = (out: string) => `meterdata: Another \`meterdata export\` or \`meterdata uvi\` is writing to ${out}; one run owns a folder at a time.`;

describe('two homes exporting into one --out', () => {
  it('the second, started while the first runs, is refused naming the first (exit 2); the first completes alone', async () => {
    const out = path.join(home, 'shared-staggered');
    const before = sandbox.log.total;
    const running = runCli(exportRun('2025', out), { env: envA, cwd: home });
    while (sandbox.log.total < before + 3) await new Promise((r) => setTimeout(r, 100));
    const refused = await binary(exportRun('2024', out), envB);
    const done = await running;
    expect([done.code, refused.code], refused.stderr + done.stderr).toEqual([0, 2]);
    expect(refused.stderr.trim().split('\n')[0]).toBe(refusal(out));
    expect(refused.stderr).toContain(`process ${process.pid} on ${os.hostname()}`);
    expect(refused.stderr).not.toMatch(/\n\s+at |this is a bug/);
    await oneCompleteExport(out, '2025');
  }, 300_000);

  it('started together: one is refused (exit 2), the other completes; the folder holds its export only', async () => {
    const out = path.join(home, 'shared-together');
    const [a, b] = await Promise.all([binary(exportRun('2025', out), envA), binary(exportRun('2024', out), envB)]);
    expect([a.code, b.code].sort(), a.stderr + b.stderr).toEqual([0, 2]);
    const [won, lost] = a.code === 0 ? ['2025', b] : ['2024', a];
    expect(lost.stderr.trim().split('\n')[0]).toBe(refusal(out));
    expect(lost.stderr).not.toMatch(/\n\s+at |this is a bug/);
    await oneCompleteExport(out, won);
  }, 300_000);
});
