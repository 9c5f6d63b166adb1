// The nine /v1 endpoints of the sandbox against contract 1.0.0-rc.3: fields, nullability,
// omission rules, pagination, filters and the property whitelist. Plain fetch over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { musterstrasse, startApi, walk, type Harness } from '../helpers/api-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let h: Harness;
beforeAll(async () => {
  h = await startApi();
});
afterAll(() => h.close());

describe('GET /whoami', () => {
  it('names tenant, client, scopes and property scope; token_expires_at as date-time', async () => {
    const r = await h.get('/whoami');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({
      tenant_id: h.ds.tenants()[0]!.id,
      tenant_name: 'Hausverwaltung Nordlicht GmbH',
      client_id: 'erp_0123456789abcdef0123456789abcdef',
      granted_scopes: ['read:units', 'read:devices', 'read:readings'],
      property_scope: 'all',
      token_expires_at: new Date(1_795_000_000_000).toISOString(),
    });
  });
  it('omits token_expires_at when unknown (never null) and lists a property whitelist', async () => {
    const sued = (await h.get('/whoami', 'sued')).body;
    expect(sued.tenant_name).toBe('Immobilien Süd KG');
    expect('token_expires_at' in sued).toBe(false);
    const p1 = (await h.get('/whoami', 'p1only')).body;
    expect(p1.property_scope).toEqual([h.ds.propertiesOf(h.ds.tenants()[0]!.id)[0]!.id]);
  });
  it('passes the public URL without query to the token validator (DPoP htu)', async () => {
    await h.get('/usage-units?limit=5');
    expect(h.validated.at(-1)).toBe(`${h.base}/usage-units`);
  });
});

describe('GET /properties and /properties/{id}', () => {
  it('lists only the token tenant’s Properties with every address, counts and null external_ref', async () => {
    const r = await h.get('/properties');
    expect(r.status).toBe(200);
    expect(r.body.prev_cursor).toBeNull();
    expect(r.body.next_cursor).toBeNull();
    const names = r.body.data.map((p: any) => p.name);
    expect(names).toEqual(['Musterstraße 1-5', 'Lindenhof', 'Lessingstraße 7']);
    const p1 = r.body.data[0];
    expect(Object.keys(p1)).toEqual(['id', 'tenant_id', 'external_ref', 'name', 'addresses', 'usage_unit_count']);
    expect(p1.id).toMatch(UUID);
    expect(p1.external_ref).toBeNull();
    expect(p1.usage_unit_count).toBe(21);
    expect(p1.addresses).toHaveLength(4);
    expect(p1.addresses[2]).toEqual({
      street: 'Musterstraße',
      house_number: '3',
      house_number_addition: 'a',
      postal_code: '22085',
      city: 'Hamburg',
      country_code: 'DE',
    });
    expect((await h.get(`/properties/${p1.id}`)).body).toEqual(p1);
  });
  it('answers usage_unit_count null for "Birkenweg" of Immobilien Süd KG', async () => {
    const r = await h.get('/properties', 'sued');
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0].name).toMatch(/^Birkenweg /);
    expect(r.body.data[0].usage_unit_count).toBeNull();
    expect(r.body.data[0].tenant_id).toBe(h.ds.tenants()[1]!.id);
  });
  it('a Property without units: usage_unit_count 0, no units, only its main water meter', async () => {
    const empty = (await h.get('/properties', 'sued')).body.data[1];
    expect(empty).toMatchObject({ name: 'Gewerbehof Kanalstraße 2-4', usage_unit_count: 0 });
    expect(empty.addresses.map((a: any) => `${a.street} ${a.house_number}`)).toEqual(['Kanalstraße 2', 'Kanalstraße 4']);
    expect((await h.get(`/usage-units?property_id=${empty.id}`, 'sued')).body).toEqual({ data: [], next_cursor: null, prev_cursor: null });
    const points = (await h.get(`/properties/${empty.id}/measuring-points`, 'sued')).body.data;
    expect(points.map((p: any) => [p.metric, p.usage_unit_id])).toEqual([['water_cold', null]]);
    expect((await h.get(`/measuring-points/${points[0].id}`, 'sued')).status).toBe(200);
  });
  it('Lindenhof has two addresses, both used by units', async () => {
    const lindenhof = (await h.get('/properties')).body.data[1];
    expect(lindenhof.addresses).toHaveLength(2);
    const units = (await walk(h, `/usage-units?property_id=${lindenhof.id}`, 200)).items;
    expect(new Set(units.map((u: any) => u.address.house_number))).toEqual(new Set(lindenhof.addresses.map((a: any) => a.house_number)));
  });
  it('a 50/50 shared point names the unit with the smaller id as usage_unit_id', async () => {
    const { points, unit } = await musterstrasse(h);
    const tie = points.find((p: any) => p.localization === 'Heizkreis Allgemeinräume');
    const ids = [unit('Treppenhaus').id, unit('Technikraum').id].sort();
    expect(tie.usage_unit_id).toBe(ids[0]);
  });
  it('keeps an address without units (Musterstraße 5)', async () => {
    const { p1, units } = await musterstrasse(h);
    const used = new Set(units.map((u: any) => `${u.address.house_number}${u.address.house_number_addition ?? ''}`));
    const unused = p1.addresses.filter((a: any) => !used.has(`${a.house_number}${a.house_number_addition ?? ''}`));
    expect(unused.map((a: any) => a.house_number)).toEqual(['5']);
  });
  it('external_ref filter: a non-empty value gives an empty page, an empty one filters nothing', async () => {
    expect((await h.get('/properties?external_ref=ERP-1')).body).toEqual({ data: [], next_cursor: null, prev_cursor: null });
    expect((await h.get('/properties?external_ref=')).body.data).toHaveLength(3);
  });
});

