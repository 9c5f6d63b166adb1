// Worker threads that stay for the portfolio export's workbooks: each writes the
// billing.xlsx of one profile after another, so Node's start-up, loading exceljs and
// warming up its code are paid once per worker, not once per workbook (a third of a
// workbook's CPU time, and the workbooks are what a large portfolio spends beyond its
// largest profile). Jobs and answers go over a MessagePort handed to the worker.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { deserializeError, serializeError, type IsolateOptions, type SerializedError } from '../core/isolate.js';
import type { WorkbookWriter } from './output.js';
import type { XlsxInput } from './xlsx-writer.js';

interface Job {
  id: number;
  input: XlsxInput;
}
interface Answer {
  id: number;
  error?: SerializedError;
}

/** Worker side: writes each workbook sent over `port`, one at a time, until the port closes. */
export async function serveWorkbooks(input: { port: MessagePort }): Promise<void> {
  const { writeXlsx } = await import('./xlsx-writer.js');
  const { port } = input;
  let chain = Promise.resolve();
  await new Promise<void>((resolve) => {
    port.on('message', (job: Job) => {
      chain = chain.then(() =>
        writeXlsx(job.input).then(
          () => port.postMessage({ id: job.id } satisfies Answer),
          (e: unknown) => port.postMessage({ id: job.id, error: serializeError(e) } satisfies Answer),
        ),
      );
    });
    port.on('close', () => void chain.then(() => resolve()));
  });
}

/** Starts `serveWorkbooks` in a worker with `port` (core/isolate.ts runIsolated). */
export type StartWorker = (port: MessagePort, opts: Pick<IsolateOptions, 'transfer'>) => Promise<void>;

interface Served {
  port: MessagePort;
  busy: number;
  /** Settles when the worker has ended; rejects when it died (out of memory, Ctrl-C). */
  ended: Promise<void>;
  pending: Map<number, { resolve: () => void; reject: (e: unknown) => void }>;
}

/**
 * Up to `size` workers, started when no running one is idle; else a workbook goes to the least busy one.
 * A worker that dies fails its own workbooks only; the next workbook starts a new one.
 */
export function workbookWorkers(size: number, start: StartWorker): { write: WorkbookWriter; close: () => Promise<void> } {
  const workers: Served[] = [];
  let next = 0;

  const spawn = (): Served => {
    const { port1, port2 } = new MessageChannel();
    const pending: Served['pending'] = new Map();
    const w: Served = { port: port1, busy: 0, pending, ended: Promise.resolve() };
    port1.on('message', (a: Answer) => {
      const p = pending.get(a.id);
      pending.delete(a.id);
      if (a.error) p?.reject(deserializeError(a.error));
      else p?.resolve();
    });
    w.ended = start(port2, { transfer: [port2] }).then(
      () => undefined,
      (e: unknown) => {
        workers.splice(workers.indexOf(w), 1);
        port1.close();
        for (const p of pending.values()) p.reject(e);
        pending.clear();
      },
    );
    workers.push(w);
    return w;
  };

  const write: WorkbookWriter = (input) => {
    const w = workers.find((x) => x.busy === 0) ?? (workers.length < size ? spawn() : workers.reduce((a, b) => (b.busy < a.busy ? b : a)));
    const id = ++next;
    w.busy++;
    return new Promise<void>((resolve, reject) => {
      w.pending.set(id, { resolve, reject });
      w.port.postMessage({ id, input } satisfies Job);
    }).finally(() => w.busy--);
  };

  const close = async () => {
    const ending = workers.map((w) => w.ended);
    for (const w of workers) w.port.close();
    await Promise.all(ending);
  };
  return { write, close };
}
