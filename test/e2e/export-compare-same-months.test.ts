// The comparison period has the export's length: `--compare 2024` beside an export of March
// to September 2025 fetches March to September 2024 (before, round 16, the whole of 2024, and
// honest figures came out as CONSUMPTION_CHANGE by the hundred), and a comparison of another number of
// months is refused before any request. The built binary against the sandbox; needs `npm run build`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { signedIn } from '../helpers/signed-in.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONSUMPTION = 'GET /usage-units/{id}/consumption';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

const requests = () => [...sandbox.log.byEndpoint.values()].reduce((a, b) => a + b, 0);
const read = (dir: string, name: string) => readFile(path.join(home, dir, name), 'utf8');
async function changes(dir: string): Promise<number> {
  const [head, ...rows] = parseCsv(await read(dir, 'plausibility.csv'), ',');
  const checks = head!.indexOf('checks');
  return rows.filter((r) => (r[checks] ?? '').split('|').includes('CONSUMPTION_CHANGE')).length;
}

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  ({ sandbox, home, env } = await signedIn({ homePrefix: 'md-e2e-compare-months-', env: { SOURCE_DATE_EPOCH: '1767225600' } }));
}, 60_000);
afterAll(async () => sandbox?.close());

describe('export --compare YYYY beside a part of a year (built binary, sandbox)', () => {
  it('compares March to September with March to September 2024, as an explicit comparison of the same months does', async () => {
    const year = await runBin(['export', '--from', '2025-03-15', '--to', '2025-09-10', '--compare', '2024', '--out', path.join(home, 'year'), '--json'], env);
    expect(year.code, year.stderr).toBe(0);
    expect(year.stderr).toMatch(/comparing with 2024-03-01 to 2024-09-30:/);
    const manifest = JSON.parse(await read('year', 'meterdata-manifest.json'));
    expect(manifest.identity.review.compare).toEqual({ from: '2024-03-01', to: '2024-09-30' });

    const pair = ['--compare-from', '2024-03-01', '--compare-to', '2024-09-30'];
    const same = await runBin(['export', '--from', '2025-03-01', '--to', '2025-09-30', ...pair, '--out', path.join(home, 'pair'), '--json'], env);
    expect(same.code, same.stderr).toBe(0);
    // The same findings as the comparison of equal length (against the whole of 2024, the base build: 138 rows under the fingerprint clock).
    expect(await read('year', 'plausibility.csv')).toBe(await read('pair', 'plausibility.csv'));
    const n = await changes('year');
    expect(n).toBeLessThan(50);
  }, 300_000);

  it('refuses a comparison range or folder of another number of months before any request (exit 2, one line)', async () => {
    const before = requests();
    const range = ['export', '--from', '2025-03-01', '--to', '2025-09-30', '--compare-from', '2024-01-01', '--compare-to', '2024-12-31'];
    const a = await runBin([...range, '--out', path.join(home, 'x1')], env);
    expect(a.code).toBe(2);
    expect(a.stderr.split('\n')[0]).toBe(
      'meterdata: --compare-from 2024-01-01 --compare-to 2024-12-31 covers 12 months, the export 7 (2025-03-01 to 2025-09-30): periods of different length would show changes where there are none.',
    );
    expect(a.stderr).toContain('--compare-from 2024-03-01 --compare-to 2024-09-30');
    const de = await runBin([...range, '--out', path.join(home, 'x2'), '--lang', 'de'], env);
    expect(de.code).toBe(2);
    expect(de.stderr).toMatch(/umfasst 12 Monate, der Export 7 \(01\.03\.2025 bis 30\.09\.2025\)/);
    // the folder of March to September beside a whole year
    const folder = await runBin(['export', '--year', '2025', '--compare', path.join(home, 'year'), '--out', path.join(home, 'x3')], env);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/that export covers 7 months \(2025-03-01 to 2025-09-30\), this one 12/);
    expect(requests()).toBe(before);
    expect(sandbox.log.byEndpoint.get(CONSUMPTION)).toBeGreaterThan(0);
  }, 300_000);
});
