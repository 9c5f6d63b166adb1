// Browse's `e` on a unit screen writes only that unit's rows: the export's own run for one unit
// (src/commands/browse/run.ts, exportFromBrowser's `onlyUnit`). The checks across a Property's units
// (a shared meter whose copies disagree: COPIES_DISAGREE; the share sum of a shared meter) need every
// unit, as the screen has them: the Property is billed whole and then narrowed (pipeline/one-unit.ts).
// Narrowed before billing, WE 02's copy at 10 times was written 4000 with no finding, and honest
// 60/40 copies got a SHARE_SUM_MISMATCH.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPoint, Property } from '../../src/api/types.js';
import type { BrowseData } from '../../src/tui/data.js';
import { parseCsv } from '../../src/plausibility/index.js';
import { PROPERTY, aPointConsumption, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

// The browser itself is not needed: the test takes the data browse hands it, which carries `e`.
let handed: BrowseData | undefined;
vi.mock('../../src/tui/run.js', () => ({
  runBrowser: async (_io: unknown, data: BrowseData) => {
    handed = data;
    return 'quit';
  },
}));

const { run } = await import('../../src/commands/browse/run.js');

/** Two units sharing one heat meter (listed 60/40); WE 02's copy carries `factor` times WE 01's value. */
function property(factor: number, names: [string, string] = ['WE 01', 'WE 02']) {
  const id = uuid();
  const device = uuid();
  const copy = (billable: number, share: number) =>
    aPointConsumption({
      measuring_point_id: id,
      unit_share: share,
      segments: [
        aSegment({ device_id: device, serial: 'SN-SHARED', period_consumption: { billable_value: billable, weighted_billable_value: billable * share } }),
      ],
    });
  const a = aUnitEntry(names[0], [copy(1000, 0.6)]);
  const b = aUnitEntry(names[1], [copy(1000 * factor, 0.4)]);
  const prop: Property = { id: PROPERTY.id, tenant_id: uuid(2), external_ref: null, name: PROPERTY.name, addresses: [], usage_unit_count: 2 };
  const points: MeasuringPoint[] = [
    {
      id,
      property_id: PROPERTY.id,
      usage_unit_id: a.unit.id,
      metric: 'heat',
      unit: 'kWh',
      is_system_linked: true,
      allocations: [
        { usage_unit_id: a.unit.id, share: 0.6 },
        { usage_unit_id: b.unit.id, share: 0.4 },
      ],
    },
  ];
  return { prop, units: [a, b], points };
}

function memoryApi(d: ReturnType<typeof property>): ApiClient {
  async function* each<T>(items: T[]) {
    yield* items;
  }
  return {
    whoami: async () => ({ tenant_id: uuid(2), tenant_name: 'Nordlicht', client_id: 'c', granted_scopes: [], property_scope: 'all' }),
    listProperties: () => each([d.prop]),
    getProperty: async () => d.prop,
    listPropertyMeasuringPoints: () => each(d.points),
    listUsageUnits: () => each(d.units.map((u) => u.unit)),
    getUsageUnit: async () => d.units[0]!.unit,
    unitConsumption: async (id) => d.units.find((u) => u.unit.id === id)!.consumption,
    getMeasuringPoint: async () => d.points[0]!,
    pointReadings: async () => {
      throw new Error('no plant points');
    },
    forgetProperty: () => undefined,
    stats: () => ({ requests: 0, retries: 0, rateLimited: 0 }),
    close: async () => {},
  };
}

/** browse's command run in process up to the screen, for `d`'s Property; `home` is its working folder. */
async function browseOn(d: ReturnType<typeof property>) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'md-browse-unit-'));
  const tty = () => Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40 });
  const io = {
    stdout: tty(),
    stderr: tty(),
    stdin: tty(),
    env: { METERDATA_HOME: home, LANG: 'en_US.UTF-8' },
    cwd: home,
    signal: new AbortController().signal,
    locale: () => 'en-US',
  };
  const connection = { api: () => memoryApi(d), credentials: { currentToken: async () => 't' }, close: async () => {} };
  const ctx = {
    io,
    version: () => 't',
    now: () => new Date('2026-11-22T08:00:00Z'),
    paths: () => ({}) as never,
    store: async () => ({}) as never,
    connect: async () => connection as never,
  };
  handed = undefined;
  await run({ year: '2025' } as never, ctx as never);
  return { home, data: handed! };
}

const range = { from: '2025-01-01', to: '2025-12-31' };

