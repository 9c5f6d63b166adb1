// One error family for the whole tool. Code below cli.ts throws these; only the
// entry point turns them into a message and an exit status.
import { terminalSafe, terminalSafeLines } from './terminal-text.js';

/** Exit statuses, documented in the README and `meterdata --help`. */
export const ExitCode = {
  OK: 0,
  /** Unexpected failure (a bug, or something the tool cannot classify). */
  UNEXPECTED: 1,
  /** Bad flags, dates, files or arguments. */
  USAGE: 2,
  /** Not signed in, or the connection was revoked / expired / ended. */
  NOT_SIGNED_IN: 3,
  /** The landlord withdrew access to data (property scope changed). */
  ACCESS_WITHDRAWN: 4,
  /** The service is unavailable or rate-limited after retries. */
  UNAVAILABLE: 5,
  /** `export --strict`: the files were written, but values were not billed or need review. */
  NEEDS_REVIEW: 6,
  /** Stopped by Ctrl-C or SIGTERM; a re-run with the same arguments continues (128 + SIGINT, the shell convention). */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface MeterdataErrorOptions {
  /** Stable machine-readable code, e.g. `AUTH_CONNECTION_ENDED`. */
  code: string;
  exitCode: ExitCode;
  /** What to do next, naming a command or flag where there is one. */
  hint?: string;
  cause?: unknown;
  /** Extra structured facts for `--json` output and logs (never secrets). */
  details?: Record<string, unknown>;
}

/** Base class: a failure a person can act on. Printed without a stack trace. */
export class MeterdataError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, opts: MeterdataErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.exitCode = opts.exitCode;
    this.hint = opts.hint;
    this.details = opts.details;
  }
}

/** Bad input from the user: flags, dates, files. */
export class UsageError extends MeterdataError {
  constructor(message: string, hint?: string, code = 'USAGE') {
    super(message, { code, exitCode: ExitCode.USAGE, hint });
  }
}

/** Not signed in, or the connection has ended. */
export class NotSignedInError extends MeterdataError {
  constructor(message: string, opts: { code?: string; hint?: string; cause?: unknown } = {}) {
    super(message, { code: opts.code ?? 'AUTH_NOT_SIGNED_IN', exitCode: ExitCode.NOT_SIGNED_IN, hint: opts.hint, cause: opts.cause });
  }
}

/** The landlord's property scope no longer covers something seen earlier. */
export class AccessWithdrawnError extends MeterdataError {
  constructor(message: string, opts: { code?: string; hint?: string; details?: Record<string, unknown> } = {}) {
    super(message, { code: opts.code ?? 'ACCESS_WITHDRAWN', exitCode: ExitCode.ACCESS_WITHDRAWN, hint: opts.hint, details: opts.details });
  }
}

/** The service is down or kept rate-limiting after every retry. */
export class ServiceUnavailableError extends MeterdataError {
  constructor(message: string, opts: { code?: string; hint?: string; cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, {
      code: opts.code ?? 'SERVICE_UNAVAILABLE',
      exitCode: ExitCode.UNAVAILABLE,
      hint: opts.hint ?? 'Try again later; if it persists, check the service status.',
      cause: opts.cause,
      details: opts.details,
    });
  }
}

/**
 * Ctrl-C or SIGTERM: the reason the entry point aborts io.signal with, so whatever rethrows
 * the abort (a request, the pacer, a worker) ends with 130 and no stack trace.
 */
export class InterruptedError extends MeterdataError {
  constructor(message = 'Interrupted.', opts: { code?: string; hint?: string } = {}) {
    super(message, {
      code: opts.code ?? 'INTERRUPTED',
      exitCode: ExitCode.INTERRUPTED,
      hint: opts.hint ?? 'Nothing was half-written; run the same command again to continue.',
    });
  }
}

export function isMeterdataError(e: unknown): e is MeterdataError {
  return e instanceof MeterdataError;
}

/**
 * Formats an error for stderr: one line for a user error (plus one hint line),
 * the stack for anything unexpected, because that is a bug worth reporting.
 */
export function formatError(e: unknown): { text: string; exitCode: ExitCode } {
  if (isMeterdataError(e)) {
    // Messages quote the server (names, problem details): no control character reaches the terminal.
    const lines = [`meterdata: ${terminalSafe(e.message)}`];
    if (e.hint) lines.push(`  ${terminalSafe(e.hint)}`);
    return { text: lines.join('\n'), exitCode: e.exitCode };
  }
  const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
  return {
    text: `meterdata: unexpected failure (this is a bug; please report it with the lines below)\n${terminalSafeLines(stack)}`,
    exitCode: ExitCode.UNEXPECTED,
  };
}
