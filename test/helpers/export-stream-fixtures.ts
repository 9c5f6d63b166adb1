// The harness of the stream's tests (export-stream*.test.ts): Properties of flats listed
// out of their written order, a fake ApiClient answering them with chosen delays, holds and
// failures, and exports of the same data both ways (units written as they come, and each
// Property written at its end) compared byte for byte.
import { readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPoint, MeasuringPointConsumption, Property, UnitConsumption, UsageUnit } from '../../src/api/types.js';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import type { ExportArgs } from '../../src/export/options/options.js';
import type { RenderAhead, WorkbookWriter } from '../../src/export/output/index.js';
import { finishExport, stageExport, type ExportDeps } from '../../src/export/run.js';
import { serveWorkbooks, workbookWorkers } from '../../src/export/output/formats/xlsx/workbook-workers.js';
import { fragmentOf } from '../../src/export/output/formats/xlsx/xlsx-fragments.js';
import { aPlantPoint, aPointConsumption, aSegment, aUnitEntry, uuid } from './builders.js';
import { T0, reporter, setup } from './export-fixtures.js';

export type Entry = { unit: UsageUnit; consumption: UnitConsumption };
export interface Building {
  property: Property;
  units: Entry[];
  /** The point list beyond the units' points (plant-room points are added from `plant`). */
  points: MeasuringPoint[];
  plant: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

/** A small deterministic generator (the arrival order must differ between runs of one test, not between test runs). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const METRICS = [
  ['heat', 'kWh'],
  ['water_warm', 'm3'],
  ['water_cold', 'm3'],
  ['hca', 'units'],
] as const;

/** `n` units listed in an order other than the written one (WE 10 before WE 2 …), 0-3 points each, and a plant-room point. */
export function building(n: number, seed: number, name = `Haus ${seed}`): Building {
  const rnd = prng(seed);
  const property: Property = { id: uuid(), tenant_id: uuid(2), external_ref: null, name, addresses: [], usage_unit_count: n };
  const units: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const points = Array.from({ length: Math.floor(rnd() * 4) }, (_, k) => {
      const [metric, unit] = METRICS[(i + k) % METRICS.length]!;
      return aPointConsumption({
        metric,
        unit,
        segments: [aSegment({ period_consumption: { billable_value: Math.round(rnd() * 5000) / 10, weighted_billable_value: undefined } })],
      });
    });
    const type = i % 9 === 8 ? 'commercial' : i % 13 === 12 ? 'storage_room' : 'residential'; // one unit type this version does not know
    units.push(aUnitEntry(`WE ${i + 1}`, points, { property_id: property.id, unit_type: type as UsageUnit['unit_type'] }));
  }
  units.sort(() => rnd() - 0.5);
  return { property, units, points: [], plant: [aPlantPoint({ point: { property_id: property.id } })] };
}

/** Copies of a point in a unit's answer that the Property's point list leaves out for that unit (POINT_NOT_LISTED). */
export const unlistedCopies = new WeakSet<object>();

export const pointsOf = (b: Building): MeasuringPoint[] => [
  ...b.units.flatMap(({ unit, consumption }) =>
    consumption.measuring_points
      .filter((c) => !unlistedCopies.has(c))
      .map((c) => ({
        id: c.measuring_point_id,
        usage_unit_id: unit.id,
        property_id: b.property.id,
        metric: c.metric as MeasuringPoint['metric'],
      })),
  ),
  ...b.points,
  ...b.plant.map((p) => p.point),
];

export interface Options {
  /** Answers wait this long (ms) for unit `id`: the order they come in. */
  delay?: (id: string) => number;
  /** The answer for this unit waits for `release`. */
  hold?: { unitId: string; release: Promise<void> };
  failAtProperty?: number;
  /** This unit's consumption answers 503 (after retries). */
  failUnit?: string;
}

export function api(data: Building[], opts: Options = {}): ApiClient {
  const at = (id: string) => data.find((d) => d.property.id === id)!;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    async whoami() {
      return { tenant_id: uuid(2), tenant_name: 'Nordlicht', client_id: 'c', granted_scopes: [], property_scope: 'all' };
    },
    async *listProperties() {
      for (const d of data) yield d.property;
    },
    async getProperty(id) {
      return at(id).property;
    },
    async *listPropertyMeasuringPoints(id) {
      yield* pointsOf(at(id));
    },
    async *listUsageUnits(q) {
      const i = data.findIndex((d) => d.property.id === q?.propertyId);
      if (i === opts.failAtProperty) throw new ServiceUnavailableError('The API kept answering 503.');
      yield* data[i]!.units.map((u) => u.unit);
    },
    async getUsageUnit() {
      throw new Error('not used');
    },
    async unitConsumption(id) {
      if (opts.hold?.unitId === id) await opts.hold.release;
      if (opts.failUnit === id) throw new ServiceUnavailableError('The API kept answering 503.');
      await wait(opts.delay?.(id) ?? 0);
      return data.flatMap((d) => d.units).find((u) => u.unit.id === id)!.consumption;
    },
    async getMeasuringPoint() {
      throw new Error('not used');
    },
    async pointReadings(id) {
      return data.flatMap((d) => d.plant).find((p) => p.point.id === id)!.consumption;
    },
    forgetProperty: () => undefined,
    stats: () => ({ requests: 0, retries: 0, rateLimited: 0 }),
    async close() {},
  };
}

