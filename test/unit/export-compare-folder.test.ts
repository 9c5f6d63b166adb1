// --compare DIR on hostile folders: every refusal is a UsageError (exit 2) naming the folder and what is wrong.
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WhoAmI } from '../../src/api/types.js';
import { ExitCode } from '../../src/core/errors.js';
import { loadComparisonFolder } from '../../src/export/folder/compare-folder.js';

const WHO: WhoAmI = { tenant_id: 't-1', tenant_name: 'Hausverwaltung Nordlicht GmbH', client_id: 'c', granted_scopes: [], property_scope: 'all' };
const P = '00000000-0000-4000-8000-000000000001';
const BILLING = `property_id,property_name,usage_unit_id,usage_unit_name,unit_type,metric,unit,from,to,billable_value,points,review_flags\r\n${P},"Haus, hinten",u-1,WE 01,residential,heat,kWh,2024-01-01,2024-12-31,1200.5,1,\r\n`;
const PLANT = `property_id,property_name,measuring_point_id,metric,unit,localization,is_difference_meter,is_system_linked,billable_value,status,review_flags\r\n${P},"Haus, hinten",mp-9,water_cold,m3,Keller,false,true,80,measured,UNALLOCATED_POINT\r\n`;

async function folder(
  opts: { manifest?: (m: Record<string, unknown>) => unknown; billing?: string; rawManifest?: string; files?: Record<string, string> } = {},
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-cmp-'));
  const files: Record<string, string> = opts.files ?? { 'billing.csv': BILLING, 'plant-points.csv': PLANT };
  const entries = Object.entries(files).map(([name, text]) => ({
    name,
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
  }));
  for (const [name, text] of Object.entries(files))
    await writeFile(path.join(dir, name), name === 'billing.csv' && opts.billing !== undefined ? opts.billing : text);
  const manifest = {
    tool: 'meterdata',
    identity: { template: 'generic' },
    tenant: { id: 't-1', name: WHO.tenant_name },
    range: { from: '2024-01-01', to: '2024-12-31' },
    files: entries,
  };
  await writeFile(path.join(dir, 'meterdata-manifest.json'), opts.rawManifest ?? JSON.stringify(opts.manifest ? opts.manifest(manifest) : manifest));
  return dir;
}

async function refusal(dir: string): Promise<{ message: string; code: string; exitCode: number }> {
  try {
    await loadComparisonFolder(dir, WHO);
  } catch (e) {
    return e as { message: string; code: string; exitCode: number };
  }
  throw new Error('the folder was accepted');
}

