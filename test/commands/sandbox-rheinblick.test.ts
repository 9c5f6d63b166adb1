// Wohnbau Rheinblick eG, the sandbox's landlord for the monthly consumption information
// (§ 6a HeizkostenV): signed in through --auto-consent-tenant's server option over real HTTP,
// its answers hold every case issue 24 names, and the pure core's kWh for November 2025
// agree with figures worked out here from the raw readings.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/contracts.js';
import type { DeviceSegment, MeasuringPoint, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../../src/api/types.js';
import { staticCredentials } from '../../src/core/credentials.js';
import { generateDataset } from '../../src/sandbox/data/index.js';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { DEFAULT_BENCHMARK, classifyPlant, propertyUvi, type PropertyUvi, type ServiceMonth } from '../../src/uvi/index.js';
import { collect } from '../helpers/api-fixtures.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';
import { startCommand, stopCommands } from '../helpers/sandbox-command.js';
import { storeFile } from '../helpers/signed-in.js';

/** The letter's 13 months and their month ends, written out. */
const MONTHS = ['2024-11', '2024-12', '2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11'];
const RANGE = { from: '2024-11-01', to: '2025-11-30' };

interface Unit {
  unit: UsageUnit;
  consumption: UnitConsumption;
}
interface Prop {
  name: string;
  units: Unit[];
  plant: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

let sb: Sandbox;
let client: ApiClient;
const props = new Map<string, Prop>();

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    autoConsent: true,
    autoConsentTenant: 'Wohnbau Rheinblick eG',
    clock: '2026-11-22',
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
  });
  const token = await signIn(sb.url);
  client = createApiClient({ baseUrl: sb.apiBase, credentials: staticCredentials(token), rateLimitPerMinute: 60_000, concurrency: 4, retryBaseMs: 10 });
  for (const p of await collect(client.listProperties())) {
    const units = await collect(client.listUsageUnits({ propertyId: p.id }));
    const points = await collect(client.listPropertyMeasuringPoints(p.id));
    const plant = [];
    for (const point of points.filter((x) => x.usage_unit_id === null)) plant.push({ point, consumption: await client.pointReadings(point.id!, RANGE) });
    props.set(p.name, {
      name: p.name,
      units: await Promise.all(units.map(async (unit) => ({ unit, consumption: await client.unitConsumption(unit.id, RANGE) }))),
      plant,
    });
  }
}, 120_000);

afterAll(async () => {
  await client?.close();
  await sb?.close();
});

/** A fresh file-store home signed in at `origin` (auto-consent approves at once); its access token. */
async function signIn(origin: string): Promise<string> {
  const env = { METERDATA_HOME: await mkdtemp(path.join(os.tmpdir(), 'md-rheinblick-')), METERDATA_CREDENTIAL_STORE: 'file' };
  await headlessLogin({ authUrl: origin, baseUrl: `${origin}/v1`, env, signal: AbortSignal.timeout(60_000) });
  return JSON.parse(readFileSync(storeFile(env), 'utf8')).access_token as string;
}

const prop = (name: string): Prop => props.get(name)!;
const unitOf = (p: string, name: string): Unit => prop(p).units.find((u) => u.unit.name === name)!;
const pointsOf = (u: Unit, metric: string) => u.consumption.measuring_points.filter((p) => p.metric === metric);
const plantOf = (p: string, metric: string, warm: boolean) =>
  prop(p).plant.filter((x) => x.point.metric === metric && /Warmwasser/.test(x.point.localization ?? '') === warm);

