// Ending a wait at Ctrl-C where the work itself cannot be given the signal (openid-client's revocation takes none).

/**
 * `start()`'s result, or `signal`'s reason as soon as it aborts (the InterruptedError the entry point aborts with): a
 * wait of up to 30 s for an answer that may never come ends at once (round 35b F2, round 36b F3). Nothing is started
 * once the signal has aborted (round 36b F8: a request went out after "stopped", and its failure, unhandled, made
 * the exit 1); what was started goes on unobserved, and the caller says that its outcome is unknown.
 */
export async function unlessAborted<T>(start: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal?.aborted) throw signal.reason;
  const work = start();
  if (!signal) return work;
  work.catch(() => {}); // settled after the stop: nobody waits for it any more
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Whether `e` is the reason `signal` was aborted with: the wait was stopped, not failed. */
export const stoppedBy = (e: unknown, signal: AbortSignal | undefined): boolean => signal?.aborted === true && e === signal.reason;

/**
 * `signal`, aborting `ms` after it does: for a short step that should still finish after a stop, if it can at once
 * (login storing tokens already issued), while a wait on another process is not prolonged beyond `ms`.
 */
export function withGrace(signal: AbortSignal, ms: number): AbortSignal {
  const late = new AbortController();
  const abort = () => void setTimeout(() => late.abort(signal.reason), ms).unref();
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return late.signal;
}
