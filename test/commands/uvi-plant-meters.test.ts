// `meterdata uvi --plant-meters FILE` in-process against the sandbox's Wohnbau Rheinblick eG: a
// Property the file lists has its plant heat meters by the file, not by their names; a line naming a
// point the Property has not is a check row in review.csv; a bad line is refused before any request (exit 2).
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, type SignedIn } from '../helpers/signed-in.js';
import { runCli } from '../helpers/run-cli.js';

const TENANT = 'Wohnbau Rheinblick eG';
let si: SignedIn;
beforeAll(async () => {
  si = await signedIn({ autoConsentTenant: TENANT, homePrefix: 'md-uvi-plant-meters-' });
}, 120_000);
afterAll(async () => si?.close());

/** A Property of the tenant by name: its id and its plant-room heat meters' ids by localization. */
function property(name: string) {
  const ds = si.sandbox.dataset;
  const tenant = ds.tenants().find((t) => t.name === TENANT)!;
  const rec = ds.properties(tenant.id).find((p) => p.name === name)!;
  const plant = ds.pointsOfProperty(rec).filter((p) => p.metric === 'heat' && p.allocations.length === 0);
  return { id: ds.propertyId(rec), heat: Object.fromEntries(plant.map((p) => [p.localization ?? '', ds.pointId(p)])) };
}

type Row = { property_name: string; usage_unit_name: string; service: string; method: string; month: string };
async function uvi(extra: string[]) {
  const out = await mkdtemp(path.join(os.tmpdir(), 'md-uvi-plant-meters-out-'));
  const r = await runCli(['uvi', '--month', '2025-11', '--out', out, '--quiet', ...extra], { env: si.env });
  const dir = path.join(out, '2025-11');
  const read = (file: string) => (r.code === 0 ? readFileSync(path.join(dir, file), 'utf8') : '');
  return { r, rows: r.code === 0 ? (JSON.parse(read('uvi.json')) as Row[]) : [], review: read('review.csv'), dir: out };
}
const method = (rows: Row[], prop: string) => rows.find((x) => x.property_name === prop && x.usage_unit_name === 'WE 01' && x.service === 'HOT_WATER')?.method;

describe('meterdata uvi --plant-meters', () => {
  it("a listed Property's plant heat meters by the file, names not read; a line for a point a Property lacks: a check row", async () => {
    const river = property('Rheinuferstraße 14');
    const leinpfad = property('Am Leinpfad 3');
    const ww = river.heat['Wärmezähler Warmwasserbereitung']!;
    expect(ww).toBeDefined();
    const plain = await uvi([]);
    expect(plain.r.code, plain.r.stderr).toBe(0);
    expect(method(plain.rows, 'Rheinuferstraße 14')).toBe('ww_heat_meter_share');
    const file = path.join(plain.dir, 'plant-meters.csv');
    // The warm-water heat meter listed as the plant's (a landlord's word against its name), and a point Am Leinpfad 3 lacks.
    writeFileSync(file, `property_id;measuring_point_id;role\n${river.id};${ww};plant_heat\n${leinpfad.id};${ww};warm_water_heat\n`);
    const listed = await uvi(['--plant-meters', file]);
    expect(listed.r.code, listed.r.stderr).toBe(0);
    // no warm-water heat meter by the landlord's word: hot water by § 9 Abs. 2
    expect(method(listed.rows, 'Rheinuferstraße 14')).toBe('formula_9_2');
    const lines = listed.review.split(/\r?\n/);
    const unknown = lines.filter((l) => l.includes('PLANT_METER_LISTED_UNKNOWN'));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toContain('Am Leinpfad 3');
    expect(unknown[0]).toContain(`line 3 of the --plant-meters file names meter ${ww}`);
    expect(plain.review).not.toContain('PLANT_METER_LISTED_UNKNOWN');
  }, 300_000);

  it.each([
    ['an unknown role', (p: string, m: string) => `property_id,measuring_point_id,role\n${p},${m},heating\n`, 'line 2: unknown role "heating".'],
    ['no role column', (p: string, m: string) => `property_id,measuring_point_id\n${p},${m}\n`, 'line 1: no column role, or it is named twice.'],
  ])('a file with %s: one line naming the file and line, exit 2, before any request', async (_what, text, message) => {
    const river = property('Rheinuferstraße 14');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-uvi-plant-meters-bad-'));
    const file = path.join(dir, 'bad.csv');
    writeFileSync(file, text(river.id, Object.values(river.heat)[0]!));
    const before = si.sandbox.log.total;
    const r = await runCli(['uvi', '--month', '2025-11', '--out', path.join(dir, 'out'), '--plant-meters', file], { env: si.env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`meterdata: --plant-meters ${file} ${message}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(si.sandbox.log.total).toBe(before);
  });
});