/** A CSV file's rows as records by its header. */
async function csvRows(dir: string, file: string) {
  const [head, ...body] = parseCsv(await readFile(path.join(dir, file), 'utf8'), ',').filter((r) => r.some((c) => c !== ''));
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

/** `e` on WE 02's screen: the screen's row and the folder's. */
async function screenAndFolder(factor: number) {
  const d = property(factor);
  const { home } = await browseOn(d);
  const bundle = await handed!.loadProperty(d.prop, range);
  const we02 = d.units[1]!.unit;
  const screen = bundle.bill.billing.filter((r) => r.usage_unit_id === we02.id).map((r) => r.billable_value);
  const screenFlags = bundle.bill.flags
    .filter((f) => f.usage_unit_id === we02.id)
    .map((f) => f.code)
    .sort();
  await handed!.exportSelection!({ property: d.prop, range, unitId: we02.id, unitName: we02.name });
  const out = (await import('node:fs')).readdirSync(home).find((n) => n.startsWith('meterdata-'))!;
  const rows = (file: string) => csvRows(path.join(home, out), file);
  const folder = (await rows('billing.csv')).map((r) => r.billable_value);
  const folderFlags = (await rows('review.csv')).map((r) => r.code!).sort();
  return { screen, screenFlags, folder, folderFlags };
}

describe("browse's one-unit export of a unit with a shared meter", () => {
  it('writes the figure the screen shows when the copies disagree (screen 0 with COPIES_DISAGREE; folder 4000 with no finding)', async () => {
    const r = await screenAndFolder(10);
    expect(r.screen).toEqual(['0']);
    expect(r.screenFlags).toContain('COPIES_DISAGREE');
    expect(r.folder).toEqual(r.screen);
  });

  it('raises no finding the screen does not show when the copies agree (honest 60/40: SHARE_SUM_MISMATCH from the one unit alone)', async () => {
    const r = await screenAndFolder(1);
    expect(r.screen).toEqual(['400']);
    expect(r.folder).toEqual(r.screen);
    // the export adds its plausibility review (CALIBRATION_ENDS_SOON here), the screen only with `vs`: the share sum is billing's
    expect(r.screenFlags).not.toContain('SHARE_SUM_MISMATCH');
    expect(r.folderFlags).not.toContain('SHARE_SUM_MISMATCH');
  });
});

describe("browse's one-unit export folder", () => {
  /** `e` on each unit's screen in turn: the folders written, and each folder's billing rows' unit ids. */
  async function exportBoth(names: [string, string]) {
    const d = property(1, names);
    const { home, data } = await browseOn(d);
    for (const { unit } of d.units) await data.exportSelection!({ property: d.prop, range, unitId: unit.id, unitName: unit.name });
    const fs = await import('node:fs');
    const folders = fs.readdirSync(home).filter((n) => n.startsWith('meterdata-'));
    const unitsIn = async (folder: string) => [...new Set((await csvRows(path.join(home, folder), 'billing.csv')).map((r) => r.usage_unit_id))];
    return { d, folders, units: await Promise.all(folders.map(unitsIn)) };
  }

  it.each([
    ['EG links', 'EG links'],
    ['WE 1/2', 'WE 1-2'],
  ] as [string, string][])('two units "%s" and "%s", whose names read alike, go to two folders; neither replaces the other', async (a, b) => {
    const r = await exportBoth([a, b]);
    expect(r.folders).toHaveLength(2);
    expect(r.units.flat().sort()).toEqual(r.d.units.map((u) => u.unit.id).sort());
    expect(r.units.every((u) => u.length === 1)).toBe(true);
  });

  it("refuses to write one unit into a folder that holds another unit's export (exit 2, naming the setting)", async () => {
    const d = property(1);
    const { home, data } = await browseOn(d);
    const [a, b] = d.units.map((u) => u.unit);
    await data.exportSelection!({ property: d.prop, range, unitId: a!.id, unitName: a!.name });
    const [folder] = (await import('node:fs')).readdirSync(home).filter((n) => n.startsWith('meterdata-'));
    const { browseExportFlags } = await import('../../src/commands/browse/run.js');
    const { prepareExport } = await import('../../src/export/single.js');
    const flags = { ...browseExportFlags({ property: d.prop, range, unitId: b!.id, unitName: b!.name }, 'en', undefined), out: folder };
    const io = { cwd: home, env: { METERDATA_HOME: home } } as never;
    await expect(prepareExport(flags, io)).rejects.toMatchObject({ code: 'EXPORT_OUT_IN_USE', exitCode: 2, message: expect.stringContaining('unit (browse)') });
  });
});
