// What a failed export says: which Properties are missing, that nothing was put under a
// final name, and how to continue; the cause's exit status stays.
import { ExitCode, MeterdataError, isMeterdataError } from '../core/errors.js';
import { runText as t } from './texts-run.js';

/** A failure after every Property was fetched: the files could not be finished. */
export function unfinished(e: unknown, out: string, signal: AbortSignal | undefined): unknown {
  const what = `${t.allFetched} ${t.notPut({ out })}`;
  const again = t.finishAgain;
  if (signal?.aborted && (!isMeterdataError(e) || e.exitCode === ExitCode.INTERRUPTED)) {
    return new MeterdataError(`${t.interruptedWriting} ${what}`, { code: 'EXPORT_INTERRUPTED', exitCode: ExitCode.INTERRUPTED, hint: again });
  }
  if (!isMeterdataError(e)) return e;
  return new MeterdataError(`${e.message} ${what}`, { code: e.code, exitCode: e.exitCode, hint: [e.hint, again].filter(Boolean).join(' '), cause: e, details: e.details });
}

/** The failure, plus what is missing and how to continue. Keeps the cause's exit status. */
export function incomplete(e: unknown, done: number, names: string[], out: string, signal: AbortSignal | undefined): unknown {
  const what = `${t.stoppedAfter({ done, total: names.length, missing: nameList(names.slice(done)) })} ${t.notPut({ out })}`;
  const again = t.continueAgain;
  if (signal?.aborted && (!isMeterdataError(e) || e.exitCode === ExitCode.INTERRUPTED)) {
    return new MeterdataError(`${t.interrupted} ${what}`, { code: 'EXPORT_INTERRUPTED', exitCode: ExitCode.INTERRUPTED, hint: again });
  }
  if (!isMeterdataError(e)) return e;
  const final = e.exitCode === ExitCode.ACCESS_WITHDRAWN || e.exitCode === ExitCode.NOT_SIGNED_IN || e.exitCode === ExitCode.USAGE || e.code === 'EXPORT_PERIOD_CHANGED';
  const hint = final ? e.hint : [e.hint, again].filter(Boolean).join(' ');
  return new MeterdataError(`${e.message} ${what}`, { code: e.code, exitCode: e.exitCode, hint, cause: e, details: e.details });
}

/** One folder never mixes two periods: the service's last completed month moved on during the run (or since the saved progress). */
export function periodChanged(first: { from: string; to: string }, now: { from: string; to: string }, property: string, unit: string): MeterdataError {
  return new MeterdataError(
    t.periodChanged({ from: now.from, to: now.to, firstFrom: first.from, firstTo: first.to, unit, property }),
    { code: 'EXPORT_PERIOD_CHANGED', exitCode: ExitCode.UNAVAILABLE, hint: t.periodChangedHint, details: { first, now } },
  );
}

/** Up to five names in quotes, then "and N more". */
export function nameList(names: string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => `"${n}"`).join(', ');
  return names.length > max ? t.andMore({ shown, n: names.length - max }) : shown;
}
