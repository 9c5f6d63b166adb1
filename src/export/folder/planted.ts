// Folders planted in --out under the names a run writes (its files, their temporary names): a rename or open there
// failed with EISDIR after every request, told as "a bug" (round 26). Each is refused, naming the folder.
import { constants, lstatSync, statSync, type Stats } from 'node:fs';
import { copyFile, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { notOurs, ownUidIn } from '../../core/bounded-read.js';
import { ExitCode, MeterdataError, UsageError } from '../../core/errors.js';
import { fileTexts as ft } from '../../core/texts.js';
import { outText as t } from './texts-folder.js';

/**
 * A folder where the run writes a file of that name: its rename at the commit would fail (EISDIR), after every
 * request, leaving the folder between two manifests. Refused before any request, and again before the first
 * rename (AtomicOutput.commit: a letter's name is known only then). A link, a FIFO or a file is replaced whole.
 */
export function checkNoFolderAt(dir: string, names: readonly string[]): void {
  for (const n of names) {
    const st = lstatSync(path.join(dir, n), { throwIfNoEntry: false });
    if (st?.isDirectory()) throw new UsageError(t.nameIsFolder({ dir, file: n }), t.nameIsFolderHint, 'EXPORT_OUT_IN_USE');
  }
}

/** The sticky bit: in such a folder only a file's owner (or the folder's, or root) may rename, replace or remove it. */
const STICKY = 0o1000;

/**
 * Another user's export in a shared folder with the sticky bit (/tmp, a team share): neither its manifest's move
 * aside nor the commit's renames over its files can succeed, so the run failed after every request, exit 1, and
 * "run the same command again" failed the same way (round 28). Refused before any request, naming the file.
 */
export function checkNotOthersIn(dir: string, names: readonly string[]): void {
  // followed: the user's --out may be a link to the shared folder (round 30)
  const st = statQuiet(dir);
  if (!st?.isDirectory() || !(st.mode & STICKY)) return;
  // the uid our files get there: root's own unless a share maps it (root_squash), when the sticky bit holds for it too
  const me = ownUidIn(dir);
  if (me === undefined || me === 0 || st.uid === me) return;
  for (const file of names) {
    const f = lstatQuiet(path.join(dir, file));
    if (f && f.uid !== me) throw new UsageError(t.othersFile({ dir, file }), t.othersFileHint, 'EXPORT_OUT_IN_USE');
  }
}

/** A folder planted under one of our temporary names (a letter's, a spool's: not known before the run): one line naming it. */
export function folderThere(e: unknown, dir: string, file: string): unknown {
  if ((e as NodeJS.ErrnoException).code !== 'EISDIR') return e;
  return nameIsFolder(dir, file);
}

const nameIsFolder = (dir: string, file: string) => new UsageError(t.nameIsFolder({ dir, file: path.basename(file) }), t.nameIsFolderHint, 'EXPORT_OUT_IN_USE');

/** What is at `p` (`follow`: through a link); undefined where nothing can be (a path through a file, a link loop): the folder checks after this name it (round 27). */
export function lstatQuiet(p: string, follow = false): Stats | undefined {
  try {
    return (follow ? statSync : lstatSync)(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const statQuiet = (p: string) => lstatQuiet(p, true);

/**
 * The folders meterdata names and creates below the user's `root` (a portfolio's `<out>/<profile>`, a month's
 * `<out>/<month>`) are folders, never links: a link planted there in a shared --out sent a landlord's billing data
 * and the tenants' letters into a folder of the planter's choice, and its ".partial" files were removed as ours
 * (round 26). The user's own --out may be a link: that is theirs to choose.
 */
export function checkNotLinked(root: string, dir: string): void {
  const below = path.relative(path.resolve(root), path.resolve(dir));
  if (below === '' || below.startsWith('..') || path.isAbsolute(below)) return;
  let at = path.resolve(root);
  for (const part of below.split(path.sep)) {
    at = path.join(at, part);
    const st = lstatQuiet(at);
    if (st?.isSymbolicLink()) throw new UsageError(t.namedFolderLinked({ dir: at }), t.namedFolderLinkedHint, 'EXPORT_OUT_IN_USE');
    // not "--out … is a file" with the hint to choose another --out: the user's --out is fine (round 29)
    if (st && !st.isDirectory()) throw new UsageError(t.namedFolderFile({ dir: at }), t.namedFolderFileHint, 'EXPORT_OUT_NOT_A_FOLDER');
  }
}

/** Created by this open, never followed through a link: O_EXCL refuses whatever is there, a dangling link too. */
export const FRESH = constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export function notOurFile(file: string, why: string): MeterdataError {
  return new MeterdataError(ft.runFileReplaced({ file, why }), { code: 'EXPORT_SCRATCH_DAMAGED', exitCode: ExitCode.UNEXPECTED, hint: ft.runFileReplacedHint });
}

/** A name taken since the tidy-up: a folder as before, anything else as not the run's file. */
export function planted(e: unknown, dir: string, file: string): unknown {
  if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return folderThere(e, dir, file);
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st?.isDirectory() ? nameIsFolder(dir, file) : notOurFile(file, (st && notOurs(st, dir)) ?? ft.appeared);
}

/**
 * Removes a file or link another run left (a leftover, a dead run's lock). In a folder where only a file's owner may
 * remove it (the sticky bit: /tmp, a team share), another user's is told as such, never as "a bug": Node's rm read
 * the refusal as a folder and failed with ENOTDIR (round 27).
 */
export async function removeLeft(file: string): Promise<void> {
  await unlink(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return;
    if (e.code === 'EPERM' || e.code === 'EACCES') throw new UsageError(t.leftByOther({ file }), t.leftByOtherHint({ file }), 'EXPORT_OUT_IN_USE');
    throw e;
  });
}

const stoppedMidCommit = new WeakSet<object>();

/** A failure after the commit's first rename: some files are under their final names already (round 27: told as none). */
export function midCommit(e: unknown): unknown {
  if (typeof e === 'object' && e !== null) stoppedMidCommit.add(e);
  return e;
}

export const wasMidCommit = (e: unknown): boolean => typeof e === 'object' && e !== null && stoppedMidCommit.has(e);

/** The first commit's copy of its own manifest set aside (atomic.ts): made new, never through a link put there (round 28). */
export async function copyAside(from: string, aside: string): Promise<void> {
  await unlink(aside).catch(() => undefined);
  await copyFile(from, aside, constants.COPYFILE_EXCL);
}

/** What a run's folder is: a link or not, and the folder it leads to. */
export interface FolderId {
  link: boolean;
  dev: number;
  ino: number;
}

export function folderId(dir: string): FolderId | undefined {
  const l = lstatQuiet(dir);
  const to = l?.isSymbolicLink() ? statQuiet(dir) : l;
  return l && to ? { link: l.isSymbolicLink(), dev: to.dev, ino: to.ino } : undefined;
}

/**
 * The run's folder is still the one it made or found: in a shared --out, `<out>/<profile>` or `<out>/<month>` moved
 * away mid-run and a link put in its place (to the moved folder or elsewhere) carried the run's files, letters and
 * commit to the link's target, exit 0 (round 29). Checked before each new file and before the commit.
 */
export function checkSameFolder(dir: string, was: FolderId | undefined): void {
  if (!was) return;
  const now = folderId(dir);
  if (now && now.link === was.link && now.dev === was.dev && now.ino === was.ino) return;
  throw new UsageError(t.folderReplaced({ dir }), t.folderReplacedHint({ parent: path.dirname(dir) }), 'EXPORT_OUT_TAKEN_OVER');
}

/** The folder's renames made durable; some file systems cannot fsync a directory (the renames are still atomic). */
export async function syncFolder(dir: string): Promise<void> {
  const dh = await open(dir, 'r');
  await dh.sync().catch(() => undefined);
  await dh.close();
}
