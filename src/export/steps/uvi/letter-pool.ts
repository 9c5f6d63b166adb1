// The letters' own files drawn in a worker thread while this thread draws each Property's
// combined PDF: every letter is drawn twice, and its own file's drawing was most of the run's
// CPU (bench/README.md, figure 6), the last Property's coming after the last request; where the
// worker is IN_FLIGHT letters behind, the calling thread draws the next one itself. Only the
// built CLI has the compiled worker (as core/isolate.ts); elsewhere each letter is drawn here.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { deserializeError, type SerializedError } from '../../../core/isolate.js';
import type { DrawnLetter, LetterModel } from '../../../uvi/letter/index.js';

const ENTRY = new URL('./letter-worker.js', import.meta.url);
/** Letters handed over and not yet written: what waits in the worker's queue is bounded. */
const IN_FLIGHT = 16;
/** The worker holds one letter and the fonts: a small old space is plenty. */
const LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

/** One letter to its own file (a temporary name the run commits). */
export interface LetterJob {
  file: string;
  title: string;
  model: LetterModel;
}

/** What the worker is started with: the run's time (the PDFs' CreationDate) and language. */
export interface LetterWorkerData {
  createdAt: number;
  lang: 'en' | 'de';
}

/** The worker's answer: the letter written (with what it drew, for the combined PDF), failed, or skipped after a stop. */
export type LetterReply = { id: number; error?: SerializedError; drawn?: DrawnLetter | null; skipped?: true };

/** A letter handed over: `drawn` settles once it is written (rejects where it failed or was skipped). */
export interface Handed {
  drawn: Promise<DrawnLetter | null>;
}

interface Settlers {
  resolve: (d: DrawnLetter | null) => void;
  reject: (e: unknown) => void;
}

interface Pending {
  done: Promise<void>;
  settle: (r: LetterReply | null) => void;
}

/**
 * How long a stopped worker may take to end the letter under way (a letter is drawn in well under
 * a second, one with a 20,000-letter name in about one): a worker that has not answered by then
 * hangs, and is ended, so Ctrl-C always ends the run.
 */
export const STOP_GRACE_MS = 5_000;

export interface LetterPoolOptions {
  /** The run's signal: on it the letters not begun are skipped, and a write waiting for room is let go. */
  signal?: AbortSignal;
  /** The worker's module (a test's worker that never answers). */
  entry?: URL;
  graceMs?: number;
}

export class LetterPool {
  private readonly worker: Worker;
  private next = 0;
  /** Letters handed over, oldest first, each settled by its answer (or the worker's end). */
  private readonly pending = new Map<number, Pending>();
  private failure: Error | null = null;
  /** Set before terminate(): that exit (code 1) is ours, not a failure. */
  private ending = false;
  /** Set once the worker was told to stop: why (the signal's reason, or the run's failure). */
  private stopped: { reason: unknown } | null = null;
  private stopTimer: NodeJS.Timeout | undefined;
  private readonly graceMs: number;
  private readonly signal: AbortSignal | undefined;
  private readonly onSignal = () => this.stop(this.signal?.reason);

  static available(): boolean {
    return ENTRY.protocol === 'file:' && existsSync(ENTRY);
  }

  constructor(data: LetterWorkerData, opts: LetterPoolOptions = {}) {
    this.graceMs = opts.graceMs ?? STOP_GRACE_MS;
    this.signal = opts.signal;
    this.worker = new Worker(opts.entry ?? ENTRY, { workerData: data, resourceLimits: LIMITS });
    this.signal?.addEventListener('abort', this.onSignal, { once: true });
    this.worker.on('message', (r: LetterReply) => {
      if (r.error) this.failure ??= deserializeError(r.error);
      this.settle(r.id, r);
    });
    this.worker.on('error', (e: Error) => (this.failure ??= e));
    // An ended worker answers nothing more: whoever waits is let go, with the failure.
    this.worker.on('exit', (code) => {
      if (!this.ending) this.failure ??= new Error(`the letters' worker thread ended (exit ${code})`);
      for (const id of [...this.pending.keys()]) this.settle(id, null);
    });
  }

  /**
   * Hands one letter over. While IN_FLIGHT are not written yet, `here` draws it in the calling
   * thread instead (without it: waits): once a Property's letters come all at once, two threads
   * draw them, not one while the other waits (bench/README.md, figure 6). Throws an earlier
   * letter's failure, or why the pool was stopped.
   */
  async write(job: LetterJob, here?: () => Promise<DrawnLetter | null>): Promise<Handed> {
    this.throwIfEnded();
    if (here && this.pending.size >= IN_FLIGHT) return { drawn: Promise.resolve(await here()) };
    while (this.pending.size >= IN_FLIGHT && !this.failure && !this.stopped) await this.oldest();
    this.throwIfEnded();
    const id = this.next++;
    let drawnOf!: Settlers;
    const drawn = new Promise<DrawnLetter | null>((resolve, reject) => (drawnOf = { resolve, reject }));
    drawn.catch(() => undefined); // a failure is also thrown by the next write or close: no unhandled rejection while nobody awaits it
    let settle!: Pending['settle'];
    const done = new Promise<void>((resolve) => (settle = (r) => resolve(this.answer(r, drawnOf))));
    this.pending.set(id, { done, settle });
    this.worker.postMessage({ id, ...job });
    return { drawn };
  }

  /** Settles a letter's `drawn` by its answer (null: the worker ended without one). */
  private answer(r: LetterReply | null, drawn: Settlers): void {
    if (r && !r.error && !r.skipped) drawn.resolve(r.drawn ?? null);
    else drawn.reject(r?.error ? deserializeError(r.error) : (this.failure ?? new Error(`the letter was not written (the run stopped)`)));
  }

  /**
   * Every letter handed over is written, or the first failure is thrown; the worker has ended
   * either way. On `signal` the letters not begun are skipped (as abort) and its reason thrown,
   * at the latest STOP_GRACE_MS after it: a worker that has not answered by then is ended.
   */
  async close(signal?: AbortSignal): Promise<void> {
    const stop = () => this.stop(signal?.reason);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    try {
      while (this.pending.size > 0) await this.oldest();
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    await this.end();
    this.throwIfEnded();
    if (signal?.aborted) throw signal.reason;
  }

  /**
   * The run failed: the worker skips what it has not begun, the letter under way ends (or the worker
   * is ended STOP_GRACE_MS after, when it hangs), then the worker ends (nothing is written into the folder after).
   */
  async abort(): Promise<void> {
    this.stop(new Error('the run failed'));
    while (this.pending.size > 0) await this.oldest();
    await this.end();
  }

  /** The letters not begun are skipped; a worker that has not ended the one under way within the grace is ended (its exit lets every waiter go). */
  private stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = { reason };
    this.worker.postMessage({ stop: true });
    this.stopTimer = setTimeout(() => void this.end(), this.graceMs);
  }

  private throwIfEnded(): void {
    if (this.failure) throw this.failure;
    if (this.stopped) throw this.stopped.reason;
  }

  private async end(): Promise<void> {
    this.ending = true;
    clearTimeout(this.stopTimer);
    this.signal?.removeEventListener('abort', this.onSignal);
    await this.worker.terminate();
  }

  private oldest(): Promise<void> {
    return this.pending.values().next().value!.done;
  }

  private settle(id: number, r: LetterReply | null): void {
    this.pending.get(id)?.settle(r);
    this.pending.delete(id);
  }
}
