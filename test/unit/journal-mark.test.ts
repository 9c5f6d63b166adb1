// The journal's commit mark (journal-mark.ts): only the commit that wrote it takes it back (round 69 H3: a run whose
// journal another had taken over removed that run's mark), and a link or a folder in its place is refused, never
// written through or removed (round 69 H4).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMarked, markCommitting, unmark } from '../../src/export/journal/journal-mark.js';

const journal = () => mkdtempSync(path.join(os.tmpdir(), 'md-mark-'));

describe('the journal’s commit mark', () => {
  it('is taken back by the commit that wrote it, and by no other', async () => {
    const dir = journal();
    await markCommitting(dir, 'mine');
    expect(isMarked(dir)).toBe(true);
    expect(await unmark(dir, 'another run')).toBe(false);
    expect(isMarked(dir)).toBe(true);
    expect(await unmark(dir, 'mine')).toBe(true);
    expect(isMarked(dir)).toBe(false);
    expect(await unmark(dir, 'mine')).toBe(true); // none left
  });

  it('a link or a folder in its place is refused at the mark, and neither counts nor is removed', async () => {
    const dir = journal();
    const file = path.join(dir, 'committing.json');
    symlinkSync(path.join(dir, 'elsewhere'), file);
    await expect(markCommitting(dir, 'mine')).rejects.toMatchObject({ code: 'EXPORT_OUT_IN_USE', message: expect.stringContaining(`${file} is in the way`) });
    expect(isMarked(dir)).toBe(false);
    expect(await unmark(dir, 'mine')).toBe(true); // unmarked: a link is no mark
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(dir, 'elsewhere'))).toBe(false);
    const other = journal();
    mkdirSync(path.join(other, 'committing.json'));
    await expect(markCommitting(other, 'mine')).rejects.toMatchObject({ code: 'EXPORT_OUT_IN_USE' });
    expect(isMarked(other)).toBe(false);
  });
});

describe('a refusal that kept the mark', () => {
  it('keeps its own hint and adds that the progress is not kept (rounds 70, 71, 72)', async () => {
    const { unfinished } = await import('../../src/export/run-errors.js');
    const { UsageError } = await import('../../src/core/errors.js');
    const refusal = () => new UsageError('Another run took the commit over.', 'Run the same command again once the other run has ended.', 'EXPORT_OUT_BUSY');
    expect((unfinished(refusal(), '/out', undefined, undefined, true) as { hint: string }).hint).toBe(
      'Run the same command again once the other run has ended. This run’s progress could not be kept: the same command fetches the data afresh.',
    );
    expect((unfinished(refusal(), '/out', undefined, undefined, false) as { hint: string }).hint).toBe(
      'Run the same command again once the other run has ended.',
    );
  });
});

describe('a folder or a link at the mark', () => {
  it('leaves the journal unmarked: the take-back answers so, and the hint promises nothing false (round 71 #1)', async () => {
    const dir = journal();
    mkdirSync(path.join(dir, 'committing.json'));
    expect(await unmark(dir, 'mine')).toBe(true);
    const file = path.join(dir, 'target');
    await markCommitting(journal(), 'x'); // an ordinary mark elsewhere is untouched by this
    const linked = journal();
    writeFileSync(file, '{"by":"mine"}');
    symlinkSync(file, path.join(linked, 'committing.json'));
    expect(await unmark(linked, 'mine')).toBe(true);
    expect(existsSync(file)).toBe(true);
  });
});
