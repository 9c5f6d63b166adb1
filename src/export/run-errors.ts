// What a failed export says: which Properties are missing, that nothing was put under a
// final name, and how to continue; the cause's exit status stays.
import path from 'node:path';
import { diskError } from '../core/disk.js';
import { wasMidCommit } from './folder/index.js';
import { ExitCode, MeterdataError, isMeterdataError } from '../core/errors.js';
import { diskText as d } from './texts-disk.js';
import { stopWords } from './run-words.js';
import { runText as t } from './texts-run.js';

/**
 * A write the disk refused while the export ran (a nightly job on a filling disk): one line
 * naming the file and why, and the hint to make room, never an unexpected error with a
 * stack. Exit 1, as for memory: the machine ran out of something the tool needs.
 */
export function diskProblem(e: unknown): MeterdataError | null {
  return diskError(e, { code: 'EXPORT_WRITE_FAILED', notWritten: d.notWritten, notWrittenAnywhere: d.notWrittenAnywhere, hint: d.hint });
}

/** The failure as a MeterdataError where it is one, the disk's or a scratch file gone; else null (a bug: its stack is shown). */
function typed(e: unknown): MeterdataError | null {
  return isMeterdataError(e) ? e : (diskProblem(e) ?? scratchGone(e));
}

/**
 * One of the run's own temporary files (".<name>.partial", the PDF writer's behind it) vanished
 * under it: something else cleaned the --out folder (a second meterdata run whose lock this one
 * did not see, a clean-up job). Said as such, never "a bug".
 */
function scratchGone(e: unknown): MeterdataError | null {
  const { code, path: file } = e as NodeJS.ErrnoException;
  if (code !== 'ENOENT' || typeof file !== 'string' || !/^\..+\.partial(\.|$)/.test(path.basename(file))) return null;
  return new MeterdataError(t.scratchGone({ file }), { code: 'EXPORT_SCRATCH_DAMAGED', exitCode: ExitCode.UNEXPECTED, hint: t.scratchGoneHint, cause: e });
}

/** A failure after every Property was fetched: the files could not be finished. `template`: the run's (its words: run-words.ts). */
export function unfinished(e: unknown, out: string, signal: AbortSignal | undefined, template?: unknown, marked = false): unknown {
  // the commit's renames had begun: the folder holds some of this run's files beside the earlier manifest set aside
  const what = `${t.allFetched} ${wasMidCommit(e) ? t.partlyPut({ out }) : t.notPut({ out })}`;
  // the journal still marked: its renames had begun, and the same command starts over (journal-mark.ts)
  const again = marked ? stopWords(template).fetchAfresh : stopWords(template).finishAgain;
  if (signal?.aborted && (!isMeterdataError(e) || e.exitCode === ExitCode.INTERRUPTED)) {
    return new MeterdataError(`${t.interruptedWriting} ${what}`, { code: 'EXPORT_INTERRUPTED', exitCode: ExitCode.INTERRUPTED, hint: again });
  }
  const err = typed(e);
  if (!err) return e;
  return new MeterdataError(`${err.message} ${what}`, {
    code: err.code,
    exitCode: err.exitCode,
    // the user's to fix first: its hint says to run the command again once fixed, not twice (round 29)
    // (a refusal kept the journal's mark, its take-back failing: its "what was fetched is kept" is no longer true; round 70)
    hint: [err.hint, err.exitCode !== ExitCode.USAGE ? again : marked && t.progressLost].filter(Boolean).join(' '),
    cause: err,
    details: err.details,
  });
}

/** The failure, plus what is missing and how to continue. Keeps the cause's exit status. `template`: the run's (its words). */
export function incomplete(e: unknown, done: number, names: string[], out: string, signal: AbortSignal | undefined, template?: unknown): unknown {
  const words = stopWords(template);
  // every Property fetched (a disk full at the walk's end): no empty list of unfinished ones, "(not finished: )"
  const stopped = done >= names.length ? t.allFetched : words.stoppedAfter({ done, total: names.length, missing: nameList(names.slice(done)) });
  const what = `${stopped} ${t.notPut({ out })}`;
  const again = words.continueAgain;
  if (signal?.aborted && (!isMeterdataError(e) || e.exitCode === ExitCode.INTERRUPTED)) {
    return new MeterdataError(`${t.interrupted} ${what}`, { code: 'EXPORT_INTERRUPTED', exitCode: ExitCode.INTERRUPTED, hint: again });
  }
  const err = typed(e);
  if (!err) return e;
  const final =
    err.exitCode === ExitCode.ACCESS_WITHDRAWN ||
    err.exitCode === ExitCode.NOT_SIGNED_IN ||
    err.exitCode === ExitCode.USAGE ||
    err.code === 'EXPORT_PERIOD_CHANGED';
  const hint = final ? err.hint : [err.hint, again].filter(Boolean).join(' ');
  return new MeterdataError(`${err.message} ${what}`, { code: err.code, exitCode: err.exitCode, hint, cause: err, details: err.details });
}

/** One folder never mixes two periods: the service's last completed month moved on during the run (or since the saved progress). */
export function periodChanged(
  first: { from: string; to: string },
  now: { from: string; to: string },
  property: string,
  unit: string,
  template?: unknown,
): MeterdataError {
  const words = stopWords(template);
  return new MeterdataError(words.periodChanged({ from: now.from, to: now.to, firstFrom: first.from, firstTo: first.to, unit, property }), {
    code: 'EXPORT_PERIOD_CHANGED',
    exitCode: ExitCode.UNAVAILABLE,
    hint: words.periodChangedHint,
    details: { first, now },
  });
}

/** Up to five names in quotes (German „…“ in German), then "and N more". */
export function nameList(names: string[], max = 5): string {
  const shown = names
    .slice(0, max)
    .map((name) => t.quoted({ name }))
    .join(', ');
  return names.length > max ? t.andMore({ shown, n: names.length - max }) : shown;
}
