// The built binary: a range the service shortened and a run where no point has data each
// get a summary line of their own; the default folder and the manifest carry the
// effective range. Needs `npm run build` (npm test does it).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { startRewritingProxy } from '../helpers/rewriting-proxy.js';
import { signedIn } from '../helpers/signed-in.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The sandbox runs on this computer's date, so its "last completed month" is the binary's. */
const TODAY = new Date();
const YEAR = TODAY.getUTCFullYear();
const LAST_COMPLETED = new Date(Date.UTC(YEAR, TODAY.getUTCMonth(), 0)).toISOString().slice(0, 10);
/** A range the service must shorten in every month (in January `--year` would lie entirely after the last completed month: 400). */
const SHORTENED = { from: `${LAST_COMPLETED.slice(0, 4)}-01-01`, to: new Date(Date.UTC(YEAR, TODAY.getUTCMonth() + 1, 0)).toISOString().slice(0, 10) };

/** A completed year inside the sandbox's data (its horizon is 2026-12-31): the year before this one would have none from 2028 on. */
const PAST = 2025;
let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  ({ sandbox, home, env } = await signedIn({ clock: TODAY.toISOString().slice(0, 10), units: 8, homePrefix: 'md-e2e-range-', credentialStore: 'file' }));
}, 60_000);
afterAll(async () => sandbox?.close());

describe('the effective range', () => {
  it('shortened at the last completed month: a line of its own, the default folder and the manifest carry it', async () => {
    const r = await runBin(['export', '--from', SHORTENED.from, '--to', SHORTENED.to, '--format', 'csv'], { ...env }, { timeoutMs: 60_000, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('range shortened: '))).toEqual([
      expect.stringContaining(`requested ${SHORTENED.from} to ${SHORTENED.to}, the service answered for ${SHORTENED.from} to ${LAST_COMPLETED} `),
    ]);
    const folders = (await readdir(home)).filter((n) => n.startsWith('meterdata-'));
    expect(folders).toEqual([`meterdata-${SHORTENED.from}_${LAST_COMPLETED}`]);
    const manifest = JSON.parse(await readFile(path.join(home, folders[0]!, 'meterdata-manifest.json'), 'utf8'));
    expect(manifest.range).toEqual({ from: SHORTENED.from, to: LAST_COMPLETED });
    expect(manifest.requested_range).toEqual(SHORTENED);
    const billing = await readFile(path.join(home, folders[0]!, 'billing.csv'), 'utf8');
    expect(billing.split('\r\n')[1]).toContain(`,${SHORTENED.from},${LAST_COMPLETED},`);
  });

  it('no point has data: one line says so, exit 0', async () => {
    const token = (await runBin(['token'], env)).stdout.trim();
    const empty = (c: Record<string, unknown>) => ({ ...c, data_gap: true, segments: [] });
    const proxy = await startRewritingProxy(sandbox.url, (p, json) => {
      if (/\/consumption$/.test(p)) return { ...json, measuring_points: (json.measuring_points as Record<string, unknown>[]).map(empty) };
      return /\/readings$/.test(p) ? empty(json) : undefined;
    });
    const out = path.join(home, 'no-data');
    const r = await runBin(
      ['export', '--year', String(PAST), '--out', out],
      { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base },
      { timeoutMs: 60_000 },
    );
    await proxy.close();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('no data: '))).toEqual([
      expect.stringMatching(new RegExp(`^no data: none of the \\d+ measuring points has values for ${PAST}-01-01 to ${PAST}-12-31, so nothing was billed`)),
    ]);
    expect(r.stderr).toMatch(/flags: 0 not billed, \d+ to review/);
  });
});