describe('GET /usage-units', () => {
  it('walks all pages (limit 7) to the same units as one page of 200, no duplicates', async () => {
    const small = await walk(h, '/usage-units', 7);
    const big = await walk(h, '/usage-units', 200);
    expect(big.pages).toBe(1);
    expect(small.items.map((u: any) => u.id)).toEqual(big.items.map((u: any) => u.id));
    expect(small.pages).toBe(Math.ceil(big.items.length / 7));
    expect(new Set(big.items.map((u: any) => u.id)).size).toBe(big.items.length);
    // Nordlicht: Musterstraße (21) + Lindenhof (19) + Lessingstraße 7 (8) of the 60 default units.
    expect(big.items).toHaveLength(48);
  });
  it('prev_cursor leads back to the previous page', async () => {
    const first = (await h.get('/usage-units?limit=5')).body;
    const second = (await h.get(`/usage-units?limit=5&page_cursor=${first.next_cursor}`)).body;
    expect(second.prev_cursor).not.toBeNull();
    const back = (await h.get(`/usage-units?limit=5&page_cursor=${second.prev_cursor}`)).body;
    expect(back.data.map((u: any) => u.id)).toEqual(first.data.map((u: any) => u.id));
  });
  it('defaults to 100 items per page', async () => {
    const big = await startApi({ units: 400 });
    try {
      const r = await big.get('/usage-units');
      expect(r.body.data).toHaveLength(100);
      expect(r.body.next_cursor).not.toBeNull();
    } finally {
      await big.close();
    }
  });
  it('property_id limits to one Property; a Property outside the whitelist gives an empty page', async () => {
    const { p1 } = await musterstrasse(h);
    const r = await walk(h, `/usage-units?property_id=${p1.id}`, 50);
    expect(r.items).toHaveLength(21);
    expect(r.items.every((u: any) => u.property_id === p1.id)).toBe(true);
    const sued = (await h.get('/properties', 'sued')).body.data[0];
    expect((await h.get(`/usage-units?property_id=${sued.id}`)).body.data).toEqual([]);
  });
  it('unit fields: summary of the Property, sector fields, address, point summaries', async () => {
    const { unit, p1 } = await musterstrasse(h);
    const we03 = unit('WE 03');
    expect(Object.keys(we03)).toEqual([
      'id',
      'tenant_id',
      'property_id',
      'property',
      'external_ref',
      'name',
      'floor',
      'position',
      'unit_type',
      'area_heated_m2',
      'area_ww_m2',
      'address',
      'measuring_points',
    ]);
    expect(we03.property).toEqual({ id: p1.id, name: 'Musterstraße 1-5', address_line: 'Musterstraße 1, 22085 Hamburg', external_ref: null });
    expect(we03).toMatchObject({ floor: '1. OG', position: 'links', unit_type: 'residential', area_heated_m2: 78.4, external_ref: null });
    expect(we03.measuring_points.map((m: any) => m.metric)).toEqual(['water_cold', 'water_warm', 'heat']);
    for (const m of we03.measuring_points) {
      expect(Object.keys(m)).toEqual(['measuring_point_id', 'metric', 'obis', 'unit', 'active_device_serial', 'is_difference_meter']);
      expect(m.obis).toBeNull();
    }
    expect(we03.measuring_points[2]).toMatchObject({ unit: 'kWh', is_difference_meter: false });
    expect((await h.get(`/usage-units/${we03.id}`)).body).toEqual(we03);
  });
  it('every unit_type occurs', async () => {
    const { units } = await musterstrasse(h);
    expect(new Set(units.map((u: any) => u.unit_type))).toEqual(new Set(['residential', 'commercial', 'technical', 'traffic']));
    const tr = units.find((u: any) => u.unit_type === 'traffic');
    expect(tr).toMatchObject({ name: 'Treppenhaus', floor: null, area_heated_m2: null, area_ww_m2: null });
  });
});

