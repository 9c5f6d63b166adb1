// The worker side of runIsolated: rebuilds an Io, calls the function, posts its result or
// its error, and lets the thread end on its own (so its output is flushed).
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Io } from './io.js';
import { InterruptedError } from './errors.js';
import { setLanguage } from '../i18n/index.js';
import { serializeError, type WorkerReply, type WorkerRequest } from './isolate.js';
import { quietNodeWarnings } from './node-warnings.js';

// A worker prints Node's warnings on its own stderr, which is the user's.
quietNodeWarnings();

const req = workerData as WorkerRequest;
setLanguage(req.lang);
const controller = new AbortController();
parentPort!.on('message', (m: { abort?: string }) => {
  if (m.abort !== undefined) controller.abort(new InterruptedError(m.abort));
});
// Keeps nothing alive once the function is done.
parentPort!.unref();

const stdout = Object.assign(process.stdout, { isTTY: req.io.stdoutIsTTY, columns: req.io.columns, rows: req.io.rows });
const stderr = Object.assign(process.stderr, { isTTY: req.io.stderrIsTTY });
const io: Io = { stdout, stderr, stdin: Readable.from([]), env: req.io.env, cwd: req.io.cwd, signal: controller.signal };

let reply: WorkerReply;
try {
  const mod = (await import(req.module)) as Record<string, (input: unknown, io: Io) => Promise<unknown>>;
  const fn = mod[req.name];
  if (typeof fn !== 'function') throw new Error(`${req.module} has no function ${req.name}`);
  reply = { ok: true, value: await fn(req.input, io) };
} catch (e) {
  reply = { ok: false, error: serializeError(e) };
}
parentPort!.postMessage(reply);
