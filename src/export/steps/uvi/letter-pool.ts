// The letters' own files drawn in a worker thread while this thread draws each Property's
// combined PDF: every letter is drawn twice, and its own file's drawing was most of the run's
// CPU (bench/README.md, figure 6), the last Property's coming after the last request. Only the
// built CLI has the compiled worker (as core/isolate.ts); elsewhere each letter is drawn here.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { deserializeError, type SerializedError } from '../../../core/isolate.js';
import type { LetterModel } from '../../../uvi/letter/index.js';

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

export type LetterReply = { id: number; error?: SerializedError };

export class LetterPool {
  private readonly worker: Worker;
  private next = 0;
  /** Letters handed over, oldest first, each settled by its answer (or the worker's end). */
  private readonly pending = new Map<number, { done: Promise<void>; resolve: () => void }>();
  private failure: Error | null = null;
  /** Set before terminate(): that exit (code 1) is ours, not a failure. */
  private ending = false;

  static available(): boolean {
    return ENTRY.protocol === 'file:' && existsSync(ENTRY);
  }

  constructor(data: LetterWorkerData) {
    this.worker = new Worker(ENTRY, { workerData: data, resourceLimits: LIMITS });
    this.worker.on('message', (r: LetterReply) => {
      if (r.error) this.failure ??= deserializeError(r.error);
      this.settle(r.id);
    });
    this.worker.on('error', (e: Error) => (this.failure ??= e));
    // An ended worker answers nothing more: whoever waits is let go, with the failure.
    this.worker.on('exit', (code) => {
      if (!this.ending) this.failure ??= new Error(`the letters' worker thread ended (exit ${code})`);
      for (const id of [...this.pending.keys()]) this.settle(id);
    });
  }

  /** Hands one letter over; waits while IN_FLIGHT are not written yet. Throws an earlier letter's failure. */
  async write(job: LetterJob): Promise<void> {
    if (this.failure) throw this.failure;
    while (this.pending.size >= IN_FLIGHT && !this.failure) await this.oldest();
    if (this.failure) throw this.failure;
    const id = this.next++;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    this.pending.set(id, { done, resolve });
    this.worker.postMessage({ id, ...job });
  }

  /**
   * Every letter handed over is written, or the first failure is thrown; the worker has ended
   * either way. On `signal` the letters not begun are skipped (as abort) and its reason thrown.
   */
  async close(signal?: AbortSignal): Promise<void> {
    const stop = () => this.worker.postMessage({ stop: true });
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    try {
      while (this.pending.size > 0) await this.oldest();
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    await this.end();
    if (this.failure) throw this.failure;
    if (signal?.aborted) throw signal.reason;
  }

  /** The run failed: the worker skips what it has not begun, the letter under way ends, then the worker ends (nothing is written into the folder after). */
  async abort(): Promise<void> {
    this.worker.postMessage({ stop: true });
    while (this.pending.size > 0) await this.oldest();
    await this.end();
  }

  private async end(): Promise<void> {
    this.ending = true;
    await this.worker.terminate();
  }

  private oldest(): Promise<void> {
    return this.pending.values().next().value!.done;
  }

  private settle(id: number): void {
    this.pending.get(id)?.resolve();
    this.pending.delete(id);
  }
}
