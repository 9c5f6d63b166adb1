// The letters' own files drawn in a worker thread (the built CLI's, src/export/steps/uvi/letter-pool.ts):
// the same bytes as a letter drawn in this thread, on disk once close() returns; a letter it cannot
// write fails the run naming it; abort leaves no temporary file and nothing written afterwards.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { letterFonts, letterModel, writeLetter } from '../../src/uvi/letter/index.js';
import { assertBuilt, ROOT } from '../helpers/bin.js';
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
