// The real BrowseData over an in-memory ApiClient: lazy, cached per Property and
// range, plant points read separately, billing fed the range the service echoed.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPoint, UnitConsumption } from '../../src/api/types.js';
import { billProperty, flagText } from '../../src/billing/index.js';
import { AccessWithdrawnError, ServiceUnavailableError } from '../../src/core/errors.js';
import { createBrowseData, eventHub, type BillInput } from '../../src/tui/data.js';
import { loadUvi } from '../../src/tui/uvi.js';
import { parsePlantMeters, parseUviSettings } from '../../src/uvi/inputs/index.js';
import { RANGE } from '../helpers/builders.js';
import { aProperty, bundleFor, MARKT } from '../helpers/tui-fake.js';

/** `halfYear`: the second unit's answers for a range starting with this year echo only its first half. */
function memoryApi(opts: { failUnits?: number; scope?: () => 'all' | string[]; halfYear?: string } = {}) {
  const fixture = bundleFor();
  const calls: string[] = [];
  let failUnits = opts.failUnits ?? 0;
  const points: MeasuringPoint[] = [
    ...fixture.plant.map((p) => p.point),
    { id: fixture.units[0]!.consumption.measuring_points[0]!.measuring_point_id, usage_unit_id: fixture.units[0]!.unit.id, property_id: fixture.property.id },
  ];
  async function* each<T>(name: string, items: T[]) {
    calls.push(name);
    yield* items;
  }
  const api: ApiClient = {
    whoami: async () => {
      calls.push('whoami');
      return { tenant_id: 't', tenant_name: 'T', client_id: 'c', granted_scopes: [], property_scope: opts.scope?.() ?? 'all' };
    },
    listProperties: () => each('properties', [fixture.property, MARKT]),
    getProperty: async () => fixture.property,
    listPropertyMeasuringPoints: (id) => each(`points ${id === fixture.property.id ? 'L' : 'M'}`, id === fixture.property.id ? points : []),
    listUsageUnits: (q) =>
      each(`units ${q?.propertyId === fixture.property.id ? 'L' : 'M'}`, q?.propertyId === fixture.property.id ? fixture.units.map((u) => u.unit) : []),
    getUsageUnit: async () => fixture.units[0]!.unit,
    unitConsumption: async (id, range): Promise<UnitConsumption> => {
      calls.push(`consumption ${range.from}`);
      if (failUnits-- > 0) throw new ServiceUnavailableError('The service answered 503 after 6 attempts.');
      const c = fixture.units.find((u) => u.unit.id === id)!.consumption;
      if (opts.halfYear && range.from.startsWith(opts.halfYear) && id === fixture.units[1]!.unit.id)
        return { ...c, from: range.from, to: `${opts.halfYear}-06-30` };
      return { ...c, from: range.from, to: range.from.startsWith('2025') ? '2025-10-31' : range.to };
    },
    getMeasuringPoint: async () => points[0]!,
    forgetProperty: () => undefined,
    pointReadings: async (id) => {
      calls.push(`readings ${id === fixture.plant[0]!.point.id ? 'plant' : id}`);
      return fixture.plant[0]!.consumption;
    },
    stats: () => ({ requests: calls.length, retries: 0, rateLimited: 0 }),
    close: async () => {},
  };
  return { api, calls, fixture };
}

