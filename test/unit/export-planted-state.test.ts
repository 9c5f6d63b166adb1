// The saved progress of an export (the state folder) with a FIFO, /dev/zero or a huge sparse
// file put in place of one of its files: each is damage said at once (the export starts over
// or fetches that Property again), or a lock it cannot read, never a read that waits for a
// writer or fills the memory. A hang fails by the test's timeout.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, journalKey } from '../../src/export/journal/journal.js';
import { NORDLICHT_WHO } from '../helpers/who.js';

const who = NORDLICHT_WHO;
const id = { from: '2025-01-01', to: '2025-12-31' };
const now = new Date('2026-11-23T10:00:00Z');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-planted-state-'));

function plant(file: string, kind: string): void {
  rmSync(file, { force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  else if (kind === '/dev/zero') symlinkSync('/dev/zero', file);
  else {
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3); // sparse
  }
}

const kinds = [
  ['fifo', 'it is not a plain file (a pipe or a device?)'],
  ['/dev/zero', 'it is not a plain file (a pipe or a device?)'],
  ['huge', 'it is larger than 64 MiB'],
] as const;

describe('the saved progress, files replaced', () => {
  it.each(kinds)(
    'meta.json a %s: the export starts over and says why',
    async (kind, why) => {
      const state = tmp();
      const out = path.join(tmp(), 'out');
      const first = await Journal.open(state, id, who, now, out);
      await first.close();
      plant(path.join(first.dir, 'meta.json'), kind);
      const again = await Journal.open(state, id, who, now, out);
      expect(again.resumed).toBe(false);
      expect(again.restartReason).toContain(`${path.join(first.dir, 'meta.json')} is damaged (${why}`);
      await again.close();
    },
    10_000,
  );

  it.each(kinds)(
    "a Property's saved answers a %s: fetched again, the file named",
    async (kind) => {
      const state = tmp();
      const j = await Journal.open(state, id, who, now, path.join(tmp(), 'out'));
      const file = path.join(j.dir, 'property-000000.json.gz');
      plant(file, kind);
      const damaged: [string, string][] = [];
      expect(await j.load(0, { id: 'p-1' }, (f, w) => damaged.push([f, w]))).toBeNull();
      expect(damaged).toEqual([
        [file, kind === 'huge' ? 'it is larger than 512 MiB, far more than any such file holds' : 'it is not a plain file (a pipe or a device?)'],
      ]);
      await j.close();
    },
    10_000,
  );

  it('a lock that is a FIFO is one that cannot be read: refused as held (a damaged lock is taken over only when old), at once', async () => {
    const state = tmp();
    plant(path.join(state, 'exports', `${journalKey(id)}.lock`), 'fifo');
    await expect(Journal.open(state, id, who, now, path.join(tmp(), 'out'))).rejects.toMatchObject({ code: 'EXPORT_ALREADY_RUNNING' });
  }, 10_000);

  // Round 27: it was told as damage and fetched again, then saving over it failed (EISDIR, "a bug") on every run.
  it("a Property's saved answers a folder: refused before fetching it (EXPORT_OUT_IN_USE, exit 2), the folder named and kept", async () => {
    const state = tmp();
    const j = await Journal.open(state, id, who, now, path.join(tmp(), 'out'));
    const file = path.join(j.dir, 'property-000000.json.gz');
    mkdirSync(path.join(file, 'kept'), { recursive: true });
    const e = (await j.load(0, { id: 'p-1' }, () => undefined).catch((err: unknown) => err)) as {
      code: string;
      exitCode: number;
      message: string;
      hint: string;
    };
    expect([e.code, e.exitCode]).toEqual(['EXPORT_OUT_IN_USE', 2]);
    expect(e.message).toBe(
      `${file} is a folder, where meterdata keeps the saved answers of a Property of this run; it is not meterdata's, and meterdata removes no folder it did not make.`,
    );
    expect(e.hint).toMatch(/^Remove the folder/);
    expect(existsSync(path.join(file, 'kept'))).toBe(true);
    await j.close();
  });
});
