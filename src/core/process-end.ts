// How the launcher ends the process once the CLI has returned its code.

/** What `endWhenDrained` reads and calls (the process; a test's stand-in). */
export interface Ending {
  stdout: { writableLength: number };
  stderr: { writableLength: number };
  exit(): void;
}

/**
 * Ends the process, with the code the CLI chose, once stdout and stderr have written everything, checked every
 * `everyMs`: nothing else the CLI left open may keep it alive (round 29: the socket of a proxy agent whose CONNECT was
 * never answered kept a cron job running for ever), and a slow reader of a pipe still gets the whole --json summary
 * (round 30: an exit on a clock cut what Node had not yet written to the pipe). The timer holds nothing open: a
 * process with nothing left ends at once, as before.
 */
export function endWhenDrained(proc: Ending = process, everyMs = 1000): void {
  const timer = setInterval(() => {
    if (proc.stdout.writableLength === 0 && proc.stderr.writableLength === 0) proc.exit();
  }, everyMs);
  timer.unref();
}
