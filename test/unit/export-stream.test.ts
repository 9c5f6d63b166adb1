// Units billed and written as their answers come (src/export/pipeline/stream.ts): the files are the
// bytes of an export that writes each Property at its end, whatever order the answers come
// in, and also when the Property's last answers change what was written early (a share sum
// off 1, a point under a second unit, a plant-room answer naming a point's metric): then
// the early rows are dropped. The workbook workers' renders ahead follow the drop.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import { billProperty, listedLinksOf } from '../../src/billing/property.js';
import { billUnit } from '../../src/billing/unit.js';
import { createApiClient } from '../../src/api/client.js';
import { staticCredentials } from '../../src/core/credentials.js';
import { createApi } from '../../src/sandbox/api/index.js';
import type { TokenInfo, TokenValidator } from '../../src/sandbox/contracts.js';
import { generateDataset } from '../../src/sandbox/data/index.js';
import { AtomicOutput } from '../../src/export/folder/atomic.js';
import { answersJson } from '../../src/export/journal/journal.js';
import type { RenderAhead } from '../../src/export/output/index.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { serveWorkbooks, workbookWorkers } from '../../src/export/output/formats/xlsx/workbook-workers.js';
import { RANGE, aPointConsumption, aReading, aSegment } from '../helpers/builders.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import {
  api,
  building,
  contents,
  csv,
  expectEarlyRowsThenSame,
  expectSameBothWays,
  exportOf,
  lastWritten,
  pointsOf,
  prng,
  sharedTwice,
  unlistedCopies,
} from '../helpers/export-stream-fixtures.js';

