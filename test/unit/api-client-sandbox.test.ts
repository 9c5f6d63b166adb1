// The API helper against the real sandbox API (createApi over node:http on 127.0.0.1)
// with a fake token validator: walks the whole default data set and checks counts,
// tolerates the future-contract mode, and reads a narrowed property scope as withdrawn access.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient, UnknownValue } from '../../src/api/contracts.js';
import { staticCredentials } from '../../src/core/credentials.js';
import { AccessWithdrawnError } from '../../src/core/errors.js';
import { createApi, type FaultPlan } from '../../src/sandbox/api/index.js';
import type { TokenInfo, TokenValidator } from '../../src/sandbox/contracts.js';
import { generateDataset } from '../../src/sandbox/data/index.js';
import { collect } from '../helpers/api-fixtures.js';

const ds = generateDataset();
const tenantId = ds.tenants()[0]!.id;
const allTenants = ds.tenants().map((t) => t.id);
const TOKEN = 'sandbox-test-token';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function sandbox(opts: { futureContract?: boolean; tenant?: string; faults?: FaultPlan; requestTimeoutMs?: number } = {}) {
  const { tenant = tenantId, requestTimeoutMs, ...apiOpts } = opts;
  const token: TokenInfo = {
    sid: 'conn-1',
    client_id: 'sandbox-demo-client',
    tenant_id: tenant,
    scopes: ['read:units', 'read:devices', 'read:readings'],
    property_scope: 'all',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
  };
  const tokens: TokenValidator = {
    async validate(req) {
      return req.headers.authorization === `Bearer ${TOKEN}`
        ? { ok: true, token }
        : { ok: false, error: 'invalid_token', description: 'unknown token', scheme: 'Bearer' };
    },
    tenantAccessEnabled: () => true,
  };
  const handler = createApi({ dataset: ds, tokens, clock: { now: () => new Date('2026-06-15T12:00:00Z') }, rateLimitPerMinute: 0, ...apiOpts });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const unknown: UnknownValue[] = [];
  const client: ApiClient = createApiClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    credentials: staticCredentials(TOKEN),
    rateLimitPerMinute: 60_000,
    concurrency: 8,
    retryBaseMs: 10,
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    onUnknownValue: (u) => unknown.push(u),
  });
  closers.push(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { client, token, unknown };
}

const YEAR = { from: '2025-01-01', to: '2025-12-31' };

describe('API helper against the sandbox API', () => {
  it.each(allTenants)('walks the default data set of tenant %s: properties, units, points, consumption, readings', async (tenant) => {
    const { client, unknown } = await sandbox({ tenant });
    const who = await client.whoami();
    expect(who.tenant_id).toBe(tenant);

    const props = await collect(client.listProperties());
    const expected = ds.properties(tenant);
    expect(props.length).toBeGreaterThan(0);
    expect(props.map((p) => p.id)).toEqual(expected.map((p) => ds.propertyId(p)));

    const units = await collect(client.listUsageUnits());
    expect(units).toHaveLength(expected.reduce((n, p) => n + (p.unitEnd - p.unitStart), 0));
    let perProperty = 0;
    for (const p of props) perProperty += (await collect(client.listUsageUnits({ propertyId: p.id }))).length;
    expect(perProperty).toBe(units.length);

    const points = [];
    for (const [i, p] of props.entries()) {
      const list = await collect(client.listPropertyMeasuringPoints(p.id));
      expect(list).toHaveLength(ds.pointsOfProperty(expected[i]!).length);
      points.push(...list);
    }
    const consumption = await Promise.all(units.map((u) => client.unitConsumption(u.id, YEAR)));
    consumption.forEach((c, i) => {
      expect(c.usage_unit_id).toBe(units[i]!.id);
      expect(c.measuring_points.map((m) => m.measuring_point_id).sort()).toEqual(units[i]!.measuring_points.map((m) => m.measuring_point_id).sort());
    });
    const plant = points.filter((p) => p.usage_unit_id === null);
    expect(plant.length).toBeGreaterThan(0);
    const readings = await Promise.all(plant.map((p) => client.pointReadings(p.id!, YEAR)));
    expect(readings.map((r) => r.measuring_point_id)).toEqual(plant.map((p) => p.id));

    expect(unknown).toEqual([]);
    expect(client.stats()).toMatchObject({ retries: 0, rateLimited: 0 });
  });

  it('rides out the sandbox’s injected faults (500, 503, drop, truncate, slow, 429) with the same data as a clean run', async () => {
    const walk = async (client: ApiClient) => {
      const units = await collect(client.listUsageUnits());
      return Promise.all(units.map((u) => client.unitConsumption(u.id, YEAR)));
    };
    const clean = await walk((await sandbox()).client);
    const faults: FaultPlan = {
      rules: [
        { kind: '500', at: [2] },
        { kind: '503', at: [4] },
        { kind: 'drop', at: [6] },
        { kind: 'truncate', at: [8] },
        { kind: 'slow', at: [10], ms: 600 },
        { kind: '429', at: [12] },
      ],
    };
    const { client } = await sandbox({ faults, requestTimeoutMs: 300 });
    expect(await walk(client)).toEqual(clean);
    expect(client.stats()).toMatchObject({ retries: 6, rateLimited: 1 });
  });

  it('tolerates the future-contract mode: unknown fields ignored, unknown enum values kept and reported', async () => {
    const { client, unknown } = await sandbox({ futureContract: true });
    const units = await collect(client.listUsageUnits());
    const consumption = await Promise.all(units.map((u) => client.unitConsumption(u.id, YEAR)));
    expect(consumption).toHaveLength(units.length);
    const values = new Set(unknown.map((u) => `${u.field}=${u.value}`));
    expect(values.has('MeasuringPointConsumption.metric=heat_pump_power') || values.has('MeasuringPointSummary.metric=heat_pump_power')).toBe(true);
    expect(values.has('MeterReading.status=estimated')).toBe(true);
    const kept = consumption.flatMap((c) => c.measuring_points).filter((m) => m.metric === 'heat_pump_power');
    expect(kept.length).toBeGreaterThan(0);
  });

  it('a property dropped from the scope mid-run surfaces as AccessWithdrawnError naming the unit', async () => {
    const { client, token } = await sandbox();
    const units = await collect(client.listUsageUnits());
    const victim = units[0]!;
    token.property_scope = ds
      .properties(tenantId)
      .map((p) => ds.propertyId(p))
      .filter((id) => id !== victim.property_id);
    const e = await client.unitConsumption(victim.id, YEAR).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect((e as AccessWithdrawnError).message).toContain(`unit "${victim.name}"`);
    expect((e as AccessWithdrawnError).details).toMatchObject({ propertyScope: token.property_scope });
  });

  it('forgetProperty drops what it remembers of a Property’s units (a later 404 is a plain not-found), not of other Properties', async () => {
    const { client, token } = await sandbox();
    const units = await collect(client.listUsageUnits());
    const victim = units[0]!;
    const other = units.find((u) => u.property_id !== victim.property_id)!;
    client.forgetProperty(victim.property_id);
    token.property_scope = [];
    const e = await client.unitConsumption(victim.id, YEAR).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(AccessWithdrawnError);
    expect(e).toMatchObject({ code: 'NOT_FOUND', exitCode: 2 });
    await expect(client.unitConsumption(other.id, YEAR)).rejects.toBeInstanceOf(AccessWithdrawnError);
  });
});
