// The API helper against a fake API over real HTTP: pagination, answer checks,
// open enums, unknown fields, defaults and the credentials' headers.
import { describe, expect, it } from 'vitest';
import { pageOf } from '../helpers/fake-api-server.js';
import { collect, failure, rig } from '../helpers/api-fixtures.js';
import { aPointConsumption, aProperty, aSegment, aUnit, aUnitConsumption, aWhoAmI, uuid } from '../helpers/builders.js';

describe('pagination', () => {
  it('follows next_cursor to the end with limit=200 and passes each cursor back', async () => {
    const { api, client } = await rig();
    const props = Array.from({ length: 5 }, (_, i) => aProperty({ id: uuid(), name: `Haus ${i}` }));
    api.route('/v1/properties', (r) => {
      const c = r.query.get('page_cursor');
      if (c === null) return pageOf(props.slice(0, 2), 'c-2');
      if (c === 'c-2') return pageOf(props.slice(2, 4), 'c/3+', 'c-1');
      if (c === 'c/3+') return pageOf(props.slice(4), null, 'c-2');
      return undefined;
    });
    const got = await collect(client.listProperties());
    expect(got.map((p) => p.name)).toEqual(props.map((p) => p.name));
    const hits = api.hits('/v1/properties');
    expect(hits).toHaveLength(3);
    expect(hits.map((h) => h.query.get('limit'))).toEqual(['200', '200', '200']);
    expect(hits.map((h) => h.query.get('page_cursor'))).toEqual([null, 'c-2', 'c/3+']);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 0, rateLimited: 0 });
  });

  it('fetches the next page only when the caller gets there', async () => {
    const { api, client } = await rig();
    api.route('/v1/usage-units', (r) => (r.query.get('page_cursor') ? pageOf([aUnit()], null) : pageOf([aUnit(), aUnit()], 'next')));
    const it = client.listUsageUnits()[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    expect(api.hits('/v1/usage-units')).toHaveLength(1);
    await it.next();
    expect(api.hits('/v1/usage-units')).toHaveLength(2);
    expect((await it.next()).done).toBe(true);
  });

  it('passes property_id when listing one property’s units', async () => {
    const { api, client } = await rig();
    const pid = uuid();
    api.route('/v1/usage-units', pageOf([aUnit({ id: uuid(), name: 'WE 01', property_id: pid })], null));
    await collect(client.listUsageUnits({ propertyId: pid }));
    expect(api.requests[0]!.query.get('property_id')).toBe(pid);
    expect(api.requests[0]!.query.get('limit')).toBe('200');
  });

  it('stops with API_CURSOR_LOOP when the service hands out the same cursor twice', async () => {
    const { api, client } = await rig();
    api.route('/v1/properties', (r) => pageOf([aProperty()], r.query.get('page_cursor') === null ? 'A' : 'A'));
    const e = await failure(collect(client.listProperties()));
    expect(e.code).toBe('API_CURSOR_LOOP');
    expect(e.exitCode).toBe(5);
    expect(e.message).toContain('GET /v1/properties');
    expect(api.hits('/v1/properties')).toHaveLength(2);
  });

  it('lists a property’s measuring points, including plant-room points without a unit', async () => {
    const { api, client } = await rig();
    const pid = uuid();
    api.route(`/v1/properties/${pid}/measuring-points`, pageOf([{ id: uuid(), property_id: pid, usage_unit_id: null, allocations: [] }], null));
    const [p] = await collect(client.listPropertyMeasuringPoints(pid));
    expect(p).toMatchObject({ property_id: pid, usage_unit_id: null, is_system_linked: true });
  });
});

