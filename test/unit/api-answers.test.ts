// Hostile answers over real HTTP: a consumption answer for another object than the one
// requested, or with an echoed range the range rules cannot produce, stops the run with
// a ServiceUnavailableError of its own code (exit 5) naming the request.
import { describe, expect, it } from 'vitest';
import { contractRange } from '../../src/api/answers.js';
import { failure, rig } from '../helpers/api-fixtures.js';
import { aPointConsumption, aProperty, aUnit, aUnitConsumption, uuid } from '../helpers/builders.js';

/** This computer's clock in these tests: the last completed month is October 2026. */
const NOW = new Date('2026-11-23T14:00:00Z');

async function unitAnswer(echo: { from: string; to: string }, requested: { from: string; to: string }, now = NOW) {
  const { api, client } = await rig({ now: () => now, maxAttempts: 1 });
  const u = uuid();
  api.route(`/v1/usage-units/${u}/consumption`, { json: { ...aUnitConsumption({ usage_unit_id: u }), ...echo } });
  return { api, u, result: client.unitConsumption(u, requested) };
}

describe('an answer for another object than the one requested', () => {
  it('unit consumption for another usage unit: API_WRONG_OBJECT, exit 5, naming the request and both ids', async () => {
    const { api, client } = await rig();
    const asked = uuid();
    const other = uuid();
    api.route(`/v1/usage-units/${asked}/consumption`, { json: aUnitConsumption({ usage_unit_id: other }) });
    const e = await failure(client.unitConsumption(asked, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toMatchObject({ code: 'API_WRONG_OBJECT', exitCode: 5, name: 'ServiceUnavailableError' });
    expect(e.message).toContain(`GET /v1/usage-units/${asked}/consumption`);
    expect(e.message).toContain(`for usage unit ${other} instead of ${asked}`);
    expect(e.hint).toMatch(/Nothing was billed/);
    expect(api.hits(`/v1/usage-units/${asked}/consumption`)).toHaveLength(1); // not retried: the same server gives the same answer
  });

  it('point readings for another measuring point: API_WRONG_OBJECT', async () => {
    const { api, client } = await rig();
    const asked = uuid();
    const other = uuid();
    api.route(`/v1/measuring-points/${asked}/readings`, { json: aPointConsumption({ measuring_point_id: other, unit_share: undefined }) });
    const e = await failure(client.pointReadings(asked, { from: '2025-01-01', to: '2025-12-31' }));
    expect(e).toMatchObject({ code: 'API_WRONG_OBJECT', exitCode: 5 });
    expect(e.message).toContain(`GET /v1/measuring-points/${asked}/readings`);
    expect(e.message).toContain(`for measuring point ${other} instead of ${asked}`);
  });

  it('single resources for another object: property, usage unit, measuring point', async () => {
    const { api, client } = await rig();
    const [p, u, mp, other] = [uuid(), uuid(), uuid(), uuid()];
    api.route(`/v1/properties/${p}`, { json: aProperty({ id: other }) });
    api.route(`/v1/usage-units/${u}`, { json: aUnit({ id: other }) });
    api.route(`/v1/measuring-points/${mp}`, { json: { id: other, property_id: p, usage_unit_id: null, is_system_linked: true } });
    for (const [call, kind, path] of [
      [client.getProperty(p), 'property', `/v1/properties/${p}`],
      [client.getUsageUnit(u), 'usage unit', `/v1/usage-units/${u}`],
      [client.getMeasuringPoint(mp), 'measuring point', `/v1/measuring-points/${mp}`],
    ] as const) {
      const e = await failure(call);
      expect(e).toMatchObject({ code: 'API_WRONG_OBJECT', exitCode: 5 });
      expect(e.message).toContain(`answered GET ${path} for ${kind} ${other} instead of`);
    }
  });

  it("a Property's unit or measuring-point list holding another Property's item: API_WRONG_OBJECT, nothing of it handed on", async () => {
    const { api, client } = await rig();
    const [p, other] = [uuid(), uuid()];
    api.route('/v1/usage-units', {
      json: { data: [aUnit({ id: uuid(), name: 'WE 01', property_id: p }), aUnit({ id: uuid(), name: 'WE 99', property_id: other })], next_cursor: null },
    });
    api.route(`/v1/properties/${p}/measuring-points`, {
      json: { data: [{ id: uuid(), property_id: other, usage_unit_id: null, is_system_linked: true }], next_cursor: null },
    });
    const seen: string[] = [];
    const drain = async (items: AsyncIterable<{ id?: string }>) => {
      for await (const x of items) seen.push(String(x.id));
    };
    for (const [list, path] of [
      [() => client.listUsageUnits({ propertyId: p }), '/v1/usage-units'],
      [() => client.listPropertyMeasuringPoints(p), `/v1/properties/${p}/measuring-points`],
    ] as const) {
      const e = await failure(drain(list()));
      expect(e).toMatchObject({ code: 'API_WRONG_OBJECT', exitCode: 5 });
      expect(e.message).toContain(`answered GET ${path} for Property ${other} instead of ${p}`);
    }
    expect(seen).toEqual([]);
  });

  it('the same id in upper case is the same object', async () => {
    const { api, client } = await rig();
    const asked = uuid();
    api.route(`/v1/usage-units/${asked}/consumption`, { json: aUnitConsumption({ usage_unit_id: asked.toUpperCase() }) });
    await expect(client.unitConsumption(asked, { from: '2025-01-01', to: '2025-12-31' })).resolves.toMatchObject({ from: '2025-01-01' });
  });
});

describe('an echoed range the range rules cannot produce', () => {
  it.each([
    ['widened to whole months', { from: '2025-03-15', to: '2025-05-10' }, { from: '2025-03-01', to: '2025-05-31' }],
    ['capped at the last completed month', { from: '2026-01-01', to: '2026-12-31' }, { from: '2026-01-01', to: '2026-10-31' }],
    ['capped earlier by a service whose clock lags or a sandbox horizon', { from: '2026-01-01', to: '2026-12-31' }, { from: '2026-01-01', to: '2026-09-30' }],
    ['capped at one month of the range', { from: '2026-10-05', to: '2026-12-31' }, { from: '2026-10-01', to: '2026-10-31' }],
  ])('accepted: %s', async (_, requested, echo) => {
    const { result } = await unitAnswer(echo, requested);
    await expect(result).resolves.toMatchObject(echo);
  });

  it('accepted: a service clock slightly ahead, already past the month end', async () => {
    const { result } = await unitAnswer({ from: '2026-01-01', to: '2026-11-30' }, { from: '2026-01-01', to: '2026-12-31' }, new Date('2026-11-30T22:30:00Z'));
    await expect(result).resolves.toMatchObject({ to: '2026-11-30' });
  });

  it.each([
    ['another start', { from: '2025-01-01', to: '2025-12-31' }, { from: '2024-01-01', to: '2025-12-31' }, /should start on 2025-01-01/],
    ['a start inside the month', { from: '2025-03-15', to: '2025-05-10' }, { from: '2025-03-15', to: '2025-05-31' }, /should start on 2025-03-01/],
    ['an end that is no month end', { from: '2025-01-01', to: '2025-12-31' }, { from: '2025-01-01', to: '2025-06-15' }, /not the last day of a month/],
    [
      'an end after the requested month',
      { from: '2025-01-01', to: '2025-12-31' },
      { from: '2025-01-01', to: '2026-01-31' },
      /after the requested month \(2025-12-31\)/,
    ],
    [
      'an end before the range begins',
      { from: '2025-01-01', to: '2025-12-31' },
      { from: '2025-01-01', to: '2024-12-31' },
      /ends before the requested range begins/,
    ],
    [
      'not capped at the last completed month',
      { from: '2026-01-01', to: '2026-12-31' },
      { from: '2026-01-01', to: '2026-12-31' },
      /past the last completed month \(2026-10-31 by this computer's clock\)/,
    ],
  ])('refused: %s (API_WRONG_RANGE, exit 5)', async (_, requested, echo, why) => {
    const { result, u } = await unitAnswer(echo, requested);
    const e = await failure(result);
    expect(e).toMatchObject({ code: 'API_WRONG_RANGE', exitCode: 5 });
    expect(e.message).toContain(`GET /v1/usage-units/${u}/consumption for ${echo.from} to ${echo.to} when ${requested.from} to ${requested.to} was requested`);
    expect(e.message).toMatch(why);
  });

  it('the latest end the contract allows follows this computer clock with two days of allowance', () => {
    expect(contractRange({ from: '2026-01-10', to: '2026-12-31' }, NOW)).toEqual({ from: '2026-01-01', to: '2026-10-31' });
    expect(contractRange({ from: '2026-01-10', to: '2026-12-31' }, new Date('2026-11-28T23:59:59Z'))).toEqual({ from: '2026-01-01', to: '2026-10-31' });
    expect(contractRange({ from: '2026-01-10', to: '2026-12-31' }, new Date('2026-11-29T00:00:00Z'))).toEqual({ from: '2026-01-01', to: '2026-11-30' });
    expect(contractRange({ from: '2025-02-10', to: '2025-02-11' }, NOW)).toEqual({ from: '2025-02-01', to: '2025-02-28' });
  });
});
