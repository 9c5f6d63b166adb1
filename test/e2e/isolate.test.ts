// runIsolated from dist/ (the worker loads compiled modules only): results, output,
// errors, the heap cap, aborts and a worker that lingers. Needs `npm run build`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Isolate from '../../src/core/isolate.js';
import type { Io } from '../../src/core/io.js';
import { ExitCode, MeterdataError } from '../../src/core/errors.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = pathToFileURL(path.join(ROOT, 'test/e2e/fixtures/isolate-fixture.mjs'));
let isolate: typeof Isolate;
let DistMeterdataError: typeof MeterdataError;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/core/isolate-worker.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  isolate = (await import(pathToFileURL(path.join(ROOT, 'dist/core/isolate.js')).href)) as typeof Isolate;
  DistMeterdataError = ((await import(pathToFileURL(path.join(ROOT, 'dist/core/errors.js')).href)) as { MeterdataError: typeof MeterdataError }).MeterdataError;
});

function captured(signal = new AbortController().signal) {
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  stderr.isTTY = true;
  const text = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (text.out += c.toString()));
  stderr.on('data', (c: Buffer) => (text.err += c.toString()));
  const io: Io = { stdout, stderr, stdin: new PassThrough(), env: { FIXTURE_VAR: 'from the caller' }, cwd: '/tmp', signal };
  return { io, text };
}

const outOfMemory = () => new MeterdataError('needs more memory', { code: 'EXPORT_OUT_OF_MEMORY', exitCode: ExitCode.UNEXPECTED, hint: 'raise the cap' });
const run = <T>(name: string, io: Io, extra: Partial<Isolate.IsolateOptions> = {}, input: unknown = {}) =>
  isolate.runIsolated<T>(FIXTURE, name, input, { limits: { youngMb: 8, oldMb: 256 }, io, outOfMemory, ...extra });

describe('runIsolated (worker thread with heap limits)', () => {
  it('is available in the build and returns the value, with the caller env, cwd, terminal flag and output', async () => {
    expect(isolate.isolationAvailable()).toBe(true);
    const { io, text } = captured();
    const r = await run<{ doubled: number; map: Map<string, number>; stderrIsTTY: boolean; env: string; cwd: string; heapLimitMb: number }>(
      'echo',
      io,
      {},
      { n: 21, name: 'x' },
    );
    expect(r.doubled).toBe(42);
    expect(r.map.get('a')).toBe(1);
    expect(r.stderrIsTTY).toBe(true);
    expect(r.env).toBe('from the caller');
    expect(r.cwd).toBe('/tmp');
    expect(text.err).toBe('to stderr: x\n');
    expect(text.out).toBe('to stdout\n');
    // the worker's heap is capped near old + young, far below this machine's default
    expect(r.heapLimitMb).toBeGreaterThan(256);
    expect(r.heapLimitMb).toBeLessThan(256 + 64);
  });

  it('brings a MeterdataError back with its code, exit status, hint and details; anything else stays a bug with its stack', async () => {
    const e1 = await run('userError', captured().io).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(DistMeterdataError);
    expect(e1).toMatchObject({ message: 'The thing failed.', code: 'SERVICE_UNAVAILABLE', exitCode: 5, hint: 'Do the other thing.', details: { n: 1 } });
    const e2 = (await run('bug', captured().io).catch((e: unknown) => e)) as Error;
    expect(e2).not.toBeInstanceOf(DistMeterdataError);
    expect(e2.name).toBe('TypeError');
    expect(e2.stack).toMatch(/isolate-fixture\.mjs/);
  });

  it('turns running out of the old-space cap into the caller’s error', async () => {
    const e = await run('hog', captured().io, { limits: { youngMb: 8, oldMb: 128 } }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'EXPORT_OUT_OF_MEMORY', hint: 'raise the cap' });
  }, 60_000);

  it("'tell' hands the abort to the worker's signal and waits for its answer", async () => {
    const ac = new AbortController();
    const pending = run<string>('waitForAbort', captured(ac.signal).io);
    setTimeout(() => ac.abort(new Error('interrupted by SIGINT')), 300);
    expect(await pending).toBe('aborted: interrupted by SIGINT');
  }, 30_000);

  it("'terminate' stops a busy worker at once and rejects with the abort reason", async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    const pending = run('busy', captured(ac.signal).io, { onAbort: 'terminate' });
    setTimeout(() => ac.abort(new Error('interrupted by SIGTERM')), 300);
    await expect(pending).rejects.toThrow('interrupted by SIGTERM');
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 30_000);

  it('does not wait for a worker that answered but keeps a handle open', async () => {
    const t0 = Date.now();
    expect(await run<string>('lingers', captured().io)).toBe('answered');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);
});