describe('units written as their answers come', () => {
  it('give the bytes of an export that writes each Property at its end, whatever order the answers come in', async () => {
    for (const seed of [1, 2, 3]) {
      const rnd = prng(seed * 7);
      const delays = new Map<string, number>();
      const data = [building(5, seed * 10), building(45, seed * 10 + 1), building(0, seed * 10 + 2), building(9, seed * 10 + 3)];
      const { streamed } = await expectSameBothWays(data, {
        delay: (id) => {
          if (!delays.has(id)) delays.set(id, Math.floor(rnd() * 6));
          return delays.get(id)!;
        },
      });
      expect(streamed.summary!.counts.units).toBe(59);
    }
  });

  it("are on disk before the Property's last answer came, and the workbook rendered ahead from them is the same", async () => {
    const big = building(70, 41);
    const { seen, runs } = await expectEarlyRowsThenSame([building(3, 40), big, building(4, 42)], big);
    expect(runs.size).toBe(1); // nothing was dropped
    // rendered ahead during the large Property, not only after each Property
    expect(seen.length).toBeGreaterThan(3);
  });

  it('are dropped when a later unit lists a point already written (share sum 2): same bytes, the finding in review.csv', async () => {
    const big = building(70, 51);
    const first = big.units.find((u) => u.unit.name === 'WE 1')!;
    first.consumption.measuring_points.push(aPointConsumption({ metric: 'heat', unit: 'kWh' }));
    const shared = first.consumption.measuring_points.at(-1)!;
    lastWritten(big).consumption.measuring_points.push({ ...shared, segments: [aSegment()] });
    const { streamed, runs } = await expectEarlyRowsThenSame([building(2, 50), big], big);
    expect(csv(streamed.files!, 'review.csv')).toMatch(/SHARE_SUM_ABOVE_ONE/);
    // rows rendered ahead from the dropped ones are another run's: the workbook renders its rows again
    expect(runs.size).toBe(2);
  });

  it("are dropped when a plant-room answer names the metric a unit's answer left out (readings name it)", async () => {
    const big = building(70, 61);
    const plant = big.plant[0]!;
    delete plant.point.metric;
    const first = big.units.find((u) => u.unit.name === 'WE 1')!;
    first.consumption.measuring_points.push(aPointConsumption({ measuring_point_id: plant.point.id!, metric: '' as never, unit: 'm3' }));
    const { streamed, runs } = await expectEarlyRowsThenSame([big], big);
    expect(runs.size).toBe(2);
    const readings = csv(streamed.files!, 'readings.csv').split('\r\n');
    expect(readings.filter((l) => l.includes(plant.point.id!)).every((l) => l.includes('water_cold'))).toBe(true);
  });

  it('keep a point shared on purpose (halves) named with both units, its readings and all after them written at the end', async () => {
    const big = building(45, 71);
    const a = big.units.find((u) => u.unit.name === 'WE 3')!;
    const b = big.units.find((u) => u.unit.name === 'WE 30')!;
    const half = aPointConsumption({ metric: 'water_warm', unit: 'm3', unit_share: 0.5 });
    a.consumption.measuring_points.push(half);
    b.consumption.measuring_points.push({ ...half });
    const { streamed } = await expectSameBothWays([big], { delay: (id) => id.charCodeAt(id.length - 2) % 5 });
    expect(csv(streamed.files!, 'readings.csv')).toMatch(/WE 3, WE 30|WE 30, WE 3/);
    expect(csv(streamed.files!, 'review.csv')).not.toMatch(/SHARE_SUM_MISMATCH/);
  });

  it("take a point's readings from the copy billing accepted, not from an unlisted copy of a unit written first (share 1): the same bytes both ways", async () => {
    const big = building(12, 85);
    const owner = big.units.find((u) => u.unit.name === 'WE 7')!;
    const own = aPointConsumption({ metric: 'heat', unit: 'kWh', segments: [aSegment({ readings: [aReading({ at: '2025-12-31', value: 110 })] })] });
    owner.consumption.measuring_points.push(own);
    const copy = { ...own, segments: [aSegment({ readings: [aReading({ at: '2025-12-31', value: 9999 })] })] };
    unlistedCopies.add(copy);
    big.units.find((u) => u.unit.name === 'WE 1')!.consumption.measuring_points.push(copy);
    const { streamed } = await expectSameBothWays([big], { delay: (id) => id.charCodeAt(id.length - 1) % 3 });
    const rows = csv(streamed.files!, 'readings.csv')
      .split('\r\n')
      .filter((l) => l.includes(own.measuring_point_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/,110,/);
    expect(rows[0]).toMatch(/WE 7/);
    expect(rows[0]).not.toMatch(/WE 1\b/);
    expect(csv(streamed.files!, 'review.csv')).toMatch(/POINT_NOT_LISTED/);
  });

  it('are not written early where units have no one order (the same id twice): the same bytes', async () => {
    const big = building(12, 81);
    const twin = big.units[3]!;
    big.units.push({ unit: { ...twin.unit }, consumption: twin.consumption });
    await expectSameBothWays([big], { delay: (id) => id.charCodeAt(id.length - 1) % 3 });
  });

  it('stop at a unit of another period: the same error, naming the same unit, as when written at the end', async () => {
    const big = building(20, 91);
    big.units[5]!.consumption = { ...big.units[5]!.consumption, to: '2025-11-30' };
    const { streamed } = await expectSameBothWays([building(3, 90), big], { delay: (id) => id.charCodeAt(id.length - 1) % 3 });
    expect(streamed.error).toMatch(/2025-11-30/);
  });

  it('fail in the middle of a Property already partly written: nothing left in the folder, and a re-run writes the same bytes as one uninterrupted export', async () => {
    const data = [building(6, 151), building(60, 152), building(4, 153)];
    const whole = await exportOf(data, { streamUnits: false });
    const s = await setup();
    const late = lastWritten(data[1]!).unit.id;
    const failed = await stageExport({
      api: api(data, { failUnit: late, delay: (id) => (id === late ? 40 : id.charCodeAt(id.length - 1) % 3) }),
      ...s,
      reporter: reporter(),
      toolVersion: 't',
      now: () => T0,
    }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ exitCode: 5 });
    expect((failed as Error).message).toMatch(/stopped after 1 of 3 Properties/);
    expect(existsSync(s.args.out)).toBe(false);
    await finishExport(await stageExport({ api: api(data), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }));
    expect(await contents(s.args.out)).toEqual(whole.files);
  });

  it('leave a journal a re-run continues from: the same bytes as one uninterrupted export', async () => {
    const data = [building(30, 101), building(40, 102), building(5, 103)];
    const whole = await exportOf(data, { streamUnits: false });
    const s = await setup();
    const failed = await stageExport({
      api: api(data, { failAtProperty: 2, delay: (id) => id.charCodeAt(id.length - 1) % 3 }),
      ...s,
      reporter: reporter(),
      toolVersion: 't',
      now: () => T0,
    }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ exitCode: 5 });
    const rep = reporter();
    await finishExport(await stageExport({ api: api(data), ...s, reporter: rep, toolVersion: 't', now: () => T0 }));
    expect(rep.notes.join('\n')).toMatch(/resuming/);
    expect(await contents(s.args.out)).toEqual(whole.files);
  });
});

