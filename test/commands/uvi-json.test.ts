// `meterdata uvi --json` in-process against the sandbox's Wohnbau Rheinblick eG: one summary
// object on stdout (the month, the folder, the files as the manifest lists them, the letters,
// the units to check, the requests), the German layout with the ERP's numbers on uvi.csv and the letter, and a
// refused flag as the one error object every command gives with --json.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, type SignedIn } from '../helpers/signed-in.js';
import { runCli } from '../helpers/run-cli.js';
import { requireTool } from '../helpers/tools.js';

let si: SignedIn;
beforeAll(async () => {
  si = await signedIn({ autoConsentTenant: 'Wohnbau Rheinblick eG', homePrefix: 'md-uvi-json-' });
}, 120_000);
afterAll(async () => si?.close());

describe('meterdata uvi --json', () => {
  it('prints one summary object: the month, <out>/<month>, every file of the manifest, 16 letters, the units to check, the requests', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'md-uvi-json-out-'));
    const r = await runCli(['uvi', '--month', '2025-11', '--out', out, '--json', '--quiet'], { env: si.env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const s = JSON.parse(lines[0]!) as Record<string, unknown> & {
      files: { name: string }[];
      counts: { units: number; properties: number; plant_points: number };
    };
    const dir = path.join(out, '2025-11');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8')) as { files: unknown[]; flags: unknown };
    expect(s).toMatchObject({
      month: '2025-11',
      out: dir,
      tenant: 'Wohnbau Rheinblick eG',
      letters: 16,
      resumed: false,
      exit_code: 0,
      range: { from: '2024-11-01', to: '2025-11-30' },
    });
    expect(s.files).toEqual(manifest.files);
    expect(s.counts).toMatchObject({ properties: 3, units: 16 });
    // WE 06 without floor area and Am Leinpfad 3's four flats without a plant heat meter.
    expect(s.incomplete_units).toBe(5);
    // The manifest counts review.csv's lines (before: billing's findings of the 13 months, which no file lists).
    const reviewLines = readFileSync(path.join(dir, 'review.csv'), 'utf8').trim().split('\n').length - 1;
    expect(reviewLines).toBeGreaterThan(0);
    expect(manifest).toMatchObject({ flags: { not_billed: 0, review: reviewLines, info: 0 }, counts: { rows: { 'uvi-review': reviewLines } } });
    // One consumption request per unit for the 13 months, one per plant point, and the lists (pages).
    expect(s.requests).toBeLessThanOrEqual(16 + s.counts.plant_points + 3 * 2 + 2);
  });

  it('--template de --lang de --unit-refs: German columns and numbers, the ERP number in uvi.csv and on the letter, review.csv in German', async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const first = await mkdtemp(path.join(os.tmpdir(), 'md-uvi-de-'));
    const plain = await runCli(['uvi', '--month', '2025-11', '--out', first, '--quiet'], { env: si.env });
    expect(plain.code, plain.stderr).toBe(0);
    const rows = JSON.parse(readFileSync(path.join(first, '2025-11', 'uvi.json'), 'utf8')) as {
      usage_unit_id: string;
      usage_unit_name: string;
      property_name: string;
    }[];
    const we01 = rows.find((r) => r.property_name === 'Rheinuferstraße 12' && r.usage_unit_name === 'WE 01')!;
    const refs = path.join(first, 'refs.csv');
    writeFileSync(refs, `usage_unit_id,erp_ref\n${we01.usage_unit_id},ERP-4711\n`);
    const out = path.join(first, 'de');
    const r = await runCli(['uvi', '--month', '2025-11', '--out', out, '--template', 'de', '--lang', 'de', '--unit-refs', refs], { env: si.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('16 Schreiben für 16 Nutzeinheiten in 3 Liegenschaften');
    const dir = path.join(out, '2025-11');
    const [head, ...lines] = readFileSync(path.join(dir, 'uvi.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cols = head!.split(';');
    expect(cols).toEqual(expect.arrayContaining(['ERP-Nummer', 'Verbrauch']));
    const mine = lines.map((l) => l.split(';')).filter((c) => c[cols.indexOf('ERP-Nummer')] === 'ERP-4711');
    expect(mine).toHaveLength(3 * 13);
    // a decimal comma in the German layout
    expect(mine.find((c) => c[cols.indexOf('Verbrauch')] !== '')![cols.indexOf('Verbrauch')]).toMatch(/^\d+(,\d+)?$/);
    expect(readFileSync(path.join(dir, 'review.csv'), 'utf8')).toMatch(/Fläche|Hauptwärmezähler|Wärmezähler/);
    const letter = readdirSync(dir).find((n) => n.startsWith('letter-Rheinuferstraße_12-WE_01-'))!;
    expect(execFileSync('pdftotext', [path.join(dir, letter), '-'], { encoding: 'utf8' })).toContain('ERP-4711');
  });

  it('a refused --month is the error object on stdout, exit 2', async () => {
    const r = await runCli(['uvi', '--month', '2025-13', '--json'], { env: si.env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ exit_code: 2, error: { code: 'UVI_MONTH_INVALID' } });
  });
});
