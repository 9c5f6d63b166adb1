// Node's own warnings (a dependency's `new Buffer`, DEP0005, printed by the single executable
// in the middle of the demo's output: its bundled code is no longer under node_modules, where
// Node stays silent about it) are for developers, not for the person running an export. The
// entry point's process (cli.ts, for both launchers) and the export's worker threads drop Node's
// listener that prints them; in-process tests, which hand main() their own Io, keep it.
// meterdata's own errors and findings never travel as process warnings: nothing of its own is hidden.
// A developer who asks Node for them (`--trace-warnings`, also in NODE_OPTIONS) keeps them.

/** Removes Node's printing of process warnings unless the run asked for them with --trace-warnings. */
export function quietNodeWarnings(proc: NodeJS.Process = process): void {
  const flags = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (flags.includes('--trace-warnings')) return;
  proc.removeAllListeners('warning');
}