const DATASET = generateDataset();

describe('rows rendered ahead when many Properties drop their early rows', () => {
  // Each drop that reached rows already rendered ahead made the workers render the profile's
  // rows from its first again (a new run token), and left the old ones in a scratch file: work
  // and scratch space grew with the square of the Properties (a server that rounds shared
  // meters' shares, 3 x 0.333, drops every Property with such a meter).
  it.each([
    ['small Properties (no render within one)', 8],
    ['large Properties (rendered ahead within each)', 40],
  ])('render each spooled byte ahead at most twice in all: %s', async (_what, units) => {
    const data = Array.from({ length: 12 }, (_, k) => sharedTwice(building(units, 500 + k)));
    const atEnd = await exportOf(data, { streamUnits: false });
    const workers = workbookWorkers(2, (port) => serveWorkbooks({ port }));
    const asked = new Map<string, number>();
    const spy: RenderAhead = (spec, upTo) => {
      asked.set(spec.run, Math.max(asked.get(spec.run) ?? 0, upTo.billing ?? 0));
      workers.ahead(spec, upTo);
    };
    try {
      const streamed = await exportOf(data, { delay: (id) => 1 + (id.charCodeAt(id.length - 1) % 3), renderAhead: spy, writeWorkbook: workers.write });
      expect(streamed.error).toBeUndefined();
      for (const name of Object.keys(atEnd.files!)) expect({ name, bytes: streamed.files![name] }).toEqual({ name, bytes: atEnd.files![name] });
      expect(csv(streamed.files!, 'review.csv').match(/SHARE_SUM_ABOVE_ONE/g)?.length).toBe(24);
      const spooled = [...asked.values()].at(-1)!; // the last run renders the whole spool at the last Property's end
      const rendered = [...asked.values()].reduce((a, b) => a + b, 0);
      expect({ rendered: rendered <= 2 * spooled, runs: asked.size <= 2 }).toEqual({ rendered: true, runs: true });
    } finally {
      await workers.close();
    }
  });
});

describe('units written as their answers come, against the sandbox API over HTTP', () => {
  it.each(DATASET.tenants().map((t) => t.id))(
    'give the bytes of an export that writes each Property at its end (tenant %s: shared meters, replacements, plant rooms)',
    async (tenant) => {
      const folders: Record<string, string>[] = [];
      for (const streamUnits of [false, true]) {
        const { client, close } = await sandboxClient(tenant);
        try {
          const s = await setup();
          await finishExport(
            await stageExport({ api: client, ...s, reporter: reporter(), toolVersion: 't', now: () => T0, ...(streamUnits ? {} : { streamUnits: false }) }),
          );
          folders.push(await contents(s.args.out));
        } finally {
          await close();
        }
      }
      expect(Object.keys(folders[1]!).length).toBeGreaterThan(5);
      expect(folders[1]).toEqual(folders[0]);
    },
  );
});

