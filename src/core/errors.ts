// One error family for the whole tool. Code below cli.ts throws these; only the
// entry point turns them into a message and an exit status.
import { ExitCode, type ErrorCode } from './codes.js';
import { terminalSafe, terminalSafeLines } from './terminal-text.js';
import { coreTexts as t } from './texts.js';

export { ExitCode, type ErrorCode } from './codes.js';

export interface MeterdataErrorOptions {
  /** Stable machine-readable code from the one table (src/core/codes.ts), e.g. `AUTH_CONNECTION_ENDED`. */
  code: ErrorCode;
  exitCode: ExitCode;
  /** What to do next, naming a command or flag where there is one. */
  hint?: string;
  cause?: unknown;
  /** Extra structured facts for `--json` output and logs (never secrets). */
  details?: Record<string, unknown>;
}

/** Base class: a failure a person can act on. Printed without a stack trace. */
export class MeterdataError extends Error {
  readonly code: ErrorCode;
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
  constructor(message: string, hint?: string, code: ErrorCode = 'USAGE') {
    super(message, { code, exitCode: ExitCode.USAGE, hint });
  }
}

/** Not signed in, or the connection has ended. */
export class NotSignedInError extends MeterdataError {
  constructor(message: string, opts: { code?: ErrorCode; hint?: string; cause?: unknown } = {}) {
    super(message, { code: opts.code ?? 'AUTH_NOT_SIGNED_IN', exitCode: ExitCode.NOT_SIGNED_IN, hint: opts.hint, cause: opts.cause });
  }
}

/** The landlord's property scope no longer covers something seen earlier. */
export class AccessWithdrawnError extends MeterdataError {
  constructor(message: string, opts: { code?: ErrorCode; hint?: string; details?: Record<string, unknown> } = {}) {
    super(message, { code: opts.code ?? 'ACCESS_WITHDRAWN', exitCode: ExitCode.ACCESS_WITHDRAWN, hint: opts.hint, details: opts.details });
  }
}

/** The service is down or kept rate-limiting after every retry. */
export class ServiceUnavailableError extends MeterdataError {
  constructor(message: string, opts: { code?: ErrorCode; hint?: string; cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, {
      code: opts.code ?? 'SERVICE_UNAVAILABLE',
      exitCode: ExitCode.UNAVAILABLE,
      hint: opts.hint ?? t.unavailableHint,
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
  constructor(message: string = t.interrupted, opts: { code?: ErrorCode; hint?: string } = {}) {
    super(message, {
      code: opts.code ?? 'INTERRUPTED',
      exitCode: ExitCode.INTERRUPTED,
      hint: opts.hint ?? t.interruptedHint,
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
    text: `meterdata: ${t.unexpected}\n${terminalSafeLines(stack)}`,
    exitCode: ExitCode.UNEXPECTED,
  };
}
