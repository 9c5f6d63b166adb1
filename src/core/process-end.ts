// How the launcher ends the process once the CLI has returned its code.
import { writeSync } from 'node:fs';

/** What `endWhenDrained` reads and calls (the process; a test's stand-in). */
export interface Ending {
  stdout: { writableLength: number };
  stderr: { writableLength: number };
  /** The code the CLI returned (set before endWhenDrained is called). */
  exitCode?: number | string | null | undefined;
  exit(code?: number): void;
  on(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: (signal: string) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
}

/** The status of a run stopped by a signal (ExitCode.INTERRUPTED; not imported, so the launcher's start loads nothing more). */
const INTERRUPTED = 130;
/** Findings to review under --strict (ExitCode.NEEDS_REVIEW): the files are complete, as after a success. */
const NEEDS_REVIEW = 6;

/**
 * Ends the process, with the code the CLI chose, once stdout and stderr have written everything, checked every
 * `everyMs`: nothing else the CLI left open may keep it alive (round 29: the socket of a proxy agent whose CONNECT was
 * never answered kept a cron job running for ever), and a slow reader of a pipe still gets the whole --json summary
 * (round 30: an exit on a clock cut what Node had not yet written to the pipe). The timer holds nothing open: a
 * process with nothing left ends at once, as before. A signal meanwhile ends it at once (round 31: the CLI's first
 * Ctrl-C or SIGTERM only asks a running command to stop, and none runs any more): with its code where everything
 * was written or the run had failed (round 35b F1: a failed run's 3 or 5 became 130, "the files are complete",
 * where there were none), else 130, since the output of a run that did its work (0, or 6 under --strict: the files
 * are complete) did not reach the reader whole. `cut` says which, in a line.
 */
export function endWhenDrained(
  proc: Ending = process,
  everyMs = 1000,
  cut?: (p: { signal: string; code: number; complete: boolean; stopped: boolean }) => string,
  stoppedBy?: string,
): void {
  const drained = () => proc.stdout.writableLength === 0 && proc.stderr.writableLength === 0;
  // a run a signal already stopped (`stoppedBy`: the signal the CLI took, whatever code the run then ended with): its
  // person asked it to end, so its output gets two ticks, not as long as a reader does not read (round 37b F4: alive
  // until a second signal; round 38 F7: also after a login or sandbox that ended with 0)
  const giveUpAt = stoppedBy !== undefined || Number(proc.exitCode) === INTERRUPTED ? Date.now() + 2 * everyMs : Infinity;
  const timer = setInterval(() => {
    if (drained()) proc.exit();
    // cut as a signal cuts it, with its line and status (round 39 F1: the run's 0, without a word)
    else if (Date.now() >= giveUpAt) cutShort(stoppedBy ?? 'SIGINT', true);
  }, everyMs);
  timer.unref();
  const stop = (signal: string) => (drained() ? proc.exit(Number(proc.exitCode ?? 0) || undefined) : cutShort(signal));
  // `stopped`: the signal that stopped the run, not one after its end (round 40a F4: "after the command had finished")
  const cutShort = (signal: string, stopped = false) => {
    const code = Number(proc.exitCode ?? 0) || 0;
    const complete = code === 0 || code === NEEDS_REVIEW;
    // what a reader has not read yet is cut (round 32 F4: 130 said nothing; round 36b: a failed portfolio's objects
    // were cut without a word). Written at once, or not at all where stderr itself is full.
    try {
      if (cut) writeSync(2, `${cut({ signal, code, complete, stopped })}\n`);
    } catch {
      // stderr full or gone: the status says it
    }
    proc.exit(complete ? INTERRUPTED : code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) proc.on(signal, stop);
  // Node's teardown after the 'exit' event closes the signal handles, which gives a signal its default action back: a
  // SIGTERM in those milliseconds killed a finished run (143, round 29 F5). Exit from this listener, the last one,
  // goes straight to the end with the handles kept.
  proc.on('exit', (code) => proc.exit(code));
}
