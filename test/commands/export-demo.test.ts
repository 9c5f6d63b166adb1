import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { InterruptedError } from '../../src/core/errors.js';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { proxySandbox } from '../helpers/browser.js';
import { runCli } from '../helpers/run-cli.js';

it('meterdata demo signs in to the embedded sandbox and exports 2025', async () => {
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-demo-'));
  const r = await runCli(['demo', '--units', '30'], { cwd, env: { HOME: cwd } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^wrote .*meterdata-demo for 2025-01-01 to 2025-12-31: billing\.csv \(\d+ rows\)/);
  expect(r.stdout).toMatch(/findings:\n\s+\d+ × [A-Z_]+: /);
  expect((await readdir(path.join(cwd, 'meterdata-demo'))).sort()).toEqual([
    'billing.csv',
    'billing.xlsx',
    'meterdata-manifest.json',
    'plant-points.csv',
    'plausibility.csv',
    'readings.csv',
    'review.csv',
    'segments.csv',
  ]);
  // the throw-away sign-in is gone: nothing was written to the user's own meterdata folders
  expect((await readdir(cwd)).sort()).toEqual(['meterdata-demo']);
}, 60_000);

it('meterdata demo rejects a bad --units before starting anything', async () => {
  const r = await runCli(['demo', '--units', 'many']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('meterdata: --units: "many" is not a number of units from 1 to 50000.\n  Example: --units 60\n');
  // Read as the flags are parsed: refused before --out is looked at.
  const both = await runCli(['demo', '--units', '0', '--out', '/dev/null/demo']);
  expect(both.stderr).toMatch(/^meterdata: --units: "0" is not a number of units/);
});

it('Ctrl-C during the demo sandbox sign-in: an interruption, not an unhandled rejection that crashes the process', async () => {
  const sb = await startSandbox({ autoConsent: true, clock: '2026-11-22' });
  const proxy = await proxySandbox(sb.url);
  const unhandled: unknown[] = [];
  const collect = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', collect);
  try {
    const ctrlC = new AbortController();
    // The browser stand-in is on its way to the consent page when Ctrl-C comes.
    proxy.intercept = async (r) => {
      if (r.path === '/oauth/authorize') ctrlC.abort(new InterruptedError('Interrupted by SIGINT.'));
      return undefined;
    };
    const env = { METERDATA_HOME: await mkdtemp(path.join(os.tmpdir(), 'md-demo-int-')) };
    await expect(headlessLogin({ authUrl: proxy.url, baseUrl: `${sb.url}/v1`, env, signal: ctrlC.signal })).rejects.toMatchObject({
      exitCode: 130,
      message: 'Interrupted by SIGINT.',
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', collect);
    await proxy.close();
    await sb.close();
  }
});