describe('measuring points', () => {
  it('/properties/{id}/measuring-points lists unit, shared, plant-room and main meters with full fields', async () => {
    const { points, unit } = await musterstrasse(h);
    const noUnit = points.filter((p: any) => p.usage_unit_id === null);
    expect(noUnit.map((p: any) => p.localization)).toEqual(['Hauptwasserzähler Hausanschluss', 'Wärmemengenzähler Heizzentrale']);
    for (const p of noUnit) expect(p.allocations).toEqual([]);
    const shared = points.find((p: any) => p.localization === 'Steigleitung Haus 3a');
    expect(shared.allocations).toEqual([
      { usage_unit_id: unit('WE 16').id, share: 0.5 },
      { usage_unit_id: unit('WE 17').id, share: 0.25 },
      { usage_unit_id: unit('WE 18').id, share: 0.25 },
    ]);
    expect(shared.usage_unit_id).toBe(unit('WE 16').id);
    // Shares of every point sum to 1.
    for (const p of points.filter((x: any) => x.allocations.length)) expect(p.allocations.reduce((a: number, x: any) => a + x.share, 0)).toBeCloseTo(1, 9);
    const heat = points.find((p: any) => p.usage_unit_id === unit('WE 01').id && p.metric === 'heat');
    expect(Object.keys(heat)).toEqual([
      'id',
      'usage_unit_id',
      'property_id',
      'metric',
      'obis',
      'unit',
      'localization',
      'active_device',
      'is_difference_meter',
      'allocations',
    ]);
    expect(Object.keys(heat.active_device)).toEqual([
      'id',
      'serial',
      'manufacturer',
      'device_type',
      'installed_at',
      'deinstalled_at',
      'replacement_reason',
      'resolution',
      'factor',
    ]);
    expect(heat.active_device).toMatchObject({ resolution: null, factor: 1, installed_at: '2019-05-14', deinstalled_at: null, replacement_reason: null });
    expect((await h.get(`/measuring-points/${heat.id}`)).body).toEqual(heat);
  });
  it('plant-room meters never appear under a unit', async () => {
    const { points, units } = await musterstrasse(h);
    const plantIds = new Set(points.filter((p: any) => p.usage_unit_id === null).map((p: any) => p.id));
    for (const u of units) for (const m of u.measuring_points) expect(plantIds.has(m.measuring_point_id)).toBe(false);
  });
  it('paginates the point list with limit and cursor', async () => {
    const { p1, points } = await musterstrasse(h);
    const paged = await walk(h, `/properties/${p1.id}/measuring-points`, 9);
    expect(paged.items.map((p: any) => p.id)).toEqual(points.map((p: any) => p.id));
    expect(paged.pages).toBe(Math.ceil(points.length / 9));
  });
});

