// Runs one function of a compiled module in a worker thread with its own V8 heap limits.
// Node sizes a process's heap from the machine's memory: on a big machine the young
// generation alone grows to 128 MiB and old space keeps garbage up to 4x the live data.
// The export holds little live data, so its heavy parts run here with small limits
// (the documented `resourceLimits`; node flags would need a second process, and a
// second process would survive a kill -9 of the first). A worker dies with its process.
import { existsSync } from 'node:fs';
import { Worker, type Transferable } from 'node:worker_threads';
import type { Io } from './io.js';
import { ExitCode, MeterdataError, type ErrorCode } from './errors.js';
import { isErrorCode } from './codes.js';
import { language, type Lang } from '../i18n/index.js';
import { coreTexts } from './texts.js';
import { runOwner } from './run-owner.js';

export interface HeapLimits {
  /** V8's young generation (both semi-spaces and more), MB. */
  youngMb: number;
  /** Old space: a hard cap, and the smaller it is the sooner V8 collects. */
  oldMb: number;
}

/** What crosses to the worker: the Io minus the streams it cannot clone. */
export interface WorkerIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns: number | undefined;
  rows: number | undefined;
}

export interface WorkerRequest {
  module: string;
  name: string;
  input: unknown;
  io: WorkerIo;
  /** The run's language: `--lang` is not in the environment the worker sees. */
  lang: Lang;
}

export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: SerializedError };

export interface SerializedError {
  meterdata: boolean;
  name: string;
  message: string;
  stack: string | undefined;
  code: ErrorCode | undefined;
  exitCode: number | undefined;
  hint: string | undefined;
  details: Record<string, unknown> | undefined;
  /** A system error's own code and file (ENOSPC, the path): what the caller tells the user (export/run-errors.ts). */
  system?: { code?: string; path?: string; syscall?: string };
}

const ENTRY = new URL('./isolate-worker.js', import.meta.url);
/** How long a worker may run on after its answer before it is stopped. */
const LINGER_MS = 5000;

/** Only the built CLI has a compiled worker entry; tests running the TypeScript sources stay in one thread. */
export function isolationAvailable(): boolean {
  return ENTRY.protocol === 'file:' && existsSync(ENTRY);
}

export function serializeError(e: unknown): SerializedError {
  const m = e instanceof MeterdataError;
  const err = e instanceof Error ? e : new Error(String(e));
  return {
    meterdata: m,
    name: err.name,
    message: err.message,
    stack: err.stack,
    code: m ? e.code : undefined,
    exitCode: m ? e.exitCode : undefined,
    hint: m ? e.hint : undefined,
    details: m ? e.details : undefined,
    ...(m ? {} : { system: systemPart(err as NodeJS.ErrnoException) }),
  };
}

function systemPart(e: NodeJS.ErrnoException): SerializedError['system'] {
  const part: NonNullable<SerializedError['system']> = {};
  if (typeof e.code === 'string') part.code = e.code;
  if (typeof e.path === 'string') part.path = e.path;
  if (typeof e.syscall === 'string') part.syscall = e.syscall;
  return part;
}

export function deserializeError(s: SerializedError): Error {
  if (s.meterdata) {
    const e = new MeterdataError(s.message, {
      code: isErrorCode(s.code) ? s.code : 'UNKNOWN',
      exitCode: (s.exitCode ?? ExitCode.UNEXPECTED) as ExitCode,
      hint: s.hint,
      details: s.details,
    });
    e.name = s.name;
    return e;
  }
  const e: NodeJS.ErrnoException = new Error(s.message);
  e.name = s.name;
  e.stack = s.stack;
  if (s.system?.code !== undefined) e.code = s.system.code;
  if (s.system?.path !== undefined) e.path = s.system.path;
  if (s.system?.syscall !== undefined) e.syscall = s.system.syscall;
  return e;
}

export interface IsolateOptions {
  limits: HeapLimits;
  io: Io;
  /** What to tell the user when the worker needs more old space than `limits.oldMb`. */
  outOfMemory: () => MeterdataError;
  /**
   * On io.signal: 'tell' aborts the worker's own signal and waits for its answer (it
   * cleans up itself); 'terminate' stops it at once and rejects with the signal's reason
   * (for work whose output the caller throws away anyway).
   */
  onAbort?: 'tell' | 'terminate';
  /** MessagePorts in `input`, handed over to the worker (a worker that serves several requests). */
  transfer?: Transferable[];
}

/**
 * `module[name](input, io)` in a worker; resolves once the worker has exited (so its
 * heap is gone before the next phase). io.signal aborts the worker's own signal; the
 * function decides how to stop. Its stdout and stderr go to this process's.
 */
export function runIsolated<T>(module: URL, name: string, input: unknown, opts: IsolateOptions): Promise<T> {
  const { io } = opts;
  const request: WorkerRequest = {
    module: module.href,
    name,
    input,
    lang: language(),
    io: {
      env: { ...io.env },
      cwd: io.cwd,
      stdoutIsTTY: io.stdout.isTTY === true,
      stderrIsTTY: io.stderr.isTTY === true,
      columns: io.stdout.columns,
      rows: io.stdout.rows,
    },
  };
  runOwner(); // before the worker copies process.env: its locks are this process's (run-owner.ts)
  const worker = new Worker(ENTRY, {
    workerData: request,
    ...(opts.transfer ? { transferList: opts.transfer } : {}),
    resourceLimits: { maxYoungGenerationSizeMb: opts.limits.youngMb, maxOldGenerationSizeMb: opts.limits.oldMb },
    stdout: true,
    stderr: true,
  });
  // Piped by hand so the output lands on the Io's streams (captured ones in tests).
  worker.stdout.on('data', (c: Buffer) => io.stdout.write(c));
  worker.stderr.on('data', (c: Buffer) => io.stderr.write(c));
  let terminated = false;
  const abort = () => {
    if (opts.onAbort === 'terminate') {
      terminated = true;
      void worker.terminate();
    } else worker.postMessage({ abort: String((io.signal.reason as Error | undefined)?.message ?? 'aborted') });
  };
  if (io.signal.aborted) abort();
  else io.signal.addEventListener('abort', abort, { once: true });
  return new Promise<T>((resolve, reject) => {
    let reply: WorkerReply | null = null;
    let failure: Error | null = null;
    let linger: NodeJS.Timeout | undefined;
    worker.on('message', (m: WorkerReply) => {
      reply = m;
      // The answer is in: a handle left open in the worker must not keep the command waiting.
      linger = setTimeout(() => void worker.terminate(), LINGER_MS);
    });
    worker.on('error', (e: Error & { code?: string }) => {
      failure = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? opts.outOfMemory() : e;
    });
    worker.on('exit', (code) => {
      clearTimeout(linger);
      io.signal.removeEventListener('abort', abort);
      const r = reply as WorkerReply | null;
      if (terminated) reject(io.signal.reason);
      else if (failure) reject(failure);
      else if (r?.ok) resolve(r.value as T);
      else if (r) reject(deserializeError(r.error));
      else reject(new Error(coreTexts.workerNoAnswer({ name, code })));
    });
  });
}
