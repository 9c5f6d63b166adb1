// Guards of the units written as their answers come (src/export/pipeline/stream.ts), found holding in
// a review: odd and hostile answers give the bytes of an export that writes each Property at
// its end; a failure or an interrupt while units are written early leaves nothing in --out,
// no unhandled rejection, and a re-run gives the bytes of one uninterrupted export; the
// journal holds the same answers either way.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { AccessWithdrawnError, NotSignedInError } from '../../src/core/errors.js';
import type { ExportArgs } from '../../src/export/options/options.js';
import { OutputSet } from '../../src/export/output/index.js';
import { parseReviewArgs } from '../../src/export/options/review-options.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { aPointConsumption, aSegment } from '../helpers/builders.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building, contents, exportOf, lastWritten, sharedTwice, type Building } from '../helpers/export-stream-fixtures.js';

const delay = (id: string) => id.charCodeAt(id.length - 1) % 4;
const flat = (b: Building, name: string) => b.units.find((u) => u.unit.name === name)!;
const push = (b: Building, name: string, ...points: MeasuringPointConsumption[]) => flat(b, name).consumption.measuring_points.push(...points);

/** Both ways with these arguments: the same files, or the same error. */
async function sameBothWays(data: Building[], args: (a: ExportArgs) => void = () => undefined) {
  const atEnd = await exportOf(data, { streamUnits: false, args });
  const streamed = await exportOf(data, { delay, args });
  expect(streamed.error).toEqual(atEnd.error);
  expect(Object.keys(streamed.files ?? {})).toEqual(Object.keys(atEnd.files ?? {}));
  for (const name of Object.keys(atEnd.files ?? {})) expect({ name, bytes: streamed.files![name] }).toEqual({ name, bytes: atEnd.files![name] });
  return streamed;
}

describe('odd answers while units are written as they come: the bytes of an export that writes each Property at its end', () => {
  const cases: [string, (b: Building) => void][] = [
    [
      'a point under two flats, share 1 and 0 (sum 1: no finding, named with both)',
      (b) => {
        const p = aPointConsumption({ unit_share: 1 });
        push(b, 'WE 2', p);
        push(b, 'WE 20', { ...p, unit_share: 0, segments: [aSegment()] });
      },
    ],
    [
      'a shared point seen first in a late flat, halves',
      (b) => {
        const p = aPointConsumption({ metric: 'water_warm', unit: 'm3', unit_share: 0.5 });
        push(b, 'WE 25', p);
        push(b, 'WE 4', { ...p, segments: [aSegment()] });
      },
    ],
    [
      'the same point twice in one flat',
      (b) => {
        const p = aPointConsumption({ unit_share: 0.5 });
        push(b, 'WE 4', p, { ...p, segments: [aSegment()] });
      },
    ],
    [
      'two flats of one name',
      (b) => {
        flat(b, 'WE 7').unit.name = 'WE 5';
        push(b, 'WE 5', aPointConsumption());
      },
    ],
    [
      'a point listed under another flat with another metric',
      (b) => {
        const p = aPointConsumption();
        push(b, 'WE 3', p);
        b.points.push({ id: p.measuring_point_id, usage_unit_id: flat(b, 'WE 9').unit.id, property_id: b.property.id, metric: 'gas', unit: 'm3' } as never);
      },
    ],
    [
      "a plant-room point also in a flat's answer",
      (b) => {
        push(b, 'WE 4', aPointConsumption({ measuring_point_id: b.plant[0]!.point.id!, metric: 'water_cold', unit: 'm3' }));
      },
    ],
    [
      'values the contract does not list, weighted value absent, a flat without points',
      (b) => {
        push(
          b,
          'WE 4',
          aPointConsumption({
            metric: 'steam' as never,
            unit: 'kg' as never,
            segments: [aSegment({ period_consumption: { status: 'estimated' as never, weighted_billable_value: undefined } })],
          }),
        );
        flat(b, 'WE 5').consumption.measuring_points = [];
      },
    ],
    [
      "a flat whose id differs from another's only in case",
      (b) => {
        const twin = b.units[3]!;
        b.units.push({ unit: { ...twin.unit, id: twin.unit.id.toUpperCase(), name: 'WE 99' }, consumption: { ...twin.consumption } });
      },
    ],
  ];
  it.each(cases)('%s', async (_what, change) => {
    const b = building(30, 800 + cases.findIndex(([w]) => w === _what));
    change(b);
    await sameBothWays([building(3, 790), b]);
  });

  it('with --unit-refs and --metric', async () => {
    const b = building(30, 820);
    const refs = { file: 'refs.csv', entries: b.units.slice(0, 10).map((u, k): [string, string, number] => [u.unit.id.toLowerCase(), `R-${k}`, k + 2]) };
    await sameBothWays([b], (a) => Object.assign(a, { unitRefs: refs, metrics: ['heat'] }));
  });

  it('with --compare (a shared point in halves)', async () => {
    const b = building(30, 821);
    const p = aPointConsumption({ unit_share: 0.5 });
    push(b, 'WE 3', p);
    push(b, 'WE 13', { ...p, segments: [aSegment()] });
    const streamed = await sameBothWays([building(3, 822), b], (a) =>
      Object.assign(a, { review: parseReviewArgs({ compare: '2024' }, '/', { from: '2025-01-01', to: '2025-12-31' }) }),
    );
    expect(Object.keys(streamed.files!)).toContain('plausibility.csv');
  });

  it.each([['csv'], ['xlsx']])('early rows dropped (share sum 2) with --format %s only', async (format) => {
    await sameBothWays([building(3, 830), sharedTwice(building(40, 831)), building(5, 832)], (a) => Object.assign(a, { formats: [format] }));
  });
});