describe('loadComparisonFolder', () => {
  it("refuses a folder of the export's own period (the export's own folder given as --compare), exit 2", async () => {
    const dir = await folder();
    await expect(loadComparisonFolder(dir, WHO, { from: '2025-01-01', to: '2025-12-31' })).resolves.toMatchObject({
      range: { from: '2024-01-01', to: '2024-12-31' },
    });
    const e = (await loadComparisonFolder(dir, WHO, { from: '2024-01-01', to: '2024-12-31' }).catch((x: unknown) => x)) as {
      message: string;
      exitCode: number;
    };
    expect(e.message).toBe(
      `--compare ${dir}: that export covers 2024-01-01 to 2024-12-31, the period of this export itself: a comparison with itself shows no change.`,
    );
    expect(e.exitCode).toBe(ExitCode.USAGE);
  });

  it('reads the figures of an unchanged folder of this tenant, quoted names included', async () => {
    const c = await loadComparisonFolder(await folder(), WHO);
    expect(c.range).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(c.byProperty.get(P)!.map((f) => [f.kind, f.property_name, f.usage_unit_id ?? f.measuring_point_id, f.value, f.flags])).toEqual([
      ['unit', 'Haus, hinten', 'u-1', '1200.5', []],
      ['plant', 'Haus, hinten', 'mp-9', '80', ['UNALLOCATED_POINT']],
    ]);
  });

  // The `de` layout's headers before docs/glossary.md (Messart, Abrechenbarer Wert), as the sandbox's 2024 folder had them.
  const OLD_DE_BILLING = `\uFEFFLiegenschaft-ID;Liegenschaft;Nutzeinheit-ID;Nutzeinheit;Art der Nutzeinheit;Messart;Einheit;Von;Bis;Abrechenbarer Wert;Messstellen;Prüfhinweise\r\n${P};Haus;u-1;WE 01;Wohnen;Wärme;kWh;01.01.2024;31.12.2024;1200,5;1;\r\n`;
  const OLD_DE_PLANT = `\uFEFFLiegenschaft-ID;Liegenschaft;Messstellen-ID;Messart;Einheit;Einbauort;Differenzzähler;Systemzuordnung;Abrechenbarer Wert;Status;Prüfhinweise\r\n${P};Haus;mp-9;Kaltwasser;m³;Keller;nein;ja;80;gemessen;UNALLOCATED_POINT\r\n`;

  it('reads a `de` folder written with the former headers (Messart, Abrechenbarer Wert)', async () => {
    const dir = await folder({
      files: { 'billing.csv': OLD_DE_BILLING, 'plant-points.csv': OLD_DE_PLANT },
      manifest: (m) => ({ ...m, identity: { template: 'de' } }),
    });
    const c = await loadComparisonFolder(dir, WHO);
    expect(c.byProperty.get(P)!.map((f) => [f.kind, f.metric, f.unit, f.value, f.flags])).toEqual([
      ['unit', 'heat', 'kWh', '1200.5', []],
      ['plant', 'water_cold', 'm3', '80', ['UNALLOCATED_POINT']],
    ]);
    // and one with today's headers
    const now = (csv: string) => csv.replaceAll('Messart', 'Verbrauchsart').replaceAll('Abrechenbarer Wert', 'Abrechenbarer Verbrauch');
    const today = await folder({
      files: { 'billing.csv': now(OLD_DE_BILLING), 'plant-points.csv': now(OLD_DE_PLANT) },
      manifest: (m) => ({ ...m, identity: { template: 'de' } }),
    });
    expect((await loadComparisonFolder(today, WHO)).byProperty.get(P)!.map((f) => f.value)).toEqual(['1200.5', '80']);
  });

  it.each([
    ['no manifest', () => mkdtemp(path.join(os.tmpdir(), 'md-cmp-')), 'EXPORT_COMPARE_INVALID', /no meterdata export there/],
    ['a manifest that is not JSON', () => folder({ rawManifest: '{"tool": "meterdata",' }), 'EXPORT_COMPARE_INVALID', /is not a meterdata manifest/],
    ['another tool', () => folder({ manifest: (m) => ({ ...m, tool: 'other' }) }), 'EXPORT_COMPARE_INVALID', /is not a meterdata manifest/],
    [
      'another tenant',
      () => folder({ manifest: (m) => ({ ...m, tenant: { id: 't-2', name: 'Immobilien Süd KG' } }) }),
      'EXPORT_COMPARE_OTHER_TENANT',
      /belongs to "Immobilien Süd KG", not to this connection's "Hausverwaltung Nordlicht GmbH"/,
    ],
    ['a changed file', () => folder({ billing: BILLING.replace('1200.5', '1300.5') }), 'EXPORT_COMPARE_MISMATCH', /billing\.csv does not match the manifest/],
    [
      'a file name with a path',
      () => folder({ manifest: (m) => ({ ...m, files: [{ name: '../billing.csv', bytes: 1, sha256: 'x' }] }) }),
      'EXPORT_COMPARE_MISMATCH',
      /file name that is not plain/,
    ],
    ['no range', () => folder({ manifest: (m) => ({ ...m, range: null }) }), 'EXPORT_COMPARE_INVALID', /has no range/],
    ['no billing CSV', () => folder({ manifest: (m) => ({ ...m, files: [] }) }), 'EXPORT_COMPARE_INVALID', /has no billing CSV/],
    [
      'an unknown template',
      () => folder({ manifest: (m) => ({ ...m, identity: { template: './gone.json' } }) }),
      'EXPORT_COMPARE_INVALID',
      /the template "\.\/gone\.json" it was written with cannot be read/,
    ],
  ])('refuses %s (exit 2)', async (_what, make, code, message) => {
    const dir = await make();
    const e = await refusal(dir);
    expect(e.code).toBe(code);
    expect(e.exitCode).toBe(ExitCode.USAGE);
    expect(e.message).toMatch(new RegExp(`^--compare ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
    expect(e.message).toMatch(message);
  });
});
