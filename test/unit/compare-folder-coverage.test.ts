// --compare DIR with a folder that covers less than this export: browse's one-unit folder (its
// manifest names the unit), a --property or --metric narrowed run. Accepted, every unit, Property or
// metric it left out showed as new since the comparison (NEW_SINCE_COMPARISON on every other unit of
// the Property). Such a folder is refused before any request (exit 2, one line naming the fix).
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Property } from '../../src/api/types.js';
import { browseExportFlags } from '../../src/commands/browse/run.js';
import { ExitCode } from '../../src/core/errors.js';
import { identity, parseExportArgs, type ExportFlags } from '../../src/export/options/index.js';
import { prepareExport } from '../../src/export/single.js';
import { checkFolderCovers } from '../../src/export/folder/index.js';

const P = '00000000-0000-4000-8000-000000000001';
const UNIT = '00000000-0000-4000-8000-0000000000a2';
const PROPERTY: Property = { id: P, tenant_id: 't-1', external_ref: null, name: 'Haus hinten', addresses: [], usage_unit_count: 2 };
const BILLING = `property_id,property_name,usage_unit_id,usage_unit_name,unit_type,metric,unit,from,to,billable_value,points,review_flags\r\n${P},Haus hinten,${UNIT},WE 02,residential,heat,kWh,2024-01-01,2024-12-31,400,1,\r\n`;
const range = { from: '2024-01-01', to: '2024-12-31' };

/** A 2024 folder whose manifest carries the identity the export of `flags` writes (flags as browse or the command builds them). */
async function folderOf(flags: ExportFlags, edit: (id: Record<string, unknown>) => Record<string, unknown> = (id) => id): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-cmp-cover-'));
  await writeFile(path.join(dir, 'billing.csv'), BILLING);
  const manifest = {
    tool: 'meterdata',
    identity: edit(identity(parseExportArgs(flags, dir, {}))),
    tenant: { id: 't-1', name: 'Nordlicht' },
    range,
    files: [{ name: 'billing.csv', bytes: Buffer.byteLength(BILLING), sha256: createHash('sha256').update(BILLING).digest('hex') }],
  };
  await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** This year's export with --compare `dir` as the command checks it before any request: null when accepted. */
async function refusal(dir: string, more: ExportFlags = {}) {
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-cmp-run-'));
  const io = { cwd, env: {} } as never;
  try {
    await prepareExport({ year: '2025', compare: dir, out: path.join(cwd, 'out'), ...more }, io);
    return null;
  } catch (e) {
    return e as { message: string; code: string; exitCode: number; hint?: string };
  }
}

const oneUnit = () => browseExportFlags({ property: PROPERTY, range, unitId: UNIT, unitName: 'WE 02' }, 'en', undefined);
const wholeProperty = () => browseExportFlags({ property: PROPERTY, range }, 'en', undefined);

describe('--compare with a folder that covers less than this export', () => {
  it("refuses browse's one-unit folder for an export of every unit (exit 2, one line naming the full export's folder)", async () => {
    const dir = await folderOf(oneUnit());
    for (const more of [{}, { property: [P] }]) {
      const e = (await refusal(dir, more))!;
      expect(e.code).toBe('EXPORT_COMPARE_MISMATCH');
      expect(e.exitCode).toBe(ExitCode.USAGE);
      expect(e.message).toBe(
        `--compare ${dir}: that export is browse's export of one unit: every other unit would show as having no data in the comparison period.`,
      );
      expect(e.hint).toMatch(/^Compare with the folder of the full export/);
    }
  });

  it('refuses a one-Property folder for an export of other Properties; for every Property, at the first Property it left out', async () => {
    const dir = await folderOf(wholeProperty());
    expect(await refusal(dir, { property: [P] })).toBeNull();
    const other = '00000000-0000-4000-8000-000000000002';
    const e = (await refusal(dir, { property: [P, other] }))!;
    expect([e.code, e.exitCode]).toEqual(['EXPORT_COMPARE_MISMATCH', ExitCode.USAGE]);
    expect(e.message).toMatch(/covers fewer Properties \(--property\) than this one/);
    // every Property: which they are is known only once the walk lists them
    expect(await refusal(dir)).toBeNull();
    const folder = { dir, range, byProperty: new Map(), properties: [P], plantPoints: true };
    expect(() => checkFolderCovers(folder, { id: P, name: 'Haus hinten' })).not.toThrow();
    expect(() => checkFolderCovers(folder, { id: other, name: 'Haus vorn' })).toThrow(
      `--compare ${dir}: that export was narrowed to other Properties (--property) and leaves out "Haus vorn": its units would show as having no data in the comparison period.`,
    );
    expect(() => checkFolderCovers({ ...folder, properties: null }, { id: other, name: 'Haus vorn' })).not.toThrow();
    // the service may write the id in capitals (before: the folder of this very Property refused after the whole walk)
    expect(() => checkFolderCovers(folder, { id: P.toUpperCase(), name: 'Haus hinten' })).not.toThrow();
  });

  it('refuses a --metric narrowed folder for an export of more metrics; a wider folder is accepted', async () => {
    const heat = await folderOf({ from: '2024-01-01', to: '2024-12-31', metric: 'heat' });
    expect((await refusal(heat))?.message).toMatch(/covers fewer metrics \(--metric\) than this one/);
    expect((await refusal(heat, { metric: 'heat,water_warm' }))?.code).toBe('EXPORT_COMPARE_MISMATCH');
    expect(await refusal(heat, { metric: 'heat' })).toBeNull();
    // every metric named is every metric (before: refused as "fewer metrics" against an export naming none)
    const named = await folderOf({ from: '2024-01-01', to: '2024-12-31', metric: 'heat,hca,water_cold,water_warm,electricity,gas,water_outdoor' });
    expect(await refusal(named)).toBeNull();
    const all = await folderOf({ from: '2024-01-01', to: '2024-12-31' });
    expect(await refusal(all)).toBeNull();
    expect(await refusal(all, { metric: 'heat', property: [P] })).toBeNull();
  });

  it('accepts a folder whose manifest predates the recorded Properties and metrics (read as all); refuses a list meterdata does not write', async () => {
    expect(await refusal(await folderOf({ year: '2024' }, ({ template }) => ({ template })))).toBeNull();
    const odd = await folderOf({ year: '2024' }, (id) => ({ ...id, properties: P }));
    expect((await refusal(odd, { property: [P] }))?.code).toBe('EXPORT_COMPARE_MISMATCH');
    const otherUnit = await folderOf(oneUnit(), (id) => ({ ...id, unit: 7 }));
    expect((await refusal(otherUnit, { property: [P] }))?.code).toBe('EXPORT_COMPARE_MISMATCH');
  });
});
