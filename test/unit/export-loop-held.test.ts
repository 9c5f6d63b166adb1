// What the export loop (src/export/pipeline/stage.ts) holds of a Property it wrote while the next
// one is walked: nothing. V8 keeps a suspended async function's finished locals alive until their
// registers are reused, so a loop body that kept a Property's answers and bill in its own locals
// held them, whole, through the whole next walk.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { UnitConsumption } from '../../src/api/types.js';
import { finishExport, stageExport } from '../../src/export/run.js';
import { T0, reporter, setup } from '../helpers/export-fixtures.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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

describe('the export loop, while the next Property is walked', () => {
  it('holds nothing of the Property it wrote before: its answers can go', async () => {
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
