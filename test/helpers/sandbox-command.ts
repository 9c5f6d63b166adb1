// `meterdata sandbox ...` run in-process until the test stops it (stopCommands after each test).
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/core/io.js';

const controllers: AbortController[] = [];

/** Aborts every sandbox command started so far (use in afterEach). */
export function stopCommands(): void {
  controllers.splice(0).forEach((c) => c.abort());
}

/** Starts `meterdata sandbox ...` in-process and resolves once it printed its URL. */
export async function startCommand(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const ac = new AbortController();
  controllers.push(ac);
  const io: Io = { stdout, stderr, stdin: Readable.from([]), env, cwd: process.cwd(), signal: ac.signal };
  const url = new Promise<string>((resolve) =>
    stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) resolve(m[1]!);
    }),
  );
  const exit = main(['sandbox', ...args], io);
  const origin = await Promise.race([url, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${err}`)))]);
  return { origin, ac, exit, output: () => ({ out, err }) };
}
