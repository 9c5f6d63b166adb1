// The export engine's fixtures: three Properties of two units and a plant-room meter each,
// a fake ApiClient answering from them (and recording each call), a reporter keeping notes.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPoint, MeasuringPointConsumption, Property, UnitConsumption, UsageUnit, WhoAmI } from '../../src/api/types.js';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import { parseExportArgs } from '../../src/export/options/options.js';
import type { Reporter } from '../../src/export/progress.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { aPlantPoint, aPointConsumption, aUnitEntry, pointListOf, uuid } from './builders.js';

export interface Data {
  property: Property;
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  plant: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

export function dataset(): Data[] {
  return [1, 2, 3].map((n) => {
    const property: Property = { id: uuid(0x9000 + n), tenant_id: uuid(2), external_ref: null, name: `Haus ${n}`, addresses: [], usage_unit_count: 2 };
    const units = ['WE 2', 'WE 1'].map((name) => aUnitEntry(name, [aPointConsumption()], { property_id: property.id }));
    const plant = [aPlantPoint({ point: { property_id: property.id } })];
    return { property, units, plant };
  });
}

export function fakeApi(data: Data[], opts: { failAt?: number; scope?: WhoAmI['property_scope'] } = {}) {
  const calls: string[] = [];
  const find = <T>(xs: T[], ok: (x: T) => boolean) => xs.find(ok)!;
  const api: ApiClient = {
    async whoami() {
      calls.push('whoami');
      return { tenant_id: uuid(2), tenant_name: 'Nordlicht', client_id: 'c', granted_scopes: [], property_scope: opts.scope ?? 'all' };
    },
    async *listProperties() {
      calls.push('properties');
      for (const d of data) yield d.property;
    },
    async getProperty(id) {
      calls.push(`property:${id}`);
      return find(data, (d) => d.property.id === id).property;
    },
    async *listPropertyMeasuringPoints(id) {
      calls.push(`points:${id}`);
      yield* pointListOf(find(data, (d) => d.property.id === id));
    },
    async *listUsageUnits(q) {
      calls.push(`units:${q?.propertyId}`);
      const i = data.findIndex((d) => d.property.id === q?.propertyId);
      if (i === opts.failAt) throw new ServiceUnavailableError('The API kept answering 503.');
      yield* data[i]!.units.map((u) => u.unit);
    },
    async getUsageUnit() {
      throw new Error('not used');
    },
    async unitConsumption(id) {
      calls.push(`consumption:${id}`);
      return data.flatMap((d) => d.units).find((u) => u.unit.id === id)!.consumption;
    },
    async getMeasuringPoint() {
      throw new Error('not used');
    },
    async pointReadings(id) {
      calls.push(`readings:${id}`);
      return data.flatMap((d) => d.plant).find((p) => p.point.id === id)!.consumption;
    },
    forgetProperty: (id) => void calls.push(`forget:${id}`),
    stats: () => ({ requests: calls.length, retries: 0, rateLimited: 0 }),
    async close() {},
  };
  return { api, calls };
}

export function reporter(): Reporter & { notes: string[] } {
  const notes: string[] = [];
  return { notes, begin() {}, unit() {}, property() {}, note: (l) => void notes.push(l), end() {} };
}

export async function setup(layout = 'generic') {
  const home = await mkdtemp(path.join(os.tmpdir(), 'md-run-'));
  const args = parseExportArgs({ year: '2025', out: 'out' }, home, {});
  const template = await loadTemplate(layout, process.cwd());
  return { home, args, template, stateDir: path.join(home, 'state') };
}

export const T0 = new Date('2026-11-22T08:00:00Z');
export const T1 = new Date('2026-11-22T09:30:00Z');
