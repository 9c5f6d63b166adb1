// Two changes of one claim in one process (two profiles' refreshes of a copied record, a portfolio's threads): the
// first's marker was known as held only once its exclusive create had returned, so the second, reading it in that
// moment, took this process's own pid on it for an earlier process's and passed it; both changed the gate (round 62
// X1, 19 of 20 rounds). The create is held back here after it made the file, which opens that moment every time.
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../src/auth/gate-files.js', async (original) => {
  const real = await original<typeof import('../../src/auth/gate-files.js')>();
  const slowAfterMaking = async (file: string, text: string) => {
    const made = await real.madeWhole(file, text);
    if (made) await new Promise((r) => setTimeout(r, 50));
    return made;
  };
  return { ...real, madeWhole: slowAfterMaking };
});

const { changeOf, takeMarker } = await import('../../src/auth/change-marker.js');
const { gateFolder } = await import('../../src/auth/gate-files.js');

describe('two changes of one claim in one process', () => {
  it('one holds the marker, the other is told a change is under way, never both', async () => {
    for (let round = 0; round < 10; round++) {
      const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-marker-twice-')) } as NodeJS.ProcessEnv;
      mkdirSync(gateFolder(env), { recursive: true });
      const hash = 'ab'.repeat(32);
      const both = await Promise.all([takeMarker(env, hash, changeOf('unused1')), takeMarker(env, hash, changeOf('unused1'))]);
      expect(both.filter((t) => 'held' in t)).toHaveLength(1);
      expect(both.filter((t) => 'underWay' in t)).toHaveLength(1);
    }
  });
});
