// writeFileAtomic, the one single-file writer (config.json, the stored sign-in, the shared
// rate window, the portfolio's record, the journal): a kill between the temporary file and
// its rename leaves a uniquely named ".<file>.<pid>.<ms>.<random>.tmp"; the next write of the
// same file removes old ones. The journal's fixed "<file>.tmp" is written over instead.
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEFTOVER_AGE_MS, writeFileAtomic } from '../../src/core/atomic-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'md-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('leftovers of killed atomic writes', () => {
  it("go with the next write of the same file when older than an hour; fresh ones, other files' and other names stay", async () => {
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

    await writeFileAtomic(path.join(dir, 'window.json'), '{"starts":[]}\n', { mode: 0o600 });

    expect((await readdir(dir)).sort()).toEqual([names.fresh, names.otherFile, names.notOurs, names.similar, 'window.json'].sort());
    expect(await readFile(path.join(dir, 'window.json'), 'utf8')).toBe('{"starts":[]}\n');
  });
});

describe('a fixed temporary name (the journal, written only under its lock)', () => {
  it('writes over what a killed write left under it, leaves no temporary file, and takes bytes as they are', async () => {
    const file = path.join(dir, 'property-000001.json.gz');
    await writeFile(`${file}.tmp`, 'half of a killed write');
    const bytes = Buffer.from([0x1f, 0x8b, 0x00, 0xff, 0x0a]);
    await writeFileAtomic(file, bytes, { temp: 'fixed' });
    expect(await readdir(dir)).toEqual(['property-000001.json.gz']);
    expect(await readFile(file)).toEqual(bytes);
    // no mode given: the umask decides, as for the journal's files before
    expect((await stat(file)).mode & 0o777).toBe(0o666 & ~process.umask());
  });
});
