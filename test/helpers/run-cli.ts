import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { ContextParts } from '../../src/commands/context.js';
import type { Io } from '../../src/core/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: NodeJS.ProcessEnv;
  /** The system locale the run sees where its env sets no LANG (default en-US, whatever this machine's). */
  locale?: string;
  cwd?: string;
  /** Text offered on stdin; stdin is empty (and ends at once) otherwise. */
  stdin?: string | Readable;
  /** Pretend stdout is a terminal. */
  tty?: boolean;
  signal?: AbortSignal;
  /** Parts of the command context to use instead of the real ones (a connection without a sandbox, a fixed clock). */
  parts?: ContextParts;
}

/** Runs the CLI in-process with captured streams, as the entry point would. */
export async function runCli(argv: string[], opts: RunCliOptions = {}): Promise<CliResult> {
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number; rows?: number };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdout.isTTY = opts.tty ?? false;
  stdout.columns = 100;
  stdout.rows = 30;
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const stdin = typeof opts.stdin === 'string' || opts.stdin === undefined ? Readable.from(opts.stdin ? [opts.stdin] : []) : opts.stdin;
  const io: Io = {
    stdout,
    stderr,
    stdin,
    env: { ...opts.env },
    cwd: opts.cwd ?? process.cwd(),
    signal: opts.signal ?? new AbortController().signal,
    locale: () => opts.locale ?? 'en-US',
  };
  const code = await main(argv, io, opts.parts);
  return { code, stdout: out, stderr: err };
}
