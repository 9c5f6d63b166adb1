// The sub-folders of a folder, for the checks of where the other command has written (out-folder.ts).
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** A folder may hold any number of entries: each listing is cut at this many. */
const MAX_ENTRIES = 10_000;
export const MAX_LISTED = MAX_ENTRIES;
/** A uvi month's folder: <root>/<month>. Such folders come first in a listing, so a cut keeps them (round 62 X2). */
export const MONTH_FOLDER = /^\d{4}-\d{2}$/;

/**
 * The listings of folders unchanged since they were listed: every run checks each folder above its --out (before any
 * request and again before its commit, a portfolio once per profile), and a folder above holds anything the user keeps
 * there (a /tmp of 17,000 entries took 15 ms a listing, 1.5 s of the walks' thread at P = 16). A folder's mtime changes
 * whenever an entry is added, removed or renamed in it; a listing is kept only where that mtime was over 2 s old when it
 * was made, so a change after it cannot share the mtime on a file system that counts in seconds (FAT: 2 s).
 */
const listings = new Map<string, { stamp: string; entries: { name: string; isDir: boolean }[]; cut: Cut }>();
/** Whether a listing lost folders at MAX_ENTRIES: any, or (months) month folders. */
interface Cut {
  folders: boolean;
  months: boolean;
}
/** The folders whose last listing was cut at MAX_ENTRIES: a look for another command's files there cannot be whole. */
const cutLast = new Map<string, Cut>();
/** At most this many entries kept in all (about 2 MB): a run into a folder of many large sub-folders kept them all (round 53 N4). */
const ENTRIES_KEPT = 20_000;
let entriesKept = 0;
const SETTLED_MS = 2_000;

function entriesOf(dir: string): { name: string; isDir: boolean }[] {
  const st = statSync(dir, { bigint: true });
  const stamp = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  const kept = listings.get(dir);
  if (kept?.stamp === stamp) {
    noteCut(dir, kept.cut);
    return kept.entries;
  }
  const all = readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, isDir: e.isDirectory() }));
  // folders first: the looks for another command's files need the folders, and a month of more than MAX_ENTRIES
  // letters cut no folder (round 62 X3: such a uvi root was refused for every later month); month folders before the
  // others: a look upward for a uvi root passed one whose months lay past the cut among 10,000 others (round 62 X2)
  const months = all.filter((e) => e.isDir && MONTH_FOLDER.test(e.name));
  const others = all.filter((e) => e.isDir && !MONTH_FOLDER.test(e.name));
  const cut = { folders: months.length + others.length > MAX_ENTRIES, months: months.length > MAX_ENTRIES };
  noteCut(dir, cut);
  const entries = [...months, ...others, ...all.filter((e) => !e.isDir)].slice(0, MAX_ENTRIES);
  forget(dir);
  if (Date.now() - Number(st.mtimeMs) > SETTLED_MS) {
    if (entriesKept + entries.length > ENTRIES_KEPT) {
      listings.clear();
      entriesKept = 0;
    }
    listings.set(dir, { stamp, entries, cut });
    entriesKept += entries.length;
  }
  return entries;
}

function noteCut(dir: string, cut: Cut): void {
  if (cut.folders) cutLast.set(dir, cut);
  else cutLast.delete(dir);
}

function forget(dir: string): void {
  entriesKept -= listings.get(dir)?.entries.length ?? 0;
  listings.delete(dir);
}

/** The sub-folders of `dir` (not links), at most MAX_ENTRIES; none where it cannot be listed. */
export function folders(dir: string, only?: RegExp): string[] {
  try {
    return entriesOf(dir)
      .filter((e) => e.isDir && (!only || only.test(e.name)))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * Whether the last listing of `dir` held more than MAX_ENTRIES folders, some cut (round 61 W2: a look past them passed
 * in silence); with `only` MONTH_FOLDER, whether month folders were cut (they come first).
 */
export function listingCut(dir: string, only?: typeof MONTH_FOLDER): boolean {
  const cut = cutLast.get(dir);
  return cut !== undefined && (only === MONTH_FOLDER ? cut.months : cut.folders);
}

/** How many entries the kept listings hold (for the tests: the bound on what a run keeps). */
export function entriesKeptNow(): number {
  return entriesKept;
}

/**
 * The real path of `p`, or of its nearest existing ancestor joined with the rest: the looks for the other command's
 * files go from where a folder really is (round 63 Y2: through a link to a uvi month's sub-folder an export passed the
 * look upward from the link's own path, and the month's root was refused for good after).
 */
export function realNear(p: string): string {
  const rest: string[] = [];
  for (let dir = path.resolve(p); ; dir = path.dirname(dir)) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      if (path.dirname(dir) === dir) return path.resolve(p);
      rest.unshift(path.basename(dir));
    }
  }
}
