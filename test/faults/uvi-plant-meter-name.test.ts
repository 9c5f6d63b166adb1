// `meterdata uvi` behind a server that names Rheinuferstraße 12's plant heat meter (the whole
// plant's) "Wärmemengenzähler Heizung und Warmwasser". Read as the warm-water heat meter, it gave
// WE 01's 1.327 m³ of warm water 1,116.02 kWh (841 kWh/m³) and left the allocators without kWh,
// review.csv asking to "add the main heat meter" although it was there. Now it stays the plant's
// heat meter: warm water by § 9 Abs. 2 (2.5 × m³ × 50 K), heating converted as with the clean
// name, and review.csv lists the meter's name for checking. Likewise "Heizzentrale inkl. TWW" (warm water
// included alongside the heating): read as warm water's, WE 01's hot water was the plant's heat by its m³.
// With --plant-meters listing the meter as the plant's, a name such as "WW + HK" gives the clean name's figures
// and no unclear row.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, runBin, proxyFixture, RHEINBLICK } from '../helpers/faults.js';
import { startRewritingProxy, type Rewrite } from '../helpers/rewriting-proxy.js';

const ARGS = ['uvi', '--month', '2025-11', '--rate-limit', '3000'];
const PROP = 'Rheinuferstraße 12';
const f = proxyFixture({ beforeAll, afterAll }, RHEINBLICK);

type Json = Record<string, any>;

/** The built binary's uvi into <home>/<name> behind the rewriting proxy: its result and the answers changed. */
async function uviBehind(name: string, rewrite: Rewrite, more: string[] = []) {
  const proxy = await startRewritingProxy(f.sandbox.url, rewrite);
  try {
    const r = await runBin([...ARGS, ...more, '--out', path.join(f.home, name)], { ...f.env, METERDATA_ACCESS_TOKEN: f.token, METERDATA_BASE_URL: proxy.base });
    return { r, rewritten: proxy.rewritten.length };
  } finally {
    await proxy.close();
  }
}

let clean: Promise<Awaited<ReturnType<typeof uviBehind>>> | null = null;

/** The answers with the Property's plant heat meter (its only one) named `name`. */
function renamedTo(name: string): Rewrite {
  let prop: string | null = null;
  return (p, json) => {
    if (p === '/v1/properties') prop = (json.data as Json[]).find((x) => x.name === PROP)?.id ?? prop;
    if (p !== `/v1/properties/${prop}/measuring-points`) return undefined;
    for (const x of json.data as Json[]) if (x.metric === 'heat' && x.usage_unit_id == null && !x.allocations?.length) x.localization = name;
    return json;
  };
}
/** WE 01's rows of the letter's month in <home>/<dir>/2025-11/uvi.csv. */
const rowsOf = (dir: string) =>
  csvRows(readFileSync(path.join(f.home, dir, '2025-11', 'uvi.csv'), 'utf8')).filter(
    (r) => r.property_name === PROP && r.usage_unit_name === 'WE 01' && r.letter_month === 'true',
  );

describe("a whole plant's heat meter named for heating and warm water", () => {
  it.each(['Wärmemengenzähler Heizung und Warmwasser', 'Heizzentrale inkl. TWW'])(
    '"%s" stays the plant\'s heat meter: warm water by § 9 Abs. 2, heating in kWh as with the clean name, the name in review.csv',
    async (NAME) => {
      clean ??= uviBehind('clean', () => undefined);
      const got = await uviBehind(NAME, renamedTo(NAME));
      expect([(await clean).r.code, got.r.code, got.rewritten]).toEqual([0, 0, 1]);
      const of = (dir: string, service: string) => rowsOf(dir).find((r) => r.service === service)!;
      const ww = of(NAME, 'HOT_WATER');
      expect(ww.method).toBe('formula_9_2');
      expect(Number(ww.amount)).toBeCloseTo(2.5 * Number(ww.native_amount) * 50, 3);
      expect(of(NAME, 'HOT_WATER')).toEqual(of('clean', 'HOT_WATER'));
      expect(of(NAME, 'HEATING')).toEqual(of('clean', 'HEATING'));
      expect(Number(of(NAME, 'HEATING').amount)).toBeGreaterThan(0);
      const review = readFileSync(path.join(f.home, NAME, '2025-11', 'review.csv'), 'utf8');
      const codes = csvRows(review)
        .filter((r) => r.property_name === PROP)
        .map((r) => r.code);
      expect(codes).toContain('PLANT_METER_NAME_UNCLEAR');
      expect(codes).not.toContain('NO_PLANT_HEAT_METER');
      expect(review).toContain(NAME);
    },
    600_000,
  );
});

describe('the landlord names the plant meter (--plant-meters)', () => {
  it('"WW + HK" listed as the plant\'s heat meter: the figures of the clean name, and no unclear row', async () => {
    const NAME = 'WW + HK';
    const ds = f.sandbox.dataset;
    const tenant = ds.tenants().find((t) => t.name === 'Wohnbau Rheinblick eG')!;
    const rec = ds.properties(tenant.id).find((p) => p.name === PROP)!;
    const [main] = ds.pointsOfProperty(rec).filter((p) => p.metric === 'heat' && p.allocations.length === 0);
    const file = path.join(f.home, 'plant-meters.csv');
    writeFileSync(file, `property_id,measuring_point_id,role\n${ds.propertyId(rec)},${ds.pointId(main!)},plant_heat\n`);
    clean ??= uviBehind('clean', () => undefined);
    const byName = await uviBehind('ww-hk', renamedTo(NAME));
    const listed = await uviBehind('ww-hk-listed', renamedTo(NAME), ['--plant-meters', file]);
    expect([(await clean).r.code, byName.r.code, listed.r.code, listed.rewritten]).toEqual([0, 0, 0, 1]);
    expect(rowsOf('ww-hk-listed')).toEqual(rowsOf('clean'));
    const codes = (dir: string) => readFileSync(path.join(f.home, dir, '2025-11', 'review.csv'), 'utf8');
    expect(codes('ww-hk')).toContain('PLANT_METER_NAME_UNCLEAR');
    expect(codes('ww-hk-listed')).not.toContain('PLANT_METER_NAME_UNCLEAR');
  }, 600_000);
});