describe('answers checked against the contract', () => {
  it('keeps unknown enum values and reports each with field and id', async () => {
    const { api, client, unknown } = await rig();
    const uidU = uuid();
    const pt = aPointConsumption({
      measuring_point_id: uuid(),
      metric: 'district_cooling',
      segments: [
        aSegment({
          baseline_origin: 'meter_swap_rule',
          readings: [{ at: '2025-01-31', value: 1, status: 'estimated', substitution_method: 'ai_magic', is_synthetic: true }],
        }),
      ],
    });
    api.route(`/v1/usage-units/${uidU}/consumption`, { json: aUnitConsumption({ usage_unit_id: uidU, measuring_points: [pt] }) });
    const c = await client.unitConsumption(uidU, { from: '2025-01-01', to: '2025-12-31' });
    const got = c.measuring_points[0]!;
    expect(got.metric).toBe('district_cooling');
    expect(got.segments[0]!.readings[0]!.status).toBe('estimated');
    expect(unknown).toEqual([
      { field: 'MeasuringPointConsumption.metric', value: 'district_cooling', id: pt.measuring_point_id },
      { field: 'DeviceSegment.baseline_origin', value: 'meter_swap_rule', id: pt.segments[0]!.device_id },
      { field: 'MeterReading.status', value: 'estimated', id: pt.segments[0]!.device_id },
      { field: 'MeterReading.substitution_method', value: 'ai_magic', id: pt.segments[0]!.device_id },
    ]);
  });

  it('tolerates unknown fields and applies the spec defaults (is_system_linked true, data_gap false)', async () => {
    const { api, client, unknown } = await rig();
    const pid = uuid();
    const body = { ...aPointConsumption({ measuring_point_id: pid }), future_field: { nested: [1, 2] } } as Record<string, unknown>;
    delete body.is_system_linked;
    delete body.data_gap;
    api.route(`/v1/measuring-points/${pid}/readings`, { json: body });
    const c = await client.pointReadings(pid, { from: '2025-01-01', to: '2025-12-31' });
    expect(c.is_system_linked).toBe(true);
    expect(c.data_gap).toBe(false);
    expect((c as unknown as Record<string, unknown>).future_field).toEqual({ nested: [1, 2] });
    expect(unknown).toEqual([]);
    const q = api.requests[0]!.query;
    expect([q.get('from'), q.get('to'), q.get('metric')]).toEqual(['2025-01-01', '2025-12-31', null]);
  });

  it('keeps is_system_linked false and data_gap true as sent', async () => {
    const { api, client } = await rig();
    const pid = uuid();
    api.route(`/v1/measuring-points/${pid}/readings`, {
      json: aPointConsumption({ measuring_point_id: pid, is_system_linked: false, data_gap: true, segments: [] }),
    });
    const c = await client.pointReadings(pid, { from: '2025-01-01', to: '2025-12-31' });
    expect([c.is_system_linked, c.data_gap]).toEqual([false, true]);
  });

  it('refuses an answer missing a required field with API_BAD_ANSWER naming it, without retrying', async () => {
    const { api, client } = await rig();
    const u = uuid();
    const seg = aSegment();
    delete (seg.period_consumption as Partial<typeof seg.period_consumption>).billable_value;
    api.route(`/v1/usage-units/${u}/consumption`, {
      json: aUnitConsumption({ usage_unit_id: u, measuring_points: [aPointConsumption({ measuring_point_id: uuid(), segments: [seg] })] }),
    });
    const e = await failure(client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e.code).toBe('API_BAD_ANSWER');
    expect(e.exitCode).toBe(5);
    expect(e.message).toContain('measuring_points[0].segments[0].period_consumption.billable_value is missing');
    expect(api.requests).toHaveLength(1);
  });

  it('refuses a wrong JSON type and a date-time where rc.3 has a date', async () => {
    const { api, client } = await rig();
    const p = uuid();
    api.route(`/v1/properties/${p}`, { json: { ...aProperty({ id: p }), usage_unit_count: '2' } });
    expect((await failure(client.getProperty(p))).message).toContain('usage_unit_count should be an integer but is string');
    const u = uuid();
    const seg = aSegment({ readings: [{ at: '2025-01-31T23:59:59Z', value: 1, status: 'measured', substitution_method: null, is_synthetic: false }] });
    api.route(`/v1/usage-units/${u}/consumption`, {
      json: aUnitConsumption({ usage_unit_id: u, measuring_points: [aPointConsumption({ measuring_point_id: uuid(), segments: [seg] })] }),
    });
    expect((await failure(client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31' }))).message).toContain('readings[0].at should be a date');
  });

  it('refuses a page without next_cursor rather than guessing it was the last', async () => {
    const { api, client } = await rig();
    api.route('/v1/properties', { json: { data: [aProperty()] } });
    const e = await failure(collect(client.listProperties()));
    expect(e.code).toBe('API_BAD_ANSWER');
    expect(e.message).toContain('next_cursor is missing');
  });

  it('reads whoami with property_scope as "all" or a list, and refuses anything else', async () => {
    const { api, client } = await rig();
    api.inject('/v1/whoami', { json: aWhoAmI() }, { json: aWhoAmI({ property_scope: [uuid()] }) }, { json: aWhoAmI({ property_scope: 'some' as 'all' }) });
    expect((await client.whoami()).property_scope).toBe('all');
    expect((await client.whoami()).property_scope).toHaveLength(1);
    expect((await failure(client.whoami())).code).toBe('API_BAD_ANSWER');
  });
});

describe('credentials', () => {
  it('asks headersFor once per request with the method and the full URL, and sends its headers (DPoP)', async () => {
    const { api, client, creds } = await rig({ dpop: true });
    const u = uuid();
    api.route(`/v1/usage-units/${u}/consumption`, { json: aUnitConsumption({ usage_unit_id: u }) });
    await client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31', metrics: ['heat', 'water_warm'] });
    await client.unitConsumption(u, { from: '2025-01-01', to: '2025-12-31' });
    expect(creds.calls).toEqual([
      { method: 'GET', url: `${api.baseUrl}/usage-units/${u}/consumption?from=2025-01-01&to=2025-12-31&metric=heat,water_warm` },
      { method: 'GET', url: `${api.baseUrl}/usage-units/${u}/consumption?from=2025-01-01&to=2025-12-31` },
    ]);
    const [a, b] = api.requests;
    expect(a!.headers.authorization).toBe('DPoP tok-1');
    expect(a!.headers.dpop).toMatch(/^proof-1-GET-/);
    expect(b!.headers.dpop).toMatch(/^proof-2-GET-/);
    expect(a!.query.get('metric')).toBe('heat,water_warm');
  });
});