/** A segment's raw reading at a date, or undefined. */
const at = (s: DeviceSegment, date: string) => s.readings.find((r) => r.at === date);
/** (reading at `to` − reading at `from`) × factor over the point's single segment: its month from the raw answer. */
function month(c: MeasuringPointConsumption, from: string, to: string): number {
  const s = c.segments[0]!;
  return (at(s, to)!.value - at(s, from)!.value) * s.factor;
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function uvi(name: string): PropertyUvi {
  const p = prop(name);
  return propertyUvi({
    property_id: p.units[0]!.unit.property_id,
    months: MONTHS,
    units: p.units,
    plant: classifyPlant(p.plant),
    benchmark: DEFAULT_BENCHMARK,
  });
}
function serviceMonths(result: PropertyUvi, u: Unit, service: string): ServiceMonth[] {
  return result.units.find((x) => x.usage_unit_id === u.unit.id)!.services.find((s) => s.service === service)!.months;
}
const nov = (ms: ServiceMonth[]) => ms.at(-1)!;

describe('Wohnbau Rheinblick eG over real HTTP', () => {
  it('signs in to the landlord the option names and sees its three Properties, none of another landlord', async () => {
    const me = await client.whoami();
    expect(me.tenant_name).toBe('Wohnbau Rheinblick eG');
    expect([...props.keys()]).toEqual(['Rheinuferstraße 12', 'Rheinuferstraße 14', 'Am Leinpfad 3']);
    expect([...props.values()].map((p) => p.units.length)).toEqual([6, 6, 4]);
    const others = sb.dataset
      .tenants()
      .filter((t) => t.id !== me.tenant_id)
      .flatMap((t) => sb.dataset.propertiesOf(t.id).map((p) => p.id));
    expect(others.length).toBeGreaterThan(0);
    for (const p of prop('Rheinuferstraße 12').units) expect(others).not.toContain(p.unit.property_id);
  });

  it('has the three kinds of Property: plant heat meter and allocators, heat meters and a warm-water heat meter, no plant heat meter', () => {
    const kinds = (name: string) => ({
      plantHeat: plantOf(name, 'heat', false).length,
      warmWaterHeat: plantOf(name, 'heat', true).length,
      unitMetrics: [...new Set(prop(name).units.flatMap((u) => u.consumption.measuring_points.map((p) => p.metric)))].sort(),
    });
    expect(kinds('Rheinuferstraße 12')).toEqual({ plantHeat: 1, warmWaterHeat: 0, unitMetrics: ['hca', 'water_cold', 'water_warm'] });
    expect(kinds('Rheinuferstraße 14')).toEqual({ plantHeat: 1, warmWaterHeat: 1, unitMetrics: ['heat', 'water_cold', 'water_warm'] });
    expect(kinds('Am Leinpfad 3')).toEqual({ plantHeat: 0, warmWaterHeat: 0, unitMetrics: ['hca', 'water_cold', 'water_warm'] });
  });

  it('has every month case: a device replaced mid-month, a calculated month, a missing month, a unit without area, a unit new this year', () => {
    const [replaced] = pointsOf(unitOf('Rheinuferstraße 14', 'WE 03'), 'heat');
    expect(replaced!.segments.map((s) => [s.installed_at, s.deinstalled_at, s.replacement_reason, s.baseline_origin])).toEqual([
      ['2022-05-10', '2025-11-14', 'DeviceReplacement', 'month_end_before_range'],
      ['2025-11-14', null, null, 'recorded'],
    ]);
    const calculated = pointsOf(unitOf('Rheinuferstraße 14', 'WE 04'), 'heat')[0]!.segments[0]!;
    expect(at(calculated, '2025-11-30')).toMatchObject({ status: 'calculated', is_synthetic: true, substitution_method: 'degree_day_weighted' });
    expect(calculated.readings.filter((r) => r.status !== 'measured')).toHaveLength(1);
    const missing = pointsOf(unitOf('Rheinuferstraße 14', 'WE 05'), 'heat')[0]!.segments[0]!;
    expect(at(missing, '2024-11-30')).toMatchObject({ status: 'missing' });
    expect(missing.readings.filter((r) => r.status !== 'measured')).toHaveLength(1);
    const noArea = prop('Rheinuferstraße 12')
      .units.filter((u) => u.unit.area_heated_m2 === null)
      .map((u) => [u.unit.name, u.unit.area_ww_m2]);
    expect(noArea).toEqual([['WE 06', null]]);
    const fresh = unitOf('Am Leinpfad 3', 'WE 04');
    const segs = fresh.consumption.measuring_points.flatMap((p) => p.segments);
    expect(segs.length).toBe(4);
    for (const s of segs) {
      expect([s.installed_at, s.baseline_origin, s.baseline_value]).toEqual(['2025-03-01', 'recorded', 0]);
      expect(s.readings[0]!.at).toBe('2025-03-31');
    }
    // Nothing else in the tenant is out of the ordinary: every other reading is measured.
    const odd = [...props.values()]
      .flatMap((p) => [...p.units.flatMap((u) => u.consumption.measuring_points), ...p.plant.map((x) => x.consumption)])
      .flatMap((c) => c.segments.flatMap((s) => s.readings))
      .filter((r) => r.status !== 'measured');
    expect(odd).toHaveLength(2);
  });
});

describe('the monthly information of November 2025 from those answers (propertyUvi)', () => {
  it('heat meters: their kWh, across the replacement, the calculated month estimated, the missing months missing', () => {
    const result = uvi('Rheinuferstraße 14');
    const we01 = unitOf('Rheinuferstraße 14', 'WE 01');
    expect(Number(nov(serviceMonths(result, we01, 'HEATING')).kwh)).toBeCloseTo(month(pointsOf(we01, 'heat')[0]!, '2025-10-31', '2025-11-30'), 6);
    // Old meter: October's reading to its value on the removal day; new meter: its start value to November's reading.
    const [old, next] = pointsOf(unitOf('Rheinuferstraße 14', 'WE 03'), 'heat')[0]!.segments;
    const replacedKwh = old!.period_consumption.end_value - at(old!, '2025-10-31')!.value + (at(next!, '2025-11-30')!.value - next!.baseline_value);
    const we03 = nov(serviceMonths(result, unitOf('Rheinuferstraße 14', 'WE 03'), 'HEATING'));
    expect(Number(we03.kwh)).toBeCloseTo(replacedKwh, 6);
    expect(replacedKwh).toBeGreaterThan(300);
    expect(nov(serviceMonths(result, unitOf('Rheinuferstraße 14', 'WE 04'), 'HEATING'))).toMatchObject({ estimated: true });
    const we05 = serviceMonths(result, unitOf('Rheinuferstraße 14', 'WE 05'), 'HEATING');
    expect(we05.slice(0, 3).map((m) => [m.kwh === null, m.reasons])).toEqual([
      [true, ['missing']],
      [true, ['missing']],
      [false, []],
    ]);
  });

  it('warm water: the warm-water heat meter by each flat’s share of the volume; the whole plant above the flats plus warm water', () => {
    const result = uvi('Rheinuferstraße 14');
    const units = prop('Rheinuferstraße 14').units;
    const vol = units.map((u) => month(pointsOf(u, 'water_warm')[0]!, '2025-10-31', '2025-11-30'));
    const wwHeat = month(plantOf('Rheinuferstraße 14', 'heat', true)[0]!.consumption, '2025-10-31', '2025-11-30');
    expect(Number(nov(serviceMonths(result, units[1]!, 'HOT_WATER')).kwh)).toBeCloseTo((wwHeat * vol[1]!) / sum(vol), 6);
    // § 9 Abs. 2 as a check of the meter: 2.5 × V × 50 K lies within a third of what it measured.
    expect(wwHeat / (125 * sum(vol))).toBeGreaterThan(0.67);
    expect(wwHeat / (125 * sum(vol))).toBeLessThan(1.5);
    // The whole plant measured more than the flats' heat meters and the warm-water heat together, winter and summer.
    const plant = plantOf('Rheinuferstraße 14', 'heat', false)[0]!.consumption;
    const wwMeter = plantOf('Rheinuferstraße 14', 'heat', true)[0]!.consumption;
    for (const [from, to] of [
      ['2024-12-31', '2025-01-31'],
      ['2025-05-31', '2025-06-30'],
      ['2025-09-30', '2025-10-31'],
    ] as const) {
      const flats = sum(units.map((u) => month(pointsOf(u, 'heat')[0]!, from, to)));
      expect(month(plant, from, to)).toBeGreaterThan(flats + month(wwMeter, from, to));
    }
    // The months a flat's figure is missing have no heating heat to compare; every other month has some left.
    expect(result.heatingHeat!.map((m) => (m.value === null ? m.reasons.join() : m.value.isPositive()))).toEqual([
      'unit_heat_incomplete',
      'unit_heat_incomplete',
      ...Array(11).fill(true),
    ]);
  });

  it('allocators behind the plant heat meter: heating heat less § 9 Abs. 2 warm water, by allocator units', () => {
    const result = uvi('Rheinuferstraße 12');
    const units = prop('Rheinuferstraße 12').units;
    const between = ['2025-10-31', '2025-11-30'] as const;
    const allocatorUnits = units.map((u) => sum(pointsOf(u, 'hca').map((c) => month(c, ...between))));
    const warm = 2.5 * 50 * sum(units.map((u) => month(pointsOf(u, 'water_warm')[0]!, ...between)));
    const heating = month(plantOf('Rheinuferstraße 12', 'heat', false)[0]!.consumption, ...between) - warm;
    expect(heating).toBeGreaterThan(0);
    for (const [i, u] of units.entries()) {
      const m = nov(serviceMonths(result, u, 'HEATING'));
      expect(Number(m.kwh)).toBeCloseTo((heating * allocatorUnits[i]!) / sum(allocatorUnits), 6);
      expect(Number(m.native)).toBeCloseTo(allocatorUnits[i]!, 6);
      expect(m).toMatchObject({ converted: true, estimated: false });
    }
    // Every month of the 13 has heating heat left after warm water, summer included.
    expect(result.heatingHeat!.map((m) => m.value !== null && m.value.isPositive())).toEqual(MONTHS.map(() => true));
    const we06 = result.units.find((x) => x.usage_unit_id === unitOf('Rheinuferstraße 12', 'WE 06').unit.id)!;
    expect(we06.findings.map((f) => [f.code, f.service])).toEqual([
      ['NO_FLOOR_AREA', 'HEATING'],
      ['NO_FLOOR_AREA', 'HOT_WATER'],
    ]);
    expect(nov(serviceMonths(result, unitOf('Rheinuferstraße 12', 'WE 06'), 'HEATING')).benchmark_kwh).toBeNull();
  });

  it('allocators without a plant heat meter: allocator units and the reason; the new flat has nothing before March 2025', () => {
    const result = uvi('Am Leinpfad 3');
    const we01 = unitOf('Am Leinpfad 3', 'WE 01');
    const h = nov(serviceMonths(result, we01, 'HEATING'));
    expect([h.kwh, h.reasons]).toEqual([null, ['no_plant_heat_meter']]);
    expect(Number(h.native)).toBeCloseTo(sum(pointsOf(we01, 'hca').map((c) => month(c, '2025-10-31', '2025-11-30'))), 6);
    const fresh = unitOf('Am Leinpfad 3', 'WE 04');
    const ww = serviceMonths(result, fresh, 'HOT_WATER');
    expect(ww.map((m) => (m.kwh === null ? m.reasons.join() : 'kWh'))).toEqual([...Array(4).fill('no_device'), ...Array(9).fill('kWh')]);
    const march = pointsOf(fresh, 'water_warm')[0]!.segments[0]!;
    expect(Number(ww[4]!.kwh)).toBeCloseTo(2.5 * 50 * (at(march, '2025-03-31')!.value - march.baseline_value), 6);
    expect(Number(nov(ww).kwh)).toBeCloseTo(2.5 * 50 * month(pointsOf(fresh, 'water_warm')[0]!, '2025-10-31', '2025-11-30'), 6);
    // The new flat measured nothing before March: the Property's warm-water heat is the others' in every month.
    expect(result.warmWaterHeat!.map((m) => m.value !== null)).toEqual(MONTHS.map(() => true));
    const others = prop('Am Leinpfad 3').units.filter((u) => u !== fresh);
    const december = sum(others.map((u) => month(pointsOf(u, 'water_warm')[0]!, '2024-11-30', '2024-12-31')));
    expect(Number(result.warmWaterHeat![1]!.value)).toBeCloseTo(2.5 * 50 * december, 6);
  });
});

describe('meterdata sandbox --auto-consent-tenant', () => {
  afterEach(stopCommands);
  const whoami = async (origin: string, token: string) =>
    (await (await fetch(`${origin}/v1/whoami`, { headers: { authorization: `Bearer ${token}` } })).json()) as { tenant_name: string };

  it('signs a sign-in in to the landlord named (no --auto-consent needed), by name or by id, and says so when it starts', async () => {
    const s = await startCommand(['--auto-consent-tenant', 'Wohnbau Rheinblick eG', '--clock', '2026-11-22']);
    expect(s.output().err).toMatch(/ {2}\(auto-consent: Wohnbau Rheinblick eG\)\n$/);
    expect(await whoami(s.origin, await signIn(s.origin))).toMatchObject({ tenant_name: 'Wohnbau Rheinblick eG' });
    const id = generateDataset({ seed: 's2', units: 1 }).tenants()[1]!.id;
    const second = await startCommand(['--auto-consent-tenant', id, '--seed', 's2', '--units', '1']);
    expect(await whoami(second.origin, await signIn(second.origin))).toMatchObject({ tenant_name: 'Immobilien Süd KG' });
  });

  it.each([
    [
      'en',
      /^meterdata: --auto-consent-tenant Rheinblick is no landlord of this sandbox; give one of: [0-9a-f-]{36} "Hausverwaltung Nordlicht GmbH", [0-9a-f-]{36} "Immobilien Süd KG", [0-9a-f-]{36} "Wohnbau Rheinblick eG"\n {2}Give a landlord's id or name as listed, e\.g\. --auto-consent-tenant "Wohnbau Rheinblick eG"; docs\/sandbox-data\.md describes them\.\n$/,
    ],
    [
      'de',
      /^meterdata: --auto-consent-tenant Rheinblick ist kein Eigentümer dieser Sandbox; möglich sind: .*"Wohnbau Rheinblick eG"\n {2}Geben Sie die ID oder den Namen eines der genannten Eigentümer an, z\. B\. --auto-consent-tenant "Wohnbau Rheinblick eG"; docs\/sandbox-data\.md beschreibt sie\.\n$/,
    ],
  ])('refuses a landlord the sandbox does not have (%s), exit 2, naming those it has', async (lang, text) => {
    const r = await runCli(['sandbox', '--auto-consent-tenant', 'Rheinblick', '--lang', lang]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(text);
    if (lang === 'de') expect(await findEnglish(r.stderr.replace(/"[^"]*"/g, ''))).toEqual([]);
  });
});
