// How the launcher ends the process once the CLI has returned its code.

/** What `endWhenDrained` reads and calls (the process; a test's stand-in). */
export interface Ending {
  stdout: { writableLength: number };
  stderr: { writableLength: number };
  exit(code?: number): void;
  on(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
}

/** The status of a run stopped by a signal (ExitCode.INTERRUPTED; not imported, so the launcher's start loads nothing more). */
const INTERRUPTED = 130;

/**
 * Ends the process, with the code the CLI chose, once stdout and stderr have written everything, checked every
 * `everyMs`: nothing else the CLI left open may keep it alive (round 29: the socket of a proxy agent whose CONNECT was
 * never answered kept a cron job running for ever), and a slow reader of a pipe still gets the whole --json summary
 * (round 30: an exit on a clock cut what Node had not yet written to the pipe). The timer holds nothing open: a
 * process with nothing left ends at once, as before. A signal meanwhile ends it at once (round 31: the CLI's first
 * Ctrl-C or SIGTERM only asks a running command to stop, and none runs any more): with its code where everything
 * was written, else 130, since its output did not reach the reader whole.
 */
export function endWhenDrained(proc: Ending = process, everyMs = 1000): void {
  const drained = () => proc.stdout.writableLength === 0 && proc.stderr.writableLength === 0;
  const timer = setInterval(() => {
    if (drained()) proc.exit();
  }, everyMs);
  timer.unref();
  const stop = () => proc.exit(drained() ? undefined : INTERRUPTED);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) proc.on(signal, stop);
  // Node's teardown after the 'exit' event closes the signal handles, which gives a signal its default action back: a
  // SIGTERM in those milliseconds killed a finished run (143, round 29 F5). Exit from this listener, the last one,
  // goes straight to the end with the handles kept.
  proc.on('exit', (code) => proc.exit(code));
}
