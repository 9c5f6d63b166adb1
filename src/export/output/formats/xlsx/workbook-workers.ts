// Worker threads that stay for the portfolio export's workbooks: each writes the
// billing.xlsx of one profile after another, so Node's start-up, loading exceljs and
// warming up its code are paid once per worker, not once per workbook (a third of a
// workbook's CPU time, and the workbooks are what a large portfolio spends beyond its
// largest profile). While the walks go on, each worker also renders the table rows of
// the profiles given to it as their Properties finish (xlsx-fragments.ts), on a core the
// walks leave idle; the workbook at the end then mostly copies them. Jobs and answers go
// over a MessagePort handed to the worker.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { deserializeError, serializeError, type IsolateOptions, type SerializedError } from '../../../../core/isolate.js';
import type { RenderAhead, RenderSpec, WorkbookWriter } from './types.js';
import type { TableName } from '../../tables.js';
import type { SheetFragment } from './xlsx-fragments.js';
import type { XlsxInput } from './xlsx-writer.js';

interface Job {
  id: number;
  input: XlsxInput;
}
interface Ahead {
  ahead: RenderSpec;
  upTo: Partial<Record<TableName, number>>;
}
interface Answer {
  id: number;
  error?: SerializedError;
}

/** A workbook's rows rendered so far; `failed`: a render failed, so the workbook renders all of them itself. */
interface Rendered {
  fragments: Map<TableName, SheetFragment>;
  chain: Promise<void>;
  failed: boolean;
}

/**
 * Worker side: renders rows ahead as told and writes each workbook sent over `port`, one at
 * a time, until the port closes. A workbook waits for its own renders; renders of other
 * profiles go on beside it.
 */
export async function serveWorkbooks(input: { port: MessagePort }): Promise<void> {
  const [{ writeXlsxAhead, tableSheets }, { SheetFragment }, { StyleTable }] = await Promise.all([
    import('./xlsx-writer.js'),
    import('./xlsx-fragments.js'),
    import('./xlsx-rows.js'),
  ]);
  const { port } = input;
  const rendered = new Map<string, Rendered>();
  let chain = Promise.resolve();

  // keyed by run too: an earlier run in the same folder is never taken for this one
  const key = (x: { file: string; run?: string | undefined }) => `${x.file}\u0000${x.run ?? ''}`;
  const renderAhead = ({ ahead: spec, upTo }: Ahead) => {
    let r = rendered.get(key(spec));
    if (!r) {
      const styles = new StyleTable(spec.template.dateFormat);
      r = { fragments: new Map(tableSheets(spec).map((t) => [t.table, new SheetFragment(t, spec.template, styles)])), chain: Promise.resolve(), failed: false };
      rendered.set(key(spec), r);
    }
    const own = r;
    own.chain = own.chain.then(async () => {
      if (own.failed) return;
      try {
        for (const [table, f] of own.fragments) if (upTo[table] !== undefined) await f.advance(upTo[table]);
      } catch {
        own.failed = true; // an aborted export removed its files, or the disk failed: the workbook starts over
      }
    });
  };

  const write = async (job: Job) => {
    const r = rendered.get(key(job.input));
    rendered.delete(key(job.input));
    if (r) await r.chain;
    await writeXlsxAhead(job.input, r && !r.failed ? r.fragments : undefined);
  };

  await new Promise<void>((resolve) => {
    port.on('message', (m: Job | Ahead) => {
      if ('ahead' in m) return renderAhead(m);
      chain = chain.then(() =>
        write(m).then(
          () => port.postMessage({ id: m.id } satisfies Answer),
          (e: unknown) => port.postMessage({ id: m.id, error: serializeError(e) } satisfies Answer),
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
  /** Profiles whose rows it renders ahead. */
  profiles: number;
  /** Settles when the worker has ended; rejects when it died (out of memory, Ctrl-C). */
  ended: Promise<void>;
  pending: Map<number, { resolve: () => void; reject: (e: unknown) => void }>;
}

/**
 * Up to `size` workers, started when no running one is idle; else a workbook goes to the least busy one.
 * A worker that dies fails its own workbooks only; the next workbook starts a new one.
 */
export function workbookWorkers(size: number, start: StartWorker): { write: WorkbookWriter; ahead: RenderAhead; close: () => Promise<void> } {
  const workers: Served[] = [];
  /** billing.xlsx path -> the worker rendering its rows ahead (the workbook goes there too). */
  const renderer = new Map<string, Served>();
  let next = 0;

  const spawn = (): Served => {
    const { port1, port2 } = new MessageChannel();
    const pending: Served['pending'] = new Map();
    const w: Served = { port: port1, busy: 0, profiles: 0, pending, ended: Promise.resolve() };
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

  /** Profiles are spread over the workers as their first rows come, a new worker while fewer than `size` run. */
  const ahead: RenderAhead = (spec, upTo) => {
    let w = renderer.get(spec.file);
    if (!w || !workers.includes(w)) {
      w = workers.length < size ? spawn() : workers.reduce((a, b) => (b.profiles < a.profiles ? b : a));
      w.profiles++;
      renderer.set(spec.file, w);
    }
    w.port.postMessage({ ahead: spec, upTo } satisfies Ahead);
  };

  const write: WorkbookWriter = (input) => {
    const own = renderer.get(input.file);
    renderer.delete(input.file);
    if (own) own.profiles--;
    // a worker that died took its renders along: another one writes the workbook from the spools
    const w =
      own && workers.includes(own)
        ? own
        : (workers.find((x) => x.busy === 0) ?? (workers.length < size ? spawn() : workers.reduce((a, b) => (b.busy < a.busy ? b : a))));
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
  return { write, ahead, close };
}
