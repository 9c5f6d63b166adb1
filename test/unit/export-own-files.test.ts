// Files put under the run's temporary names in a shared --out while it writes (round 27): a link planted at a
// name created late (`.billing.xlsx.partial`, a letter's) had its target overwritten or emptied, and a file
// swapped over a temporary file (a forged letter, another user's file) was hashed and committed as the run's.
// Each temporary file is made by the run's own exclusive open, never through a link, and is checked to be still
// its own (not a link, this user's, no other names) before it is read back or renamed into place.
import { execFileSync } from 'node:child_process';
import { chownSync, linkSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openOwn } from '../../src/core/bounded-read.js';
import { AtomicOutput } from '../../src/export/folder/atomic.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-own-files-'));
const finalNames = (dir: string) => readdirSync(dir).filter((n) => !n.startsWith('.'));

async function staged(dir: string): Promise<AtomicOutput> {
  const out = new AtomicOutput(dir);
  await out.prepare();
  for (const [name, text] of [
    ['billing.csv', 'the run’s billing'],
    ['meterdata-manifest.json', '{}'],
  ]) {
    const f = await out.create(name!);
    await f.write(text!);
    await out.closeFile(f);
  }
  return out;
}

describe('a temporary file made by the run', () => {
  it('a link already at its name (planted after the tidy-up) is refused: its target untouched, nothing written through it', async () => {
    const dir = tmp();
    const victim = path.join(tmp(), 'victim.txt');
    writeFileSync(victim, 'precious');
    const out = new AtomicOutput(dir);
    await out.prepare();
    symlinkSync(victim, path.join(dir, '.billing.xlsx.partial'));
    await expect(out.create('billing.xlsx')).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: expect.stringContaining('.billing.xlsx.partial is no longer the file this run wrote (it is a symbolic link)'),
    });
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('a plain file already at its name is refused too: nothing of the run is written into it', async () => {
    const dir = tmp();
    const out = new AtomicOutput(dir);
    await out.prepare();
    writeFileSync(path.join(dir, '.billing.csv.partial'), 'forged');
    await expect(out.create('billing.csv')).rejects.toMatchObject({ code: 'EXPORT_SCRATCH_DAMAGED' });
    expect(readFileSync(path.join(dir, '.billing.csv.partial'), 'utf8')).toBe('forged');
  });
});

describe('the commit', () => {
  it.each([
    ['a link to a file elsewhere', 'it is a symbolic link'],
    ['a file of another user', 'it belongs to another user'],
    ['a file with another name as well (a hard link)', 'it has other names as well'],
  ])('refuses a temporary file swapped for %s: nothing under a final name', async (what, why) => {
    const dir = tmp();
    const out = await staged(dir);
    const partial = path.join(dir, '.billing.csv.partial');
    const elsewhere = path.join(tmp(), 'other.csv');
    writeFileSync(elsewhere, 'forged billing');
    if (what.startsWith('a link')) {
      symlinkSync(elsewhere, `${partial}.x`);
      renameSync(`${partial}.x`, partial);
    } else if (what.includes('another user')) {
      writeFileSync(`${partial}.x`, 'forged billing');
      chownSync(`${partial}.x`, 65534, 65534);
      renameSync(`${partial}.x`, partial);
    } else linkSync(partial, elsewhere + '.hard');
    await expect(out.commit('meterdata-manifest.json')).rejects.toMatchObject({ code: 'EXPORT_SCRATCH_DAMAGED', message: expect.stringContaining(why) });
    expect(finalNames(dir)).toEqual([]);
  });

  it('commits the run’s own files as before', async () => {
    const dir = tmp();
    const out = await staged(dir);
    await out.commit('meterdata-manifest.json');
    expect(finalNames(dir).sort()).toEqual(['billing.csv', 'meterdata-manifest.json']);
  });
});

describe('a file of the run read back (openOwn)', () => {
  it('refuses a link, a FIFO and another user’s file; opens the run’s own', async () => {
    const dir = tmp();
    const own = path.join(dir, 'own');
    writeFileSync(own, 'x');
    const link = path.join(dir, 'link');
    symlinkSync(own, link);
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const foreign = path.join(dir, 'foreign');
    writeFileSync(foreign, 'x');
    chownSync(foreign, 65534, 65534);
    expect(await openOwn(link)).toEqual({ problem: 'it is a symbolic link' });
    expect(await openOwn(fifo)).toEqual({ problem: 'it is not a plain file (a pipe or a device?)' });
    expect(await openOwn(foreign)).toEqual({ problem: 'it belongs to another user' });
    const opened = await openOwn(own);
    expect('handle' in opened).toBe(true);
    if ('handle' in opened) await opened.handle.close();
  });
});

describe("a letter's temporary file read back for its hash", () => {
  it('swapped for a link or another user’s file: refused (EXPORT_SCRATCH_DAMAGED), never hashed as the letter', async () => {
    const { letterEntry } = await import('../../src/export/steps/uvi/formats.js');
    const dir = tmp();
    const forged = path.join(dir, 'forged.pdf');
    writeFileSync(forged, '%PDF-1.4 FORGED');
    const link = path.join(dir, '.letter-a.pdf.partial');
    symlinkSync(forged, link);
    await expect(letterEntry('letter-a.pdf', link)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: expect.stringContaining('it is a symbolic link'),
    });
    const foreign = path.join(dir, '.letter-b.pdf.partial');
    writeFileSync(foreign, '%PDF-1.4 FORGED');
    chownSync(foreign, 65534, 65534);
    await expect(letterEntry('letter-b.pdf', foreign)).rejects.toMatchObject({
      code: 'EXPORT_SCRATCH_DAMAGED',
      message: expect.stringContaining('it belongs to another user'),
    });
  });
});

describe('the message of a run stopped by a file not its own', () => {
  it('says once that no file was put under its final name (27b F10: it said so twice)', async () => {
    const { letterEntry } = await import('../../src/export/steps/uvi/formats.js');
    const { unfinished } = await import('../../src/export/run-errors.js');
    const dir = tmp();
    const link = path.join(dir, '.letter-c.pdf.partial');
    symlinkSync(path.join(dir, 'x'), link);
    const e = unfinished(await letterEntry('letter-c.pdf', link).catch((err: unknown) => err), dir, undefined) as Error;
    expect(e.message.match(/no files were put under their final names/g)).toHaveLength(1);
  });
});

// Round 28: two more files the run writes in --out followed a link put in their place.
describe('the first commit’s aside copy of its manifest', () => {
  it('is made new: a link planted at its name is not written through (its target keeps its bytes)', async () => {
    const dir = tmp();
    const out = await staged(dir);
    const victim = path.join(tmp(), 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, path.join(dir, '.meterdata-manifest.json.replaced'));
    await out.commit('meterdata-manifest.json');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(finalNames(dir).sort()).toEqual(['billing.csv', 'meterdata-manifest.json']);
  });
});