describe('property whitelist', () => {
  it('anything outside the whitelist or another tenant’s is 404, never 403', async () => {
    const { unit, points } = await musterstrasse(h);
    const lindenhof = (await h.get('/properties')).body.data[1];
    const sued = (await h.get('/properties', 'sued')).body.data[0];
    const suedUnit = (await h.get('/usage-units?limit=1', 'sued')).body.data[0];
    // p1only sees Musterstraße only.
    expect((await h.get(`/properties/${lindenhof.id}`, 'p1only')).status).toBe(404);
    expect((await h.get('/properties', 'p1only')).body.data.map((p: any) => p.name)).toEqual(['Musterstraße 1-5']);
    expect((await walk(h, '/usage-units', 100, 'p1only')).items).toHaveLength(21);
    // Another tenant's objects are 404 to Nordlicht, and Nordlicht's to Süd.
    for (const path of [`/properties/${sued.id}`, `/usage-units/${suedUnit.id}`, `/usage-units/${suedUnit.id}/consumption?from=2025-01-01&to=2025-12-31`]) {
      const r = await h.get(path);
      expect(r.status).toBe(404);
      expect(r.body.type).toBe('https://developer.example/errors/#resource-not-found');
    }
    expect((await h.get(`/usage-units/${unit('WE 01').id}`, 'sued')).status).toBe(404);
    expect((await h.get(`/measuring-points/${points[0].id}`, 'sued')).status).toBe(404);
    expect((await h.get(`/measuring-points/${points[0].id}/readings?from=2025-01-01&to=2025-01-31`, 'sued')).status).toBe(404);
  });
  it('non-UUID and unknown UUID ids are 404', async () => {
    for (const path of [
      '/properties/123',
      '/usage-units/not-a-uuid',
      '/measuring-points/%ZZ',
      '/measuring-points/00000000-0000-4000-8000-000000000001/readings?from=2025-01-01&to=2025-01-31',
    ]) {
      const r = await h.get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});

describe('determinism', () => {
  it('same seed and units give byte-identical answers; another seed gives other ids', async () => {
    const other = await startApi();
    const third = await startApi({ seed: 'other' });
    try {
      const { unit } = await musterstrasse(h);
      const path = `/usage-units/${unit('WE 03').id}/consumption?from=2025-01-01&to=2025-12-31`;
      expect((await other.get(path)).text).toBe((await h.get(path)).text);
      expect((await other.get('/usage-units?limit=200')).text).toBe((await h.get('/usage-units?limit=200')).text);
      expect((await third.get('/properties')).text).not.toBe((await h.get('/properties')).text);
    } finally {
      await other.close();
      await third.close();
    }
  });
});

describe('scale and latency', () => {
  it('50,000 units: Properties of at most 200 units, pages and consumption of the last unit', async () => {
    const big = await startApi({ units: 50_000 });
    try {
      const props = await walk(big, '/properties', 200);
      expect(props.items.length).toBeGreaterThan(100);
      expect(Math.max(...props.items.map((p: any) => p.usage_unit_count ?? 0))).toBeLessThanOrEqual(200);
      const last = props.items.at(-1);
      const units = await walk(big, `/usage-units?property_id=${last.id}`, 200);
      expect(units.items.length).toBe(last.usage_unit_count);
      const c = await big.get(`/usage-units/${units.items.at(-1).id}/consumption?from=2025-01-01&to=2025-12-31`);
      expect(c.status).toBe(200);
      expect(c.body.measuring_points.length).toBeGreaterThan(1);
    } finally {
      await big.close();
    }
  });
  it('injects answer latency within the configured range', async () => {
    const slow = await startApi({ latencyMs: [150, 200] });
    try {
      const t0 = performance.now();
      expect((await slow.get('/whoami')).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.close();
    }
  });
});