/** The real API client against the sandbox's API on 127.0.0.1 (a fixed token, no sign-in). */
async function sandboxClient(tenant: string): Promise<{ client: ApiClient; close: () => Promise<void> }> {
  const token: TokenInfo = {
    sid: 'conn-1',
    client_id: 'sandbox-demo-client',
    tenant_id: tenant,
    scopes: ['read:units', 'read:devices', 'read:readings'],
    property_scope: 'all',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
  };
  const tokens: TokenValidator = {
    validate: async (req) =>
      req.headers.authorization === 'Bearer t' ? { ok: true, token } : { ok: false, error: 'invalid_token', description: 'unknown token', scheme: 'Bearer' },
    tenantAccessEnabled: () => true,
  };
  const handler = createApi({ dataset: DATASET, tokens, clock: { now: () => new Date('2026-06-15T12:00:00Z') }, rateLimitPerMinute: 0 });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = createApiClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    credentials: staticCredentials('t'),
    rateLimitPerMinute: 60_000,
    concurrency: 8,
    retryBaseMs: 10,
  });
  return {
    client,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
describe("a walk that fails while its Property's stream is being started", () => {
  it('fails the export with its error, never as an unhandled rejection (which would end the process)', async () => {
    const unhandled: unknown[] = [];
    const on = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', on);
    try {
      for (let n = 0; n < 5; n++) {
        const s = await setup();
        const err = await stageExport({
          api: api([building(3, 130 + n), building(2, 140 + n)], { failAtProperty: 0 }),
          ...s,
          reporter: reporter(),
          toolVersion: 't',
          now: () => T0,
        }).catch((e: unknown) => e);
        expect(err).toMatchObject({ exitCode: 5 });
      }
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', on);
    }
  });
});

describe('the pieces the stream relies on', () => {
  it("the journal's JSON from units serialised as they came is JSON.stringify of the whole answers", () => {
    const b = building(6, 111);
    const answers = {
      property: b.property,
      units: b.units,
      points: pointsOf(b),
      plantPoints: b.plant,
      comparison: { range: { from: '2024-01-01', to: '2024-12-31' }, units: b.units.slice(0, 2), plantPoints: [] },
      dropped: undefined,
    };
    const pieces = b.units.map((u) => JSON.stringify(u));
    expect(answersJson(answers, pieces)).toBe(JSON.stringify(answers));
    // a unit missing (a hole) or a list of another length: the whole answers are serialised again
    const holed = [...pieces];
    delete holed[2];
    expect(answersJson(answers, holed)).toBe(JSON.stringify(answers));
    expect(answersJson(answers, pieces.slice(1))).toBe(JSON.stringify(answers));
  });

  it('a rewound file holds, and its digest covers, only what was kept, with no hole where the dropped bytes were', async () => {
    const s = await setup();
    const out = new AtomicOutput(path.join(s.home, 'files'));
    await out.prepare();
    const f = await out.create('a.csv');
    await f.write('kept;1\n');
    const mark = await f.mark();
    await f.write('dropped;'.repeat(20_000)); // over the buffer: part of it reaches the disk
    await f.rewind(mark);
    await f.write('after;2\n');
    await f.rewind(mark); // the same mark twice
    await f.write('after;3\n');
    await out.closeFile(f);
    const bytes = await readFile(f.path);
    expect(bytes.toString('utf8')).toBe('kept;1\nafter;3\n');
    expect(f.bytes).toBe(bytes.length);
    expect(f.digest()).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it("billing reuses a unit's early bill only where nothing across units changes it", () => {
    const b = building(8, 121);
    const shared = aPointConsumption({ metric: 'heat', unit: 'kWh' });
    b.units[0]!.consumption.measuring_points.push(shared);
    b.units[1]!.consumption.measuring_points.push({ ...shared });
    const input = { property: { id: b.property.id, name: b.property.name }, range: RANGE, units: b.units, plantPoints: b.plant, points: pointsOf(b) };
    const links = listedLinksOf(input.points);
    const early = new Map(
      b.units.map((u) => [
        u,
        { range: RANGE, bill: billUnit({ property: input.property, unit: u.unit, consumption: u.consumption, range: RANGE, listedLinks: links }) },
      ]),
    );
    const fresh = billProperty(input);
    const reused = billProperty(input, (u) => early.get(u));
    expect(reused).toEqual(fresh);
    // the two units of the point listed twice (share sum 2) are billed again; every other unit's bill is the early one
    const again = b.units.filter((u) => !reused.units.includes(early.get(u)!.bill)).map((u) => u.unit.id);
    expect(again.sort()).toEqual([b.units[0]!.unit.id, b.units[1]!.unit.id].sort());
    // an early bill of another period is never taken
    const otherRange = billProperty(input, (u) => ({ ...early.get(u)!, range: { from: '2025-02-01', to: '2025-12-31' } }));
    expect(otherRange.units.some((x) => [...early.values()].some((e) => e.bill === x))).toBe(false);
  });
});
