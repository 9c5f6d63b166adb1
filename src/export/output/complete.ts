// After the walk: the finishing passes (the workbook), the manifest, then every file renamed
// into place at once; or, on failure, the temporary files removed.
import { pauseAt } from '../../auth/test-hooks.js';
import { AtomicOutput, checkSameFolder, type CommitLock, type FolderId } from '../folder/index.js';
import { MANIFEST, staleFiles } from '../folder/index.js';
import type { FileEntry, OutputFormat } from './format.js';
import { writeWorkbookHere, type WorkbookWriter } from './formats/xlsx/index.js';
import { EXPORT_FORMATS, type FinishInputs, type FinishWriters } from './registry.js';

/** Every file of an export closed under its temporary name, as plain data (it may cross a thread). */
export interface StagedOutput extends FinishInputs {
  dir: string;
  /** final name -> temporary path */
  pending: [string, string][];
  /** The files complete at the walk's end (the CSV files). */
  files: FileEntry[];
  /** The folder this export created, removed again if it fails (see AtomicOutput.abort). */
  created: string | null;
  /** The folder as the run made or found it (AtomicOutput.home): nothing is written or committed once it is another. */
  home?: FolderId;
}

/**
 * A staged output: runs each finishing pass of `registry` (the export's formats; billing.xlsx written
 * by `writers`, or a WorkbookWriter for it alone, by default in this thread), writes the manifest,
 * renames all into place, removes the spools. Aborted `signal` before the commit: throws its reason.
 */
export async function completeOutput(
  staged: StagedOutput,
  manifest: (files: FileEntry[]) => unknown,
  writers: WorkbookWriter | FinishWriters = writeWorkbookHere,
  registry: readonly OutputFormat[] = EXPORT_FORMATS,
  signal?: AbortSignal,
  commit: { held?: () => void; lock?: () => Promise<CommitLock>; starting?: () => Promise<void>; unmark?: () => Promise<void>; lastLook?: () => void } = {},
): Promise<FileEntry[]> {
  const held = commit.held ?? (() => undefined);
  held(); // a run that lost its folder (see Journal.checkHeld) writes not even the workbook's temporary file there
  const atomic = AtomicOutput.adopt(staged.dir, staged.pending, null, staged.home);
  checkSameFolder(staged.dir, staged.home); // before the workbook's writer puts its file there
  const files = [...staged.files];
  const by: Partial<Record<string, (input: never) => Promise<void>>> = typeof writers === 'function' ? { xlsx: writers } : writers;
  for (const f of registry) {
    const input = (staged as unknown as Partial<Record<string, unknown>>)[f.name];
    if (f.finish && input) files.push(...(await f.finish.run(input as never, by[f.name] as never)));
  }
  const m = await atomic.create(MANIFEST);
  await m.write(`${JSON.stringify(manifest(files), null, 2)}\n`);
  await atomic.closeFile(m);
  // the last look and the renames under one lock (its wait ends at a stop): another run's commit between them went unseen (commit-lock.ts)
  const lock = await commit.lock?.();
  try {
    // The last point a Ctrl-C stops the run; the commit, once begun, completes (its renames are quick and final).
    if (signal?.aborted) throw signal.reason;
    held();
    await pauseAt(process.env, 'BEFORE_COMMIT', (line) => process.stderr.write(line));
    // right before the first rename: the journal marked (never resumed from here on: journal-mark.ts), then the lock's
    // look; a failure before any rename takes the mark back, one after keeps it (round 69 H1: a commit complete but for the
    // aside's removal, unmarked, was resumed later over a newer export)
    let renaming = false;
    const marked = async () => {
      await commit.starting?.();
      lock?.check();
      commit.lastLook?.(); // the run's folders still its own (round 71 #2: taken over during the pause, it committed)
      renaming = true;
    };
    await atomic.commit(MANIFEST, staleFiles(staged.dir, files), marked).catch(async (e: unknown) => {
      if (!renaming) await commit.unmark?.().catch(() => undefined); // the commit's own failure is the one told
      throw e;
    });
  } finally {
    // the files are in place: a lock that cannot be removed (a state folder gone read-only) is a dead run's for the next
    await lock?.release().catch(() => undefined); // (round 63 Y3: told as "no files were put under their final names")
  }
  await atomic.abort(); // removes the spools; final files are never touched
  return files;
}

/** Removes a staged output's temporary files; final names are never touched. */
export async function discardOutput(staged: StagedOutput): Promise<void> {
  await AtomicOutput.adopt(staged.dir, staged.pending, staged.created).abort();
}
