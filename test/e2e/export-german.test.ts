// The built binary in a German run: `meterdata export --lang de` (its walk and workbook in
// worker threads, which get the run's language), `--all-profiles`, and
// `LANG=de_DE.UTF-8 meterdata demo`. Needs `npm run build` (npm test does it).
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { findEnglish } from '../helpers/catalogues.js';
import { tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedIn({
    units: 30,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [
      { name: 'default', tenant: 0 },
      { name: 'sued', tenant: 1 },
    ],
    homePrefix: 'md-e2e-de-',
    env: { SOURCE_DATE_EPOCH: '1767225600' },
  }));
}, 60_000);
afterAll(async () => sandbox?.close());

async function sheetRows(file: string): Promise<unknown[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  // the rows of every sheet: the About sheet's name and place are the layout's business
  return wb.worksheets.flatMap((ws) =>
    ws
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1)),
  );
}

describe('the built binary in German', () => {
  it('meterdata export --year 2025 --lang de: German lines, and the About sheet built in the worker thread in German too', async () => {
    const out = path.join(home, 'de');
    const r = await runBin(['export', '--year', '2025', '--out', out, '--lang', 'de', '--rate-limit', '3000'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Liegenschaft 1\/\d+ „.+“: /m);
    expect(r.stderr).toContain(`${out} geschrieben für 01.01.2025 bis 31.12.2025: billing.csv (`);
    expect(r.stderr).toMatch(/^Hinweise: \d+ nicht abgerechnet, \d+ zu prüfen, \d+ nur zur Information \(siehe review\.csv\)$/m);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
    const about = await sheetRows(path.join(out, 'billing.xlsx'));
    expect(about).toContainEqual(['Von', '01.01.2025']);
    expect(about).toContainEqual(['Exportzeit (UTC)', '01.01.2026 00:00:00']);
  }, 90_000);

  it('LANG=de_DE.UTF-8 meterdata export --all-profiles: each profile in German', async () => {
    const out = path.join(home, 'de-all');
    const r = await runBin(['export', '--year', '2025', '--all-profiles', '--out', out, '--rate-limit', '3000'], { ...env, LANG: 'de_DE.UTF-8' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sued: Liegenschaft 1\/\d+ „/m);
    expect(r.stderr).toMatch(/^Profil default: exportiert in \d+,\d s: /m);
    expect(r.stderr).toMatch(/^Profil sued: exportiert in \d+,\d s: /m);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 90_000);

  it('LANG=de_DE.UTF-8 meterdata demo: sign-in, export and findings in German', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-demo-de-'));
    const r = await runBin(['demo', '--units', '30'], { METERDATA_HOME: cwd, LANG: 'de_DE.UTF-8' }, { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^demo: Sandbox läuft unter http:\/\/127\.0\.0\.1:\d+; Anmeldung als Demo-Eigentümer …$/m);
    expect(r.stdout).toMatch(/meterdata-demo geschrieben für 01\.01\.2025 bis 31\.12\.2025: /);
    expect(r.stdout).toMatch(/\nHinweise nach Art:\n\s+\d+ × [A-Z_]+: /);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 90_000);
});
