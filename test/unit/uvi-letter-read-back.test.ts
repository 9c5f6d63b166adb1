// A letter's temporary file is read back for the manifest's sha256. A plain readFile waited for a writer when a
// FIFO had been put in its place (anyone who may write into a shared --out), deaf to Ctrl-C and SIGTERM: the
// nightly run hung. It is read only as a plain file now, in pieces; anything else is refused at once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { letterEntry } from '../../src/export/steps/uvi/formats.js';

const dir = mkdtempSync(path.join(tmpdir(), 'uvi-read-back-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a letter's temporary file read back for the manifest", () => {
  it('a plain file: its size and sha256, also past one read of 64 KiB', async () => {
    const bytes = Buffer.alloc(200_000, 7);
    bytes.write('%PDF-1.7', 0);
    const file = path.join(dir, '.letter-a.pdf.partial');
    writeFileSync(file, bytes);
    expect(await letterEntry('letter-a.pdf', file)).toEqual({
      name: 'letter-a.pdf',
      bytes: 200_000,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it.each([
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p])],
    ['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
    ['a folder', (p: string) => mkdirSync(p)],
  ])(
    '%s in its place: refused at once (EXPORT_SCRATCH_DAMAGED naming it), never waited on',
    async (_what, plant) => {
      const file = path.join(dir, `.letter-${_what.replace(/\W+/g, '_')}.pdf.partial`);
      plant(file);
      const t0 = performance.now();
      const err = await letterEntry('letter.pdf', file).catch((e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(2000);
      expect(err).toMatchObject({ code: 'EXPORT_SCRATCH_DAMAGED' });
      expect((err as Error).message).toContain(file);
    },
    5000,
  );
});
