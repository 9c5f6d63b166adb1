// The journal's commit mark. Written into the journal right before the first rename of its commit (after the commit's
// own checks: a refusal there, a file open in Excel, keeps what was fetched; round 68 G1): a journal left with it (its
// removal failed, or a kill came during or after the renames) is never resumed. Resumed, it committed its old answers
// again as a fresh export, over a newer export of another host, into a folder made anew after the finished one was
// moved away, and with SOURCE_DATE_EPOCH no date could tell it from a run stopped before its commit (round 65 A5,
// round 67 F1-F3). Taken back only where the commit failed before it changed the folder (round 69 H1).
import { lstatSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { readOwnFile } from '../../core/bounded-read.js';
import { UsageError } from '../../core/errors.js';
import { lstatQuiet } from '../folder/index.js';
import { runText as t } from '../texts-run.js';

const COMMITTING = 'committing.json';

/** Whether the journal in `dir` is marked: only a plain file counts (a folder or a link there is refused at the mark). */
export function isMarked(dir: string): boolean {
  return lstatQuiet(path.join(dir, COMMITTING))?.isFile() === true;
}

/** Marks the journal in `dir` as committing, as `by` (one commit's own id), written and synced. */
export async function markCommitting(dir: string, by: string): Promise<void> {
  const file = path.join(dir, COMMITTING);
  const there = lstatQuiet(file);
  // a folder or a link planted there is not meterdata's to remove (round 68 G3: EISDIR, "a bug"; round 69 H4)
  if (there && !there.isFile()) throw new UsageError(t.markInWay({ file }), t.markInWayHint({ file }), 'EXPORT_OUT_IN_USE');
  // only under the journal's lock: one fixed temporary name
  await writeFileAtomic(file, JSON.stringify({ at: new Date().toISOString(), by }), { temp: 'fixed' });
}

/**
 * Takes back the mark `by` wrote: the same command then continues from the journal. Another run's mark (one that took
 * the journal over; round 69 H3) stays. Whether the journal is left unmarked.
 */
export async function unmark(dir: string, by: string): Promise<boolean> {
  const file = path.join(dir, COMMITTING);
  let there: ReturnType<typeof lstatSync>;
  try {
    there = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return false; // not to be looked at now (EIO): kept, the same command starts over (round 72 #2)
  }
  if (!there?.isFile()) return true; // nothing, or a folder or link refused at the mark (round 71 #1)
  let read: ReturnType<typeof readOwnFile>;
  try {
    read = readOwnFile(file, 4096);
  } catch {
    return false; // not readable now (EMFILE, EIO): kept, the same command starts over
  }
  if (read === null) return true;
  if ('problem' in read || markOf(read.text) !== by) return false;
  return rm(file).then(
    () => true,
    () => false,
  );
}

/** Who wrote a mark; null where it is no mark of ours. */
function markOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { by?: unknown } | null)?.by ?? null;
  } catch {
    return null;
  }
}