export async function contents(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await readFile(path.join(dir, n))).toString('base64')])));
}

/** One export of `data` into a fresh folder: its files, or its error's message. */
export async function exportOf(
  data: Building[],
  opts: Options & Partial<Pick<ExportDeps, 'streamUnits' | 'renderAhead'>> & { writeWorkbook?: WorkbookWriter; args?: (a: ExportArgs) => void } = {},
) {
  const s = await setup();
  opts.args?.(s.args); // --unit-refs, --metric, --compare, --format …
  try {
    const staged = await stageExport({
      api: api(data, opts),
      ...s,
      reporter: reporter(),
      toolVersion: 't',
      now: () => T0,
      ...(opts.streamUnits === false ? { streamUnits: false } : {}),
      ...(opts.renderAhead ? { renderAhead: opts.renderAhead } : {}),
    });
    const summary = await finishExport(staged, opts.writeWorkbook ? { writeWorkbook: opts.writeWorkbook } : {});
    return { files: await contents(s.args.out), summary, s };
  } catch (e) {
    return { error: (e as Error).message.replaceAll(s.args.out, '<out>'), s };
  }
}

/** The same data exported both ways: the same files (or the same error). */
export async function expectSameBothWays(data: Building[], opts: Options = {}) {
  const atEnd = await exportOf(data, { streamUnits: false });
  const streamed = await exportOf(data, opts);
  expect(streamed.error).toEqual(atEnd.error);
  expect(Object.keys(streamed.files ?? {})).toEqual(Object.keys(atEnd.files ?? {}));
  for (const name of Object.keys(atEnd.files ?? {})) expect({ name, bytes: streamed.files![name] }).toEqual({ name, bytes: atEnd.files![name] });
  return { atEnd, streamed };
}

/** The last flat of a Property (the largest name): its answer is held back to find rows of the flats before it on disk first. */
export function lastWritten(b: Building): Entry {
  return [...b.units]
    .sort((x, y) => Number(x.unit.name.slice(3)) - Number(y.unit.name.slice(3)))
    .filter((u) => u.unit.unit_type === 'residential')
    .at(-1)!;
}

/**
 * Exports `data` with the last unit of `big` held until rows of `big` were spooled (the
 * renders ahead say so), through workbook workers serving in this thread; the other way
 * round, the same data without streaming nor workers. Both folders must be the same bytes.
 */
export async function expectEarlyRowsThenSame(data: Building[], big: Building) {
  let release!: () => void;
  const held = lastWritten(big);
  const seen: number[] = [];
  let earlyWhileHeld = false;
  let heldBack = true;
  const workers = workbookWorkers(2, (port) => serveWorkbooks({ port }));
  const runs = new Set<string>();
  const spy: RenderAhead = (spec, upTo) => {
    seen.push(upTo.billing ?? 0);
    runs.add(spec.run);
    const spooled = readFileSync(spec.spools.billing!)
      .subarray(0, upTo.billing ?? 0)
      .toString('utf8');
    workers.ahead(spec, upTo);
    if (heldBack && spooled.includes(big.property.id)) {
      earlyWhileHeld = true;
      heldBack = false;
      // the held answer comes once the workers rendered those rows: a drop must not leave them in the workbook
      void until(() => statSync(fragmentOf(spec.spools.billing!, spec.run)).size > 0).then(() => release());
    }
  };
  let releaseAnyway: NodeJS.Timeout | undefined;
  try {
    const atEnd = await exportOf(data, { streamUnits: false });
    releaseAnyway = setTimeout(() => release(), 5000); // bounded: a failure shows as earlyWhileHeld false
    const streamed = await exportOf(data, {
      hold: { unitId: held.unit.id, release: new Promise<void>((r) => (release = r)) },
      delay: (id) => id.charCodeAt(id.length - 1) % 4,
      renderAhead: spy,
      writeWorkbook: workers.write,
    });
    expect(streamed.error).toBeUndefined();
    expect(earlyWhileHeld).toBe(true);
    expect(Object.keys(streamed.files!)).toEqual(Object.keys(atEnd.files!));
    for (const name of Object.keys(atEnd.files!)) expect({ name, bytes: streamed.files![name] }).toEqual({ name, bytes: atEnd.files![name] });
    return { atEnd, streamed, seen, runs };
  } finally {
    clearTimeout(releaseAnyway);
    await workers.close();
  }
}

/** Polls (every 10 ms, at most 2 s). */
export async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
}

export const csv = (files: Record<string, string>, name: string) => Buffer.from(files[name]!, 'base64').toString('utf8');

/** `b` with a point listed under its first and its last flat (share sum 2): its early rows are dropped at its end. */
export function sharedTwice(b: Building): Building {
  const first = b.units.find((u) => u.unit.name === 'WE 1')!;
  const shared = aPointConsumption({ metric: 'heat', unit: 'kWh' });
  first.consumption.measuring_points.push(shared);
  lastWritten(b).consumption.measuring_points.push({ ...shared, segments: [aSegment()] });
  return b;
}
