// writeFileAtomic (config.json, the stored sign-in, the shared rate window, the portfolio's
// record): a kill between the temporary file and its rename leaves a uniquely named
// ".<file>.<pid>.<ms>.<random>.tmp"; the next write of the same file removes old ones.
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEFTOVER_AGE_MS, writeFileAtomic } from '../../src/core/config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('leftovers of killed atomic writes', () => {
  it('go with the next write of the same file when older than an hour; fresh ones, other files\' and other names stay', async () => {
    const old = new Date(Date.now() - LEFTOVER_AGE_MS - 60_000);
    const names = {
      stale: '.window.json.4242.1763900000000.k3j9x2.tmp',
      staleToo: '.window.json.7.1763900000001.a.tmp',
      fresh: '.window.json.4243.1763900000002.zz9.tmp',
      otherFile: '.config.json.4242.1763900000000.k3j9x2.tmp',
      notOurs: '.window.json.mine.tmp',
      similar: 'window.json.4242.1763900000000.k3j9x2.tmp',
    };
    for (const n of Object.values(names)) await writeFile(path.join(dir, n), 'x');
    for (const n of [names.stale, names.staleToo, names.otherFile, names.notOurs, names.similar]) await utimes(path.join(dir, n), old, old);

    await writeFileAtomic(path.join(dir, 'window.json'), '{"starts":[]}\n', 0o600);

    expect((await readdir(dir)).sort()).toEqual([names.fresh, names.otherFile, names.notOurs, names.similar, 'window.json'].sort());
    expect(await readFile(path.join(dir, 'window.json'), 'utf8')).toBe('{"starts":[]}\n');
  });
});