describe('a failure or an interrupt while units are written early', () => {
  /** Exports `data` failing as `fail` says; then nothing is in --out, and a re-run gives the uninterrupted bytes. */
  async function failThenRerun(data: Building[], fail: (a: ApiClient, abort: () => void) => void, expected: RegExp) {
    const unhandled: unknown[] = [];
    const on = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', on);
    try {
      const whole = await exportOf(data, { streamUnits: false });
      const s = await setup();
      const controller = new AbortController();
      const failing = api(data, { delay });
      fail(failing, () => controller.abort(new Error('SIGINT')));
      const failed = await stageExport({ api: failing, ...s, reporter: reporter(), toolVersion: 't', now: () => T0, signal: controller.signal }).catch(
        (e: unknown) => e,
      );
      expect((failed as Error).message).toMatch(expected);
      expect(existsSync(s.args.out)).toBe(false);
      await finishExport(await stageExport({ api: api(data), ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }));
      expect(await contents(s.args.out)).toEqual(whole.files);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', on);
    }
  }
  /** The last flat of the large Property answers after a wait, then as `then` says. */
  const late = (data: Building[], then: (a: ApiClient, id: string, abort: () => void) => Promise<unknown>) => (a: ApiClient, abort: () => void) => {
    const id = lastWritten(data[1]!).unit.id;
    const answer = a.unitConsumption.bind(a);
    a.unitConsumption = async (unit, q) =>
      (unit === id ? (await new Promise((r) => setTimeout(r, 40)), then(a, unit, abort).then(() => answer(unit, q))) : answer(unit, q)) as never;
  };
  const data = () => [building(6, 840), building(50, 841), building(4, 842)];

  it('401 (signed out) in the middle of a Property', async () => {
    const d = data();
    await failThenRerun(
      d,
      late(d, () => Promise.reject(new NotSignedInError('The connection was revoked.'))),
      /revoked.*stopped after 1 of 3/s,
    );
  });

  it('404 (access withdrawn) in the middle of a Property', async () => {
    const d = data();
    await failThenRerun(
      d,
      late(d, () => Promise.reject(new AccessWithdrawnError('The Property was withdrawn.'))),
      /withdrawn.*stopped after 1 of 3/s,
    );
  });

  it('Ctrl-C (the signal aborted) in the middle of a Property', async () => {
    const d = data();
    await failThenRerun(
      d,
      late(d, async (_a, _id, abort) => abort()),
      /Interrupted.*stopped after 1 of 3/s,
    );
  });

  it('the disk refusing a row the stream writes', async () => {
    const d = data();
    const write = OutputSet.prototype.addOverview;
    let n = 0;
    const spy = vi.spyOn(OutputSet.prototype, 'addOverview').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof write>) {
      if (++n === 12) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }); // a flat of the large Property
      return write.apply(this, args);
    });
    try {
      await failThenRerun(d, () => undefined, /could not be written: the disk is full\. The export stopped after 1 of 3/);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the journal while units are written as they come', () => {
  it('holds the same answers as when each Property is written at its end', async () => {
    const d = [building(30, 850), building(40, 851), building(5, 852)];
    const saved: Record<string, string>[] = [];
    for (const streamUnits of [false, true]) {
      const s = await setup();
      await stageExport({
        api: api(d, { failAtProperty: 2, delay }),
        ...s,
        reporter: reporter(),
        toolVersion: 't',
        now: () => T0,
        ...(streamUnits ? {} : { streamUnits: false }),
      }).catch(() => undefined);
      const root = path.join(s.stateDir, 'exports');
      const dir = path.join(
        root,
        (await readdir(root)).find((n) => !n.endsWith('.lock'))!,
      );
      const files: Record<string, string> = {};
      for (const n of (await readdir(dir)).filter((x) => x.endsWith('.gz')).sort()) files[n] = gunzipSync(await readFile(path.join(dir, n))).toString('utf8');
      saved.push(files);
    }
    expect(Object.keys(saved[1]!)).toHaveLength(2);
    expect(saved[1]).toEqual(saved[0]);
  });
});
