// The built `meterdata browse` in a real terminal (tmux) against the sandbox: a clerk
// finds flat WE 03's replaced heat meter and WE 09's months with an expired
// calibration (docs/sandbox-data.md, Property "Musterstraße 1-5"), reads why, exports, quits.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headlessLogin } from '../../src/export/sandbox-login.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { requireTool } from '../helpers/tools.js';

const bin = new URL('../../bin/meterdata.js', import.meta.url).pathname;
// A server of our own, so the test never touches anyone's tmux sessions.
const socket = `meterdata-browse-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const pane = () => tmux('capture-pane', '-p', '-t', 'browse');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the pane (at most 150 x 100 ms) until `pred` holds. */
async function waitFor(pred: (p: string) => boolean, what: string): Promise<string> {
  let last = '';
  for (let i = 0; i < 150; i++) {
    last = pane();
    if (pred(last)) return last;
    await sleep(100);
  }
  throw new Error(`the browser never showed ${what}; the pane was:\n${last}`);
}

/** One key (or one typed word) at a time, as a person would. */
async function keys(...ks: string[]) {
  for (const k of ks) {
    tmux('send-keys', '-t', 'browse', k);
    await sleep(200);
  }
}

let sandbox: Sandbox | undefined;
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // not started (tmux missing) or already gone
  }
  await sandbox?.close();
});

describe('meterdata browse in a terminal', () => {
  it('walks from the Properties to a replaced meter and an expired calibration, explains the flag and quits', async (ctx) => {
    requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
    expect(existsSync(new URL('../../dist/cli.js', import.meta.url)), 'build first: npm run build').toBe(true);
    sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22' });
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-browse-'));
    await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env: { METERDATA_HOME: home }, signal: AbortSignal.timeout(60_000) });

    const command = `cd ${home} && env METERDATA_HOME=${home} NO_COLOR=1 ${process.execPath} ${bin} browse --year 2025; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', 'browse', '-x', '100', '-y', '30', command);

    const list = await waitFor((p) => p.includes('Musterstraße 1-5') && p.includes('q quit'), 'the Properties');
    expect(list).toMatch(/Property\s+Address\s+Units\s+Flags/);
    expect(list).toMatch(/Musterstraße 1-5\s+Musterstraße 1, 22085 Hamburg \(\+3\)\s+21\s+…/);

    await keys('/', 'Musterstraße 1-5', 'Enter', 'Enter');
    const property = await waitFor((p) => p.includes('Plant-room and main meters'), 'the units of Musterstraße 1-5');
    expect(property).toContain('Units (21)');
    expect(property).toMatch(/WE 03\s+residential\s+1\. OG links\s+heat [\d.]+ kWh/);

    await keys('/', 'WE 03', 'Enter', 'Enter');
    const we03 = await waitFor((p) => p.includes('Musterstraße 1-5 › WE 03') && p.includes('Months:'), 'unit WE 03');
    expect(we03).toContain('removed 2025-06-15 · reason DeviceReplacement');
    expect(we03).toMatch(/Device WMZ-\d+ · installed 2025-06-15 · factor 1/);
    expect(we03).toContain('baseline 12.5 on 2025-06-15 (recorded)');
    expect(we03).toMatch(/Jan\s+Feb\s+Mar\s+Apr\s+May\s+Jun\s+Jul\s+Aug\s+Sep\s+Oct\s+Nov\s+Dec/);
    expect(we03).toMatch(/\[i\] Device replaced during the period \(WMZ-\d+\)/);

    await keys('Escape', 'Escape');
    await waitFor((p) => p.includes('Units (21)') && !p.includes('Filtered by'), 'the whole unit list again');
    await keys('/', 'WE 09', 'Enter', 'Enter');
    const we09 = await waitFor((p) => p.includes('› WE 09') && p.includes('Months:'), 'unit WE 09');
    expect(we09).toContain('billable 0 · X calibration expired');
    expect(we09).toMatch(/ M {4}M {4}M {4}M {4}M {4}M {4}M {4}X {4}X {4}X {4}X {4}X/);
    expect(we09).toMatch(/\[!\] Calibration expired/);

    await keys('j', 'j', 'i');
    const why = await waitFor((p) => p.includes('Why this is flagged'), 'the explanation of the flag');
    expect(why).toMatch(/\[!\] not billed: Calibration expired/);

    // `e` writes the export command's files for the Property, into the working folder
    await keys('Escape', 'e');
    await waitFor((p) => /Exported: \d+ files in \.\/meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5/.test(p), 'the export');
    const out = path.join(home, 'meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5');
    expect((await readdir(out)).sort()).toEqual(expect.arrayContaining(['billing.csv', 'billing.xlsx', 'review.csv', 'segments.csv']));
    expect(await readFile(path.join(out, 'billing.csv'), 'utf8')).toContain('WE 09');

    await keys('q');
    await waitFor((p) => p.includes('EXIT=0'), 'a clean exit with status 0');
  }, 90_000);
});
