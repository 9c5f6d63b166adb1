// One error family for the whole tool. Code below cli.ts throws these; only the
// entry point turns them into a message and an exit status.
import { ExitCode, type ErrorCode } from './codes.js';
import { terminalSafe, terminalSafeJson, terminalSafeLines } from './terminal-text.js';
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
 * Ctrl-C, SIGTERM or SIGHUP: the reason the entry point aborts io.signal with, so whatever rethrows
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

/** What a script reads of a failure: the exit status and the error's stable code, message and hint. */
export interface Failure {
  exitCode: number;
  error: { code: string; message: string; hint?: string };
  /** An unclassified error's stack, for the report of the bug (never printed as JSON). */
  stack?: string;
}

/** A failure as `--json` and the portfolio's summary tell it; an unclassified error is a bug (exit 1). */
export function describeError(e: unknown): Failure {
  if (isMeterdataError(e)) return { exitCode: e.exitCode, error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) } };
  const err = e instanceof Error ? e : new Error(String(e));
  return { exitCode: ExitCode.UNEXPECTED, error: { code: 'UNEXPECTED', message: t.bug({ message: err.message }) }, ...(err.stack ? { stack: err.stack } : {}) };
}

/**
 * The object `--json` prints for a failed command, the keys of the portfolio's failed profile:
 * `{outcome: "failed", exit_code, error{code, message, hint}}`, one line, with the control
 * characters a message may quote from the server escaped.
 */
export function failureJson(f: Failure): string {
  return terminalSafeJson({ outcome: 'failed', exit_code: f.exitCode, error: f.error });
}

// An error whose facts a command already printed in its own --json object (export --strict's
// summary): the entry point does not print them a second time.
const inJsonObject = new WeakSet<MeterdataError>();

export function toldInJson<E extends MeterdataError>(e: E): E {
  inJsonObject.add(e);
  return e;
}

export const wasToldInJson = (e: unknown): boolean => e instanceof MeterdataError && inJsonObject.has(e);