describe('BrowseData', () => {
  it('fetches nothing until asked, then one Property at a time', async () => {
    const { api, calls } = memoryApi();
    const data = createBrowseData({ api, billProperty, flagText });
    expect(calls).toEqual([]);
    expect(await data.listProperties()).toHaveLength(2);
    expect(calls).toEqual(['properties']);
    await data.listProperties();
    expect(calls).toEqual(['properties']);
  });

  it('loads units, their consumption and the plant meters, reports progress, and bills the echoed range', async () => {
    const { api, calls } = memoryApi();
    const inputs: BillInput[] = [];
    const data = createBrowseData({ api, billProperty: (i) => (inputs.push(i), billProperty(i)), flagText });
    const progress: string[] = [];
    const b = await data.loadProperty(aProperty(), RANGE, (p) => progress.push(`${p.done}/${p.total}`));
    expect(calls.filter((c) => c.startsWith('consumption'))).toHaveLength(2);
    expect(calls).toContain('readings plant');
    expect(calls.filter((c) => c.startsWith('readings'))).toEqual(['readings plant']);
    expect(progress).toEqual(['0/3', '1/3', '2/3']); // the Property says 3 units; the service lists 2
    expect(b.effective).toEqual({ from: '2025-01-01', to: '2025-10-31' });
    expect(inputs[0]!.range).toEqual({ from: '2025-01-01', to: '2025-10-31' });
    expect(b.plant.map((p) => p.point.localization)).toEqual(['Heizungskeller Hauptzähler']);
    expect(b.bill.billing.length).toBeGreaterThan(0);
    expect(data.cachedFlags(aProperty().id, RANGE)).toEqual(b.bill.flags);
    expect(data.cachedFlags(MARKT.id, RANGE)).toBeNull();
  });

  it('caches per Property and range, and does not cache a failure', async () => {
    const { api, calls } = memoryApi({ failUnits: 1 });
    const data = createBrowseData({ api, billProperty, flagText });
    await expect(data.loadProperty(aProperty(), RANGE)).rejects.toBeInstanceOf(ServiceUnavailableError);
    const a = await data.loadProperty(aProperty(), RANGE);
    const count = calls.length;
    expect(await data.loadProperty(aProperty(), RANGE)).toBe(a);
    expect(calls.length).toBe(count);
    await data.loadProperty(aProperty(), { from: '2024-01-01', to: '2024-12-31' });
    expect(calls.filter((c) => c === 'consumption 2024-01-01')).toHaveLength(2);
  });

  it('loads a Property once for the monthly information: its 13 months in one request per unit and plant meter, kept for the next visit', async () => {
    const { api, calls } = memoryApi();
    const data = createBrowseData({ api, billProperty, flagText });
    const first = await loadUvi(data, aProperty(), '2025-11');
    // the list of units and of points, one consumption request per unit (2) and one readings request per plant meter (1)
    expect(calls).toEqual(['units L', 'points L', 'consumption 2024-11-01', 'consumption 2024-11-01', 'readings plant']);
    expect(first.uvi.units).toHaveLength(2);
    expect(await loadUvi(data, aProperty(), '2025-11')).toBe(first);
    expect(calls).toHaveLength(5);
  });

  it("computes the monthly screen with browse's --plant-meters and --ww-temperature, as uvi's letters do", async () => {
    const { api, fixture } = memoryApi();
    const plain = await loadUvi(createBrowseData({ api, billProperty, flagText }), aProperty(), '2025-11');
    expect(plain.wwTemperature).toBe(60);
    expect(plain.uvi.findings).toEqual([]);
    // the landlord's file names a meter this Property has not as a plant heat meter: the letter's check row, here too
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const plantMeters = parsePlantMeters(`property_id,measuring_point_id,role\n${fixture.property.id},${unknown},warm_water_heat\n`, 'plant.csv');
    const data = createBrowseData({ api, billProperty, flagText, uviSettings: { ...parseUviSettings({}, '/'), wwTemperature: 45, plantMeters } });
    const listed = await loadUvi(data, aProperty(), '2025-11');
    expect(listed.wwTemperature).toBe(45);
    expect(listed.uvi.findings).toEqual([
      expect.objectContaining({ code: 'PLANT_METER_LISTED_UNKNOWN', facts: expect.objectContaining({ measuring_point_id: unknown }) }),
    ]);
  });

  it("refuses a comparison period whose units' answers echo two periods (a half year beside a whole one is no comparison)", async () => {
    const { api, fixture } = memoryApi({ halfYear: '2024' });
    const data = createBrowseData({ api, billProperty, flagText });
    const loading = data.loadProperty(aProperty(), { ...RANGE, compare: { from: '2024-01-01', to: '2024-12-31' } });
    await expect(loading).rejects.toMatchObject({ code: 'API_WRONG_RANGE', exitCode: 5 });
    await expect(loading).rejects.toThrow(`unit "${fixture.units[1]!.unit.name}"`);
    // the same units over one period each are compared
    const whole = await createBrowseData({ api: memoryApi().api, billProperty, flagText }).loadProperty(aProperty(), {
      ...RANGE,
      compare: { from: '2024-01-01', to: '2024-12-31' },
    });
    expect(whole.review).toBeDefined();
  });

  it('passes API events to the screens that listen', () => {
    const hub = eventHub();
    const { api } = memoryApi();
    const data = createBrowseData({ api, billProperty, flagText, subscribe: hub.subscribe });
    const seen: unknown[] = [];
    const off = data.onEvent((e) => seen.push(e));
    hub.emit({ type: 'rate-limited', waitMs: 1000 });
    off();
    hub.emit({ type: 'rate-limited', waitMs: 2000 });
    expect(seen).toEqual([{ type: 'rate-limited', waitMs: 1000 }]);
    expect(data.exportSelection).toBeUndefined();
  });

  it('re-checks the grant after the token changed before showing a cached Property again', async () => {
    let scope: 'all' | string[] = 'all';
    let token = 't1';
    const { api, calls } = memoryApi({ scope: () => scope });
    const data = createBrowseData({ api, billProperty, flagText, currentToken: async () => token });
    const first = await data.loadProperty(aProperty(), RANGE);
    await data.loadProperty(MARKT, RANGE);
    expect(calls).not.toContain('whoami');
    token = 't2';
    expect(await data.loadProperty(aProperty(), RANGE)).toBe(first);
    expect(calls.filter((c) => c === 'whoami')).toHaveLength(1);
    token = 't3';
    scope = [MARKT.id];
    await expect(data.loadProperty(aProperty(), RANGE)).rejects.toBeInstanceOf(AccessWithdrawnError);
    expect(data.cachedFlags(aProperty().id, RANGE)).toBeNull();
    await data.loadProperty(MARKT, RANGE);
    const before = calls.length;
    await data.listProperties();
    expect(calls.slice(before)).toEqual(['properties']); // the list is fetched again after a token change
  });
});
