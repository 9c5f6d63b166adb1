// What a Property's stream (src/export/pipeline/stream.ts) holds of a unit during the walk: once
// the unit's rows are written early, its parsed answer is let go (the walk keeps none either),
// and only its JSON and its bill stay. At the walk's end the answers come back as the journal
// has them, each with the bill billProperty reuses, so the Property's end bills nothing twice.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { UnitConsumption } from '../../src/api/types.js';
import { collectProperty, type WalkOptions } from '../../src/api/walk.js';
import { compareUnits } from '../../src/billing/order.js';
import { billProperty } from '../../src/billing/property.js';
import type { OutputSet } from '../../src/export/output/index.js';
import { composeEarly } from '../../src/export/pipeline/step.js';
import { PropertyStream } from '../../src/export/pipeline/stream.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building, pointsOf } from '../helpers/export-stream-fixtures.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** An OutputSet that only counts the units written (the stream's writes resolve at once). */
function countingOutput() {
  const out = { overviews: 0 };
  const output = {
    mark: async () => ({}),
    write: async () => undefined,
    addOverview: async () => void out.overviews++,
    rewind: async () => undefined,
  } as unknown as OutputSet;
  return { out, output };
}

/** Each answer a fresh object, as the client parses it, so that only the export can hold it; `answered`: each unit's, weakly. */
function freshAnswers(fake: ApiClient) {
  const answered = new Map<string, WeakRef<UnitConsumption>>();
  const client: ApiClient = {
    ...fake,
    unitConsumption: async (id, q) => {
      const c = JSON.parse(JSON.stringify(await fake.unitConsumption(id, q))) as UnitConsumption;
      answered.set(id, new WeakRef(c));
      return c;
    },
  };
  return { client, answered };
}

/** The walk's options that hand each answer to `stream`, as pipeline/walk.ts passes them. */
const walkedInto = (stream: PropertyStream): WalkOptions => ({
  range: { from: '2025-01-01', to: '2025-12-31' },
  metrics: [],
  onLists: (u, p) => stream.lists(u, p),
  askOrder: (u) => stream.askOrder(u),
  onAnswer: (k, e) => stream.answer(k, e),
  heldAnswers: stream.heldAnswers,
});

describe("a Property's units written as their answers come", () => {
  it('let go of each parsed answer once written, and give the answers back at the walk’s end as the journal has them, each with its early bill', async () => {
    const big = building(60, 311);
    const held = [...big.units].sort((a, b) => compareUnits(a.unit, b.unit)).at(-1)!; // the last written
    let release!: () => void;
    const { client, answered } = freshAnswers(api([big], { hold: { unitId: held.unit.id, release: new Promise<void>((r) => (release = r)) } }));
    const { out, output } = countingOutput();
    const property = { id: big.property.id, name: big.property.name };
    const stream = new PropertyStream({ output, property, early: () => composeEarly([]) });
    await stream.activate(null);
    const walk = collectProperty(client, big.property, walkedInto(stream));
    // every unit but the held last one answered and written (bounded: the fake answers at once)
    for (let turn = 0; turn < 1000 && out.overviews < big.units.length - 1; turn++) await new Promise((r) => setImmediate(r));
    expect(out.overviews).toBe(big.units.length - 1);
    gc();
    const live = [...answered].filter(([id, ref]) => id !== held.unit.id && ref.deref() !== undefined);
    expect(live).toHaveLength(0);

    release();
    const answers = await walk;
    expect(answers.units.map((e) => e.unit.id)).toEqual(big.units.map((e) => e.unit.id));
    expect(answers.units.map((e) => e.consumption)).toEqual(big.units.map((e) => JSON.parse(JSON.stringify(e.consumption)) as UnitConsumption));
    for (const entry of answers.units) expect(stream.earlyBill(entry)).toBeDefined();
    expect(stream.takeUnitsJson(answers.units)).toEqual(answers.units.map((e) => JSON.stringify(e)));
    const range = { from: '2025-01-01', to: '2025-12-31' };
    const bill = billProperty({ property, range, units: answers.units, plantPoints: [], points: pointsOf(big) }, stream.earlyBill);
    // each unit's bill is the one made as it came: settle keeps every early row
    expect((await stream.settle(bill, composeEarly([]))).units.size).toBe(big.units.length);
    expect(stream.rewound).toBe(false);
  });

  it('activated only after the walk (the Property before still being written) keep every answer, and find each bill made after the walk', async () => {
    const big = building(20, 312);
    const { out, output } = countingOutput();
    const property = { id: big.property.id, name: big.property.name };
    const stream = new PropertyStream({ output, property, early: () => composeEarly([]) });
    const answers = await collectProperty(api([big]), big.property, walkedInto(stream));
    // nothing written yet: the answers are the ones that came, not parsed again
    expect(answers.units.map((e) => e.consumption)).toEqual(big.units.map((e) => e.consumption));
    expect(answers.units.every((e, k) => e.consumption === big.units[k]!.consumption)).toBe(true);
    await stream.activate(null);
    for (let turn = 0; turn < 1000 && out.overviews < big.units.length; turn++) await new Promise((r) => setImmediate(r));
    expect(out.overviews).toBe(big.units.length);
    for (const entry of answers.units) expect(stream.earlyBill(entry)).toBeDefined();
    expect(stream.takeUnitsJson(answers.units)).toHaveLength(big.units.length);
  });
});

describe('the export loop, while the next Property is walked', () => {
  it('holds nothing of the Property it wrote before: its answers can go (each Property written at its end, so the answers are the ones that came)', async () => {
    const first = building(30, 313);
    const second = building(10, 314);
    let release!: () => void;
    const { client, answered } = freshAnswers(
      api([first, second], { hold: { unitId: second.units[0]!.unit.id, release: new Promise<void>((r) => (release = r)) } }),
    );
    const s = await setup();
    let written = 0;
    const staging = stageExport({
      api: client,
      ...s,
      reporter: { ...reporter(), property: () => void written++ },
      toolVersion: 't',
      now: () => T0,
      streamUnits: false,
    });
    for (let turn = 0; turn < 1000 && written < 1; turn++) await new Promise((r) => setTimeout(r, 10)); // bounded: 10 s
    expect(written).toBe(1);
    // the second Property's walk waits on its held unit; the loop waits on that walk
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const live = first.units.filter((u) => answered.get(u.unit.id)?.deref() !== undefined);
    expect(live).toHaveLength(0);
    release();
    await finishExport(await staging);
  });
});
