// The portfolio export against the impatient operator and the dying process (issue 15):
// Ctrl-C, a TERM, a HUP (the terminal closed) or kill -9 while the workbook workers write. No final file written half,
// no scratch file left after a signal (a kill -9 leaves its scratch files to the re-run,
// which removes them), and the re-run finishes every profile. Needs `npm run build`.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';
import { assertBuilt } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '6000', '--format', 'xlsx', '--profiles', 'nord,sued'];
let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedIn({
    units: 300,
    admin: true,
    rateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [
      { name: 'nord', tenant: 0 },
      { name: 'sued', tenant: 1 },
    ],
    homePrefix: 'md-portfolio-signals-',
    env: { SOURCE_DATE_EPOCH: '1767225600' },
  }));
}, 60_000);
afterAll(async () => sandbox?.close());

/** Every file under `dir`, relative. */
async function files(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

/** Runs the portfolio into `out` and sends `signal` once a workbook worker has begun a workbook. */
async function interrupted(out: string, signal: NodeJS.Signals) {
  let child: ChildProcess | undefined;
  let sent = false;
  // Bounded: the poll ends with the run (at most the run's own timeout).
  const poll = setInterval(() => {
    if (sent || !child) return;
    // one signal only: with both profiles' workbooks begun in the same tick (a loaded machine) the loop sent two, and a
    // second signal ends the run at once, leaving its scratch files (as documented): the test's, not the run's, fault
    for (const p of ['nord', 'sued']) {
      if (!sent && existsSync(path.join(out, p, '.billing.xlsx.partial'))) sent = child.kill(signal);
    }
  }, 5);
  const run = await runBin([...ARGS, '--out', out], env, { cwd: home, timeoutMs: 120_000, onStderr: (_t, c) => (child = c) }).finally(() =>
    clearInterval(poll),
  );
  expect(sent, run.stderr).toBe(true);
  return run;
}

/** The re-run with the same arguments finishes both profiles and leaves no scratch file. */
async function rerunFinishes(out: string): Promise<void> {
  const again = await runBin([...ARGS, '--out', out, '--quiet'], env, { cwd: home, timeoutMs: 120_000 });
  expect(again.code, again.stderr).toBe(0);
  for (const p of ['nord', 'sued']) expect(await readdir(path.join(out, p))).toContain('billing.xlsx');
  expect((await files(out)).filter((f) => f.endsWith('.partial'))).toEqual([]);
}

describe.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s while the workbook workers write', (signal) => {
  it('exit 130, no workbook and no scratch file left behind; the re-run finishes both profiles', async () => {
    const out = path.join(home, `out-${signal}`);
    const run = await interrupted(out, signal);
    expect(run.code, run.stderr).toBe(130);
    const left = (await files(out)).filter((f) => f !== 'portfolio-summary.csv');
    expect(left.filter((f) => f.endsWith('.partial'))).toEqual([]);
    expect(left.filter((f) => f.endsWith('billing.xlsx'))).toEqual([]);
    await rerunFinishes(out);
  }, 300_000);
});

describe('kill -9 while the workbook workers write', () => {
  it('no workbook under its final name; the re-run removes the scratch files and finishes both profiles', async () => {
    const out = path.join(home, 'out-SIGKILL');
    const run = await interrupted(out, 'SIGKILL');
    expect(run.signal).toBe('SIGKILL');
    expect((await files(out)).filter((f) => f.endsWith('billing.xlsx'))).toEqual([]);
    await rerunFinishes(out);
  }, 300_000);
});
