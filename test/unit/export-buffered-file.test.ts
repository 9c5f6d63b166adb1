import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AtomicOutput } from '../../src/export/folder/atomic.js';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'md-buffered-'));
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

afterEach(() => vi.restoreAllMocks());

describe("a buffered file's marks", () => {
  it('a mark writes nothing to the disk, and a rewind past flushes gives back exactly the bytes and digest up to the mark', async () => {
    const out = new AtomicOutput(await tmp());
    await out.prepare();
    const f = await out.create('billing.csv');
    await f.write('Zähler;1\n');
    const mark = await f.mark();
    // a mark at every Property's start flushed every file: a small write each time
    expect((await stat(f.path)).size).toBe(0);
    expect(mark.bytes).toBe(Buffer.byteLength('Zähler;1\n'));
    // more than the buffer holds, so the rows after the mark reach the disk before the rewind
    await f.write('x'.repeat(200_000));
    expect((await stat(f.path)).size).toBeGreaterThan(200_000);
    await f.rewind(mark);
    await f.write('Messstelle;2\n');
    // the mark stays usable: a second rewind to it drops the line again
    await f.rewind(mark);
    await f.write('Nutzeinheit;3\n');
    await out.closeFile(f);
    const text = 'Zähler;1\nNutzeinheit;3\n';
    expect(await readFile(f.path, 'utf8')).toBe(text);
    expect(f.bytes).toBe(Buffer.byteLength(text));
    expect(f.digest()).toBe(sha(text));
  });

  it('a rewind to a mark taken after a flush keeps what was on disk and drops what followed', async () => {
    const out = new AtomicOutput(await tmp());
    await out.prepare();
    const f = await out.scratch('billing.ndjson');
    await f.write('{"a":1}\n');
    await f.flush();
    const mark = await f.mark();
    await f.write('{"b":2}\n');
    await f.flush();
    await f.rewind(mark);
    await out.closeFile(f);
    expect(await readFile(f.path, 'utf8')).toBe('{"a":1}\n');
  });
});

describe('scratch files and the files that are committed', () => {
  it('a scratch file (a spool) is closed without an fsync and without a digest; a file renamed into place is fsynced at its close', async () => {
    const probe = await open(path.join(await tmp(), 'probe'), 'w');
    const sync = vi.spyOn(Object.getPrototypeOf(probe) as { sync: () => Promise<void> }, 'sync');
    await probe.close();
    const out = new AtomicOutput(await tmp());
    await out.prepare();
    const spool = await out.scratch('billing.ndjson');
    await spool.write('{"a":1}\n');
    await out.closeFile(spool);
    expect(sync).not.toHaveBeenCalled();
    expect(() => spool.digest()).toThrow(/scratch/);
    const csv = await out.create('billing.csv');
    await csv.write('a\n');
    await out.closeFile(csv);
    expect(sync).toHaveBeenCalledTimes(1);
    expect(csv.digest()).toBe(sha('a\n'));
  });
});
