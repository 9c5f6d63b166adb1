// The cap on Properties held in memory across several exports of one process (the
// portfolio export), against a fake ApiClient.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { Property } from '../../src/api/types.js';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import { Slots } from '../../src/export/pipeline/index.js';
import { parseExportArgs } from '../../src/export/options/options.js';
import { runExport } from '../../src/export/run.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { WORST_FIRST, worstExitCode } from '../../src/export/portfolio/portfolio-summary.js';
import type { ExportSummary } from '../../src/export/run.js';
import type { Io } from '../../src/core/io.js';
import { aPlantPoint, aPointConsumption, aUnitEntry, pointListOf, uuid } from '../helpers/builders.js';

/** Held = a Property whose units were asked for and that the export has not yet forgotten (billed and written). */
const live = { held: new Set<string>(), max: 0 };

function fakeApi(tag: number, opts: { failAt?: number } = {}): ApiClient {
  const data = [1, 2, 3, 4].map((n) => {
    const property: Property = {
      id: uuid(0x1000 * tag + n),
      tenant_id: uuid(tag),
      external_ref: null,
      name: `Haus ${tag}-${n}`,
      addresses: [],
      usage_unit_count: 1,
    };
    return {
      property,
      units: [aUnitEntry('WE 1', [aPointConsumption()], { property_id: property.id })],
      plant: [aPlantPoint({ point: { property_id: property.id } })],
    };
  });
  const tick = () => new Promise((r) => setTimeout(r, 2));
  let requests = 0;
  return {
    async whoami() {
      return { tenant_id: uuid(tag), tenant_name: `T${tag}`, client_id: 'c', granted_scopes: [], property_scope: 'all' };
    },
    async *listProperties() {
      for (const d of data) yield d.property;
    },
    async getProperty() {
      throw new Error('not used');
    },
    async *listPropertyMeasuringPoints(id) {
      yield* pointListOf(data.find((d) => d.property.id === id)!);
    },
    async *listUsageUnits(q) {
      const i = data.findIndex((d) => d.property.id === q?.propertyId);
      live.held.add(q!.propertyId!);
      live.max = Math.max(live.max, live.held.size);
      await tick();
      if (i === opts.failAt) throw new ServiceUnavailableError('The API kept answering 503.');
      yield* data[i]!.units.map((u) => u.unit);
    },
    async getUsageUnit() {
      throw new Error('not used');
    },
    async unitConsumption(id) {
      requests++;
      await tick();
      return data.flatMap((d) => d.units).find((u) => u.unit.id === id)!.consumption;
    },
    async getMeasuringPoint() {
      throw new Error('not used');
    },
    async pointReadings(id) {
      await tick();
      return data.flatMap((d) => d.plant).find((p) => p.point.id === id)!.consumption;
    },
    forgetProperty: (id) => void live.held.delete(id),
    stats: () => ({ requests, retries: 0, rateLimited: 0 }),
    async close() {},
  };
}

const quiet = { begin() {}, unit() {}, property() {}, note() {}, end() {} };

async function exportOf(tag: number, slots: Slots | undefined, opts: { failAt?: number } = {}) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'md-held-'));
  const args = parseExportArgs({ year: '2025', out: 'out', profile: `p${tag}` }, home, {});
  const template = await loadTemplate('generic', process.cwd());
  return runExport({
    api: fakeApi(tag, opts),
    args,
    template,
    stateDir: path.join(home, 'state'),
    reporter: quiet,
    toolVersion: 't',
    now: () => new Date('2026-11-22T08:00:00Z'),
    ...(slots ? { slots } : {}),
  });
}

