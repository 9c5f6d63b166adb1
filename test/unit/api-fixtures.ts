// Builders of contract-shaped answers and a counting Credentials for the API helper tests.
import { afterEach } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient, ApiClientOptions, ApiEvent, UnknownValue } from '../../src/api/contracts.js';
import type { Credentials } from '../../src/core/credentials.js';
import { startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';

let n = 0;
/** A fresh uuid-shaped id with a readable prefix digit. */
export const uid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export const TENANT = '11111111-1111-4111-8111-111111111111';

export function whoami(scope: 'all' | string[] = 'all') {
  return { tenant_id: TENANT, tenant_name: 'Hausverwaltung Test', client_id: 'sandbox-demo-client', granted_scopes: ['read:units', 'read:devices', 'read:readings'], property_scope: scope };
}

const address = { street: 'Hauptstraße', house_number: '1', house_number_addition: null, postal_code: '10115', city: 'Berlin', country_code: 'DE' };

export function property(id = uid(), name = 'Musterhof') {
  return { id, tenant_id: TENANT, external_ref: null, name, addresses: [address], usage_unit_count: 2 };
}

export function unit(id = uid(), name = 'WE 01', propertyId = uid(), pointId = uid()) {
  return {
    id, tenant_id: TENANT, property_id: propertyId, property: { id: propertyId, name: 'Musterhof', address_line: 'Hauptstraße 1, 10115 Berlin', external_ref: null },
    external_ref: null, name, floor: 'EG', position: 'links', unit_type: 'residential', area_heated_m2: 71.5, area_ww_m2: 71.5, address,
    measuring_points: [{ measuring_point_id: pointId, metric: 'heat', obis: null, unit: 'kWh', active_device_serial: 'H-1001', is_difference_meter: false }],
  };
}

export function segment(overrides: Record<string, unknown> = {}) {
  return {
    device_id: uid(), serial: 'H-1001', manufacturer: 'Techem', installed_at: '2020-01-15', deinstalled_at: null, replacement_reason: null,
    resolution: null, factor: 1, baseline_value: 100, baseline_date: '2024-12-31', baseline_origin: 'recorded',
    period_consumption: { end_value: 180, billable_value: 80, weighted_billable_value: 80, status: 'measured' },
    readings: [{ at: '2025-01-31', value: 110, status: 'measured', substitution_method: null, is_synthetic: false }],
    ...overrides,
  };
}

export function pointConsumption(id = uid(), overrides: Record<string, unknown> = {}) {
  return { measuring_point_id: id, metric: 'heat', obis: null, unit: 'kWh', is_difference_meter: false, unit_share: 1, segments: [segment()], ...overrides };
}

export function unitConsumption(unitId = uid(), points = [pointConsumption()]) {
  return { usage_unit_id: unitId, external_ref: null, from: '2025-01-01', to: '2025-12-31', measuring_points: points };
}

/** Credentials that count calls; refreshAfterRejection is single-flight like the real one. */
export class FakeCredentials implements Credentials {
  token = 'tok-1';
  refreshes = 0;
  rejected: string[] = [];
  calls: { method: string; url: string }[] = [];
  proofs = 0;
  private inflight: Promise<void> | null = null;
  constructor(readonly dpop = false) {}

  async headersFor(method: string, url: string): Promise<Record<string, string>> {
    this.calls.push({ method, url });
    if (!this.dpop) return { authorization: `Bearer ${this.token}` };
    return { authorization: `DPoP ${this.token}`, dpop: `proof-${++this.proofs}-${method}-${url}` };
  }

  refreshAfterRejection(rejectedToken: string): Promise<void> {
    this.rejected.push(rejectedToken);
    if (rejectedToken !== this.token) return Promise.resolve();
    this.inflight ??= new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
      this.refreshes++;
      this.token = `tok-${this.refreshes + 1}`;
      this.inflight = null;
    });
    return this.inflight;
  }

  async currentToken() {
    return this.token;
  }
}

export interface Rig {
  api: FakeApi;
  client: ApiClient;
  creds: FakeCredentials;
  events: ApiEvent[];
  unknown: UnknownValue[];
}

const open: Rig[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) {
    await r.client.close();
    await r.api.close();
  }
});

/** A fake API plus a client with fast retries; closed after each test. */
export async function rig(opts: Partial<ApiClientOptions> & { dpop?: boolean } = {}): Promise<Rig> {
  const api = await startFakeApi();
  const creds = new FakeCredentials(opts.dpop ?? false);
  const events: ApiEvent[] = [];
  const unknown: UnknownValue[] = [];
  const client = createApiClient({
    baseUrl: api.baseUrl,
    credentials: creds,
    rateLimitPerMinute: 60_000,
    retryBaseMs: 5,
    retryMaxMs: 20,
    onEvent: (e) => events.push(e),
    onUnknownValue: (u) => unknown.push(u),
    ...opts,
  });
  const r = { api, client, creds, events, unknown };
  open.push(r);
  return r;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The rejection of `p`, or a failure when it resolves. */
export async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
