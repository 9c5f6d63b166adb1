// The letters' own files drawn in a worker thread (the built CLI's, src/export/steps/uvi/letter-pool.ts):
// the same bytes as a letter drawn in this thread, on disk once close() returns; while it is behind,
// the next letter is drawn here; what it drew makes the combined PDF without drawing it again; a
// letter it cannot write fails the run naming it; abort leaves no temporary file and nothing written afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { letterFonts, letterModel, LetterPdf, writeLetter } from '../../src/uvi/letter/index.js';
import { assertBuilt, ROOT } from '../helpers/bin.js';
import { requireTool } from '../helpers/tools.js';
import { aLetterInput } from '../helpers/uvi-letter-fixtures.js';

type Pool = typeof import('../../src/export/steps/uvi/letter-pool.js');
let LetterPool: Pool['LetterPool'];
const createdAt = new Date('2025-12-05T06:00:00Z');
const dir = () => mkdtempSync(path.join(tmpdir(), 'uvi-letter-pool-'));
const model = () => letterModel(aLetterInput());

beforeAll(async () => {
  assertBuilt();
  ({ LetterPool } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'export', 'steps', 'uvi', 'letter-pool.js')).href)) as Pool);
});

describe("the letters' worker thread", () => {
  it('is there in the build; its letters are on disk when close() returns, each byte for byte as drawn in this thread', async () => {
    expect(LetterPool.available()).toBe(true);
    const d = dir();
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    const m = model();
    for (let i = 0; i < 20; i++) await pool.write({ file: path.join(d, `${i}.pdf`), title: m.title, model: m });
    await pool.close();
    await writeLetter(path.join(d, 'here.pdf'), m, { fonts: await letterFonts(), createdAt, title: m.title, lang: 'de' });
    const here = readFileSync(path.join(d, 'here.pdf'));
    for (let i = 0; i < 20; i++) expect(readFileSync(path.join(d, `${i}.pdf`)).equals(here), `${i}.pdf`).toBe(true);
    expect(readdirSync(d).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('while the worker is 16 letters behind, the next letter is drawn here (the same bytes), not waited for; every letter is on disk after close()', async () => {
    const d = dir();
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    const m = model();
    const opts = { fonts: await letterFonts(), createdAt, title: m.title, lang: 'de' as const };
    const drawnHere: number[] = [];
    let firstAnswered: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < 40; i++) {
      const file = path.join(d, `${i}.pdf`);
      const handed = await pool.write({ file, title: m.title, model: m }, async () => {
        drawnHere.push(i);
        const drawn = await writeLetter(file, m, opts);
        // However slow the worker is under load: once it has answered the first, the pool has room again.
        if (drawnHere.length === 1) await firstAnswered;
        return drawn;
      });
      if (i === 0) firstAnswered = handed.drawn;
    }
    await pool.close();
    // Handed over without a turn of the event loop, the worker has answered none of the first 16 when the 17th comes.
    expect(drawnHere[0]).toBe(16);
    // Once the worker has answered, letters go to it again: the 18th is handed over, not drawn here.
    expect(drawnHere).not.toContain(17);
    const first = readFileSync(path.join(d, '0.pdf'));
    for (let i = 0; i < 40; i++) expect(readFileSync(path.join(d, `${i}.pdf`)).equals(first), `${i}.pdf`).toBe(true);
    expect(readdirSync(d).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `${i}.pdf`).sort());
    rmSync(d, { recursive: true });
  });

  it("the combined PDF from the worker's drawings has the bytes of drawing it here, and a letter drawn here afterwards still names each character", async (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const d = dir();
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    // Characters no letter of this test file drew in this thread: the combined PDF's glyphs come only from the worker.
    const input = aLetterInput();
    const m = letterModel({ ...input, unit: { ...input.unit, name: 'WE 07 Ŧħŋ Ŀŀ Ŋ' } });
    const opts = { fonts: await letterFonts(), createdAt, title: m.title, lang: 'de' as const };
    const handed = [];
    for (let i = 0; i < 2; i++) handed.push(await pool.write({ file: path.join(d, `${i}.pdf`), title: m.title, model: m }));
    const drawn = await Promise.all(handed.map((h) => h.drawn));
    await pool.close();
    expect(drawn.every((x) => x !== null && x.pages === 2)).toBe(true);
    const replayed = LetterPdf.open(path.join(d, 'replayed.pdf'), opts);
    for (const x of drawn) await replayed.addDrawn(m, x);
    await replayed.close();
    // The combined PDF's close encoded glyphs this thread never laid out: a letter drawn here now is the worker's, byte for byte.
    await writeLetter(path.join(d, 'here.pdf'), m, opts);
    expect(readFileSync(path.join(d, 'here.pdf')).equals(readFileSync(path.join(d, '0.pdf')))).toBe(true);
    expect(execFileSync('pdftotext', [path.join(d, 'here.pdf'), '-'], { encoding: 'utf8' })).toContain('WE 07 Ŧħŋ Ŀŀ Ŋ');
    const again = LetterPdf.open(path.join(d, 'drawn.pdf'), opts);
    for (let i = 0; i < 2; i++) await again.add(m);
    await again.close();
    expect(readFileSync(path.join(d, 'replayed.pdf')).equals(readFileSync(path.join(d, 'drawn.pdf')))).toBe(true);
    rmSync(d, { recursive: true });
  });

  it('a letter it cannot write (its folder is gone): the next write or close fails naming the letter, and the worker ends', async () => {
    const d = dir();
    const gone = path.join(d, 'gone');
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    const m = model();
    await pool.write({ file: path.join(gone, 'WE 01.pdf'), title: m.title, model: m });
    const failed = await (async () => {
      for (let i = 0; i < 40; i++) await pool.write({ file: path.join(d, `${i}.pdf`), title: m.title, model: m });
      await pool.close();
    })().then(
      () => null,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(failed?.code).toBe('ENOENT');
    expect(String(failed?.path ?? failed?.message)).toContain('WE 01.pdf');
    await pool.close().catch(() => undefined); // ends the worker whatever the state
  });

  it('abort right after handing letters over: the letter under way ends, the rest are skipped, no temporary file is left or written afterwards', async () => {
    const d = dir();
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    const m = model();
    for (let i = 0; i < 16; i++) await pool.write({ file: path.join(d, `${i}.pdf`), title: m.title, model: m });
    await pool.abort();
    const after = readdirSync(d).sort();
    expect(after.filter((n) => !/^\d+\.pdf$/.test(n))).toEqual([]);
    expect(after.length).toBeLessThan(16);
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(d).sort()).toEqual(after);
    rmSync(d, { recursive: true });
    expect(existsSync(d)).toBe(false);
  });

  it("close() with the run's signal aborted while letters wait: the rest are skipped and the signal's reason is thrown", async () => {
    const d = dir();
    const pool = new LetterPool({ createdAt: createdAt.getTime(), lang: 'de' });
    const m = model();
    for (let i = 0; i < 16; i++) await pool.write({ file: path.join(d, `${i}.pdf`), title: m.title, model: m });
    const ctrl = new AbortController();
    const closed = pool.close(ctrl.signal).then(
      () => null,
      (e: unknown) => e,
    );
    ctrl.abort(new Error('interrupted'));
    expect(String(await closed)).toContain('interrupted');
    expect(readdirSync(d).length).toBeLessThan(16);
    rmSync(d, { recursive: true });
  });
});

describe("a letters' worker that never answers (a letter stuck in drawing)", () => {
  const GRACE_MS = 300;
  /** A worker that spins on the first letter: it never answers, nor reads the stop. */
  const hung = () => {
    const file = path.join(dir(), 'hung.mjs');
    writeFileSync(file, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => { if (!('stop' in m)) for (;;); });\n");
    return pathToFileURL(file);
  };
  const data = { createdAt: createdAt.getTime(), lang: 'de' as const };
  const m = model();
  /** How long `p` takes to settle, and how: 'ok' or the error's text. */
  const timed = async (p: Promise<unknown>) => {
    const t0 = performance.now();
    const how = await p.then(
      () => 'ok',
      (e: unknown) => String(e),
    );
    return { how, ms: performance.now() - t0 };
  };

  it('abort() ends it after the grace instead of waiting for ever', async () => {
    const pool = new LetterPool(data, { entry: hung(), graceMs: GRACE_MS });
    await pool.write({ file: path.join(dir(), 'a.pdf'), title: m.title, model: m });
    const { how, ms } = await timed(pool.abort());
    expect(how).toBe('ok');
    expect(ms).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(ms).toBeLessThan(GRACE_MS + 3_000);
  }, 10_000);

  it("close() with the run's signal: the signal's reason is thrown after the grace", async () => {
    const pool = new LetterPool(data, { entry: hung(), graceMs: GRACE_MS });
    await pool.write({ file: path.join(dir(), 'a.pdf'), title: m.title, model: m });
    const ctrl = new AbortController();
    const closed = timed(pool.close(ctrl.signal));
    ctrl.abort(new Error('interrupted'));
    const { how, ms } = await closed;
    expect(how).toContain('interrupted');
    expect(ms).toBeLessThan(GRACE_MS + 3_000);
  }, 10_000);

  it("a write waiting for room when the run's signal comes is let go with its reason; close() then says it too", async () => {
    const ctrl = new AbortController();
    const pool = new LetterPool(data, { entry: hung(), graceMs: GRACE_MS, signal: ctrl.signal });
    for (let i = 0; i < 16; i++) await pool.write({ file: path.join(dir(), `${i}.pdf`), title: m.title, model: m });
    const waiting = timed(pool.write({ file: path.join(dir(), 'room.pdf'), title: m.title, model: m }));
    ctrl.abort(new Error('interrupted'));
    const { how, ms } = await waiting;
    expect(how).toContain('interrupted');
    expect(ms).toBeLessThan(GRACE_MS + 3_000);
    expect((await timed(pool.close())).how).toContain('interrupted');
  }, 10_000);
});