describe('Properties held in memory across exports', () => {
  it('without slots each export holds two (the one written and the next fetched); with slots the cap holds across exports', async () => {
    live.max = 0;
    await Promise.all([exportOf(1, undefined), exportOf(2, undefined), exportOf(3, undefined)]);
    expect(live.max).toBeGreaterThan(2);
    live.max = 0;
    const slots = new Slots(2);
    const summaries = await Promise.all([exportOf(1, slots), exportOf(2, slots), exportOf(3, slots)]);
    expect(live.max).toBeLessThanOrEqual(2);
    expect(summaries.map((s) => s.counts.properties)).toEqual([4, 4, 4]);
    expect(slots.inUse).toBe(0);
  });

  it('a failed export gives its slots back, so the others finish', async () => {
    live.held.clear();
    const slots = new Slots(1);
    const [failed, ok] = await Promise.allSettled([exportOf(4, slots, { failAt: 1 }), exportOf(5, slots)]);
    expect(failed.status).toBe('rejected');
    expect(ok.status).toBe('fulfilled');
    expect(slots.inUse).toBe(0);
  });
});

describe('the worst exit status of several profiles', () => {
  it('orders 130 > 1 > 2 > 4 > 3 > 5 > 6 > 0, and an unknown status counts as a bug', () => {
    expect(WORST_FIRST).toEqual([130, 1, 2, 4, 3, 5, 6, 0]);
    expect(worstExitCode([])).toBe(0);
    expect(worstExitCode([0, 6, 0])).toBe(6);
    expect(worstExitCode([5, 3, 6])).toBe(3);
    expect(worstExitCode([3, 4, 5])).toBe(4);
    expect(worstExitCode([4, 2])).toBe(2);
    expect(worstExitCode([2, 1, 130])).toBe(130);
    expect(worstExitCode([0, 99])).toBe(99);
  });
});

describe('workbooks of finished profiles', () => {
  afterEach(() => {
    vi.doUnmock('../../src/export/single.js');
    vi.restoreAllMocks();
  });

  /**
   * runPortfolio over profiles whose export is a stand-in that only takes a workbook slot
   * (as exportProfile does around billing.xlsx) for a few ms: how many are open at once.
   */
  async function workbooksOpenAtOnce(profiles: number): Promise<number> {
    let open = 0;
    let most = 0;
    vi.doMock('../../src/export/single.js', () => ({
      exportProfile: async (args: { out: string }, _t: unknown, _io: unknown, shared: { workbooks: Slots }): Promise<ExportSummary> => {
        const release = await shared.workbooks.acquire();
        open++;
        most = Math.max(most, open);
        await new Promise((r) => setTimeout(r, 15));
        open--;
        release();
        const counts = { properties: 1, units: 1, measuring_points: 1, plant_points: 0, rows: {} };
        return {
          out: args.out,
          files: [],
          range: { from: '2025-01-01', to: '2025-12-31' },
          requested: { from: '2025-01-01', to: '2025-12-31' },
          pointsWithData: 1,
          tenant: 'T',
          exportedAt: '2026-01-01T00:00:00Z',
          resumed: false,
          counts,
          flags: { not_billed: 0, review: 0, info: 0 },
          codes: {},
          requests: 3,
        };
      },
    }));
    const { runPortfolio } = await import('../../src/export/portfolio/portfolio.js');
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-workbooks-'));
    const io: Io = {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: Readable.from([]),
      env: { METERDATA_HOME: home },
      cwd: home,
      signal: new AbortController().signal,
    };
    const names = Array.from({ length: profiles }, (_, i) => `p${i}`).join(',');
    expect(await runPortfolio({ year: '2025', profiles: names, out: path.join(home, 'out'), quiet: true }, io)).toBe(0);
    return most;
  }

  it('are written one per core at once (at most 4), never more, where they were written one at a time', async () => {
    vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    expect(await workbooksOpenAtOnce(5)).toBe(2);
    vi.spyOn(os, 'availableParallelism').mockReturnValue(16);
    expect(await workbooksOpenAtOnce(6)).toBe(4);
    vi.spyOn(os, 'availableParallelism').mockReturnValue(1);
    expect(await workbooksOpenAtOnce(3)).toBe(1);
  });
});
