import type { Readable, Writable } from 'node:stream';

/**
 * Everything a command may touch of the outside process. The entry point passes
 * the real streams; in-process tests (`runCli`) pass captured ones, so no command
 * reads `process.*` directly.
 */
export interface Io {
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on SIGINT, SIGTERM or SIGHUP so long-running commands can stop cleanly. */
  signal: AbortSignal;
  /** Run the export's heavy phases in worker threads with their own heap limits (core/isolate.ts): set by the built CLI's entry point. */
  isolate?: boolean;
  /** The system's locale where no LANG says otherwise (i18n's systemLocale); tests fix it, so a German machine runs them alike. */
  locale?: () => string;
}

export function write(stream: Writable, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}
