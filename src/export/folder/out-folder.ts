// The --out folder before an export writes into it: it can be written, and it holds no other
// export (its manifest, read back as a plain file within a bound) and no foreign files under
// our names; and at the commit, which files of the export it replaces are left over.
import { randomUUID } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { access, open, readlink, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { readOwnFile } from '../../core/bounded-read.js';
import { UsageError } from '../../core/errors.js';
import { asideName, partialName } from './atomic.js';
import { FOLDER_LOCK } from './folder-lock.js';
import { checkNoFolderAt, checkNotOthersIn, lstatQuiet } from './planted.js';
import { listedEntries } from './listed-files.js';
import { folders, listingCut, MAX_LISTED, MONTH_FOLDER, realNear } from './listings.js';
import { BELOW_MAX, exportBelow, MANIFEST, manifestKind, tooMany } from './manifest-kind.js';
import { pathsOf } from './mount-aliases.js';
import { runKind, settingChanges, type RunKind } from '../options/index.js';
import { outText as t } from './texts-folder.js';

export { MANIFEST } from './manifest-kind.js';
/** The summary a portfolio writes into its --out root (portfolio-summary.ts), beside its profiles' folders. */
export const PORTFOLIO_SUMMARY = 'portfolio-summary.csv';

/**
 * Refuses an --out folder that holds another export (its manifest names other arguments,
 * each difference named) or files under our names that no complete export of these
 * arguments wrote. A folder holding a complete export of the same arguments is
 * overwritten (a plain re-run). `defaultOut`: no --out was typed, so the message says
 * that this is the default folder and how to choose another.
 */
export async function checkOutDir(dir: string, identity: Record<string, unknown>, names: string[], opts: { defaultOut?: boolean } = {}): Promise<void> {
  await checkWritable(dir);
  const root = commandRoot(dir, identity);
  // a uvi month's folder made by this run is one more below its root at the commit's look (round 61 W3)
  checkNotOtherCommand(root, root === dir ? 'export' : 'uvi', root !== dir && !lstatSync(dir, { throwIfNoEntry: false }) ? 1 : 0);
  // a single run into a portfolio's root lay beside the profiles' folders, and the portfolio was refused after (round 27)
  if (portfolioRootAt(root)) throw new UsageError(t.portfolioRoot({ dir: root }), t.portfolioRootHint, 'EXPORT_OUT_IN_USE');
  // the manifest's temporary name too: a folder there was refused only after every request (round 29)
  checkNoFolderAt(dir, [...names, ...[...names, MANIFEST].map(partialName)]);
  checkNotOthersIn(dir, [MANIFEST, asideName(MANIFEST), ...names]);
  // A commit that crashed half-way left the previous manifest aside: the folder is still that export's.
  const aside = asideName(MANIFEST);
  const main = readManifest(dir, MANIFEST);
  const [manifest, file] = main ? [main, MANIFEST] : [readManifest(dir, aside), aside];
  if (manifest) {
    if (JSON.stringify(manifest.identity) === JSON.stringify(identity)) return;
    // no manifest of meterdata's at all (garbage, [], {}): said so, not "another export's arguments" to hunt for (round 26)
    const id = manifest.identity;
    if (typeof id !== 'object' || id === null || Array.isArray(id))
      throw new UsageError(t.manifestUnusable({ dir, file, problem: t.notAManifest }), t.foreignFileHint, 'EXPORT_OUT_IN_USE');
    const where = opts.defaultOut ? t.defaultFolder({ dir }) : t.outFolder({ dir });
    const changes = settingChanges(manifest.identity, identity).join('; ');
    throw new UsageError(t.otherArguments({ where, changes }), opts.defaultOut ? t.defaultFolderHint : t.otherArgumentsHint, 'EXPORT_OUT_IN_USE');
  }
  for (const n of names) {
    const exists = await stat(path.join(dir, n)).then(
      () => true,
      () => false,
    );
    if (exists) throw new UsageError(t.foreignFile({ dir, file: n }), t.foreignFileHint, 'EXPORT_OUT_IN_USE');
  }
}

/**
 * The folder an export and the monthly information must not share: a uvi run's folder is
 * <root>/<month>, and its root is where an export must not be; an export's is its --out.
 */
export function commandRoot(dir: string, identity: Record<string, unknown>): string {
  return runKind(identity.template) === 'uvi' ? path.dirname(dir) : dir;
}

/**
 * The --out folder (or, when it does not exist yet, the folder it would be created in)
 * can take our files: checked before any request, and without creating anything, so a
 * refused run leaves no folder behind. `access` alone is not enough (root passes it on
 * most read-only places), so a probe file is created and removed as well.
 */
export async function checkWritable(dir: string): Promise<void> {
  let at = dir;
  for (;;) {
    const st = await stat(at).catch((e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' || e.code === 'ENOTDIR' ? null : Promise.reject(notWritable(dir, at, e)),
    );
    if (st?.isDirectory()) break;
    if (st) {
      throw new UsageError(at === dir ? t.isFile({ dir }) : t.parentIsFile({ dir, at }), t.notWritableHint, 'EXPORT_OUT_NOT_A_FOLDER');
    }
    // A link to nothing: mkdir cannot create it (EEXIST) and would fail only after the requests.
    const target = await readlink(at).catch(() => null);
    if (target !== null) {
      throw new UsageError(t.danglingLink({ dir, at, target }), t.danglingLinkHint, 'EXPORT_OUT_NOT_A_FOLDER');
    }
    if (path.dirname(at) === at) break;
    at = path.dirname(at);
  }
  const probe = probeFile(at);
  try {
    await access(at, constants.W_OK);
    await (await open(probe, 'wx')).close();
    await rm(probe, { force: true });
  } catch (e) {
    throw notWritable(dir, at, e as NodeJS.ErrnoException);
  }
}

/**
 * A name no user file and no earlier run's leftover can have (a pid repeats: every run in a
 * container may be pid 7), ending in ".partial" so that a probe a kill left in --out goes
 * with the next export's scratch files (AtomicOutput.prepare).
 */
export function probeFile(dir: string): string {
  return path.join(dir, `.meterdata-write-test-${process.pid}-${randomUUID()}.partial`);
}

function notWritable(dir: string, at: string, e: NodeJS.ErrnoException): UsageError {
  const why = e.code === 'EROFS' ? t.readOnly : e.code === 'EACCES' || e.code === 'EPERM' ? t.denied : (e.code ?? e.message);
  return new UsageError(at === dir ? t.notWritable({ dir, why }) : t.notWritableIn({ dir, at, why }), t.notWritableHint, 'EXPORT_OUT_NOT_WRITABLE');
}

/**
 * The manifest `name` in `dir`: its content; {} when unreadable (not ours to overwrite), null
 * when absent. Anyone who may write into a shared --out may have put a FIFO, a device or a huge
 * file there: that is refused at once, never waited on or read into memory.
 */
function readManifest(dir: string, name: string): { identity?: unknown } | null {
  try {
    const read = readOwnFile(path.join(dir, name));
    if (read && 'problem' in read) throw new UsageError(t.manifestUnusable({ dir, file: name, problem: read.problem }), t.foreignFileHint, 'EXPORT_OUT_IN_USE');
    return read && (JSON.parse(read.text) as { identity?: unknown });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return {};
  }
}

/**
 * The files the export being replaced listed (checkOutDir let this run in: same arguments)
 * that this one does not write: a template file edited to drop a table or rename a file
 * would otherwise leave the old file beside the new ones. Only plain names in the folder, and
 * only regular files: meterdata writes nothing else, so a listed folder, link or FIFO (an edited
 * or planted manifest) is not its own and is left where it is.
 */
export function staleFiles(dir: string, files: { name: string }[]): string[] {
  const old = readManifest(dir, MANIFEST) ?? readManifest(dir, asideName(MANIFEST));
  // a list meterdata did not write (an entry without a name, a name twice) names nothing of its own to remove
  const listed = listedEntries((old as { files?: unknown } | null)?.files);
  if (!('entries' in listed)) return [];
  const now = new Set([...files.map((f) => f.name), MANIFEST]);
  const names = listed.entries.map((f) => f.name);
  const plain = names.filter((n) => n === path.basename(n) && !/^\.{0,2}$/.test(n) && !n.includes('\\') && !now.has(n));
  return plain.filter((n) => isRegularFile(path.join(dir, n)));
}

function isRegularFile(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false; // not reachable (a listed name under a file, no permission): not ours to remove
  }
}

// An export and the monthly information (`uvi`) never share an --out folder: the uvi's month
// folders nested inside an export's folders, and its portfolio summary replaced the export's
// (nord's row "3 not billed / 111 info" became "0 / 0"). Each is told by its manifest: a uvi
// month folder's identity names a template "uvi-…", an export's any other. Only manifests are
// read (bounded, plain files only); a folder may hold any number of entries, so each listing
// is cut at MAX_ENTRIES.

/** Where under `root` the other command has written: an export's folder (root or its profile folders) for a uvi run; a uvi month folder (<root>/<month> or <root>/<profile>/<month>) for an export. */
function otherRunIn(root: string, kind: RunKind, room: number): string | null {
  if (kind === 'uvi') return exportBelow(root, BELOW_MAX - room);
  const children = folders(root);
  if (listingCut(root)) throw tooMany(root, MAX_LISTED); // a folder of more entries than are listed (round 61 W2)
  for (const child of children) {
    const isMonth = MONTH_FOLDER.test(path.basename(child));
    const months = isMonth ? [child] : folders(child, MONTH_FOLDER);
    if (!isMonth && listingCut(child, MONTH_FOLDER)) throw tooMany(root, MAX_LISTED);
    const found = months.find((d) => manifestKind(d) === 'uvi');
    if (found) return found;
  }
  return null;
}

/**
 * The uvi month folder `root` is or lies in (for an export: lies in; its own manifest is its own
 * check's), null where none: `uvi --month 2025-10 --out Y/2025-11` put October inside November's letters.
 */
function uviMonthAround(root: string, kind: RunKind): string | null {
  for (let d = kind === 'uvi' ? root : path.dirname(root); ; d = path.dirname(d)) {
    if (manifestKind(d) === 'uvi') return d;
    if (path.dirname(d) === d) return null;
  }
}

/**
 * The export folder a uvi root lies in: an export's (its manifest) or an export portfolio's root (its summary beside
 * profile folders holding exports), null where none. `uvi --out <export>/uvi` passed, and the export's next run into
 * its own folder was then refused for good (it finds the month folder below it).
 */
function exportAround(root: string): string | null {
  for (let d = path.dirname(root); ; d = path.dirname(d)) {
    if (manifestKind(d) === 'export') return d;
    if (portfolioAt(d) && listedAbove(root, d).some((c) => manifestKind(c) === 'export')) return d;
    if (path.dirname(d) === d) return null;
  }
}

/**
 * The folders of `d`, a folder at or above `root` (`only` MONTH_FOLDER: its month folders); refused where the listing
 * lost some of them at the cut (round 62 X2: the look passed past them). Month folders come first, so only more than
 * 10,000 months are refused, and a parent of many other folders (a /tmp) only where it is a portfolio's root.
 */
function listedAbove(root: string, d: string, only?: typeof MONTH_FOLDER): string[] {
  const found = folders(d, only);
  if (!listingCut(d, only)) return found;
  // a portfolio's root only by a file that may be a leftover: named, so it can be moved away (round 63 Y5)
  const mark = only ? null : portfolioMark(d);
  const hint = mark ? t.tooManyAboveMarkHint({ file: path.join(d, mark) }) : t.tooManyBelowHint;
  throw new UsageError(t.tooManyAbove({ dir: root, at: d, max: MAX_LISTED }), hint, 'EXPORT_OUT_IN_USE');
}

/** `dir` may be a portfolio's root: its summary is there, or its lock (one under way has none yet: a nested run took it
 * for a plain parent between the first profile's commit and the summary, and both commands committed; round 32 F9, F10). */
function portfolioAt(dir: string): boolean {
  return portfolioMark(dir) !== null;
}

/** The file that makes `dir` a portfolio's root (portfolioAt), null where none. */
function portfolioMark(dir: string): string | null {
  return [PORTFOLIO_SUMMARY, FOLDER_LOCK].find((n) => lstatSync(path.join(dir, n), { throwIfNoEntry: false })?.isFile()) ?? null;
}

/** Whether `dir` is a portfolio's root: its summary beside profile folders holding an export or a uvi month. */
function portfolioRootAt(dir: string): boolean {
  if (!lstatSync(path.join(dir, PORTFOLIO_SUMMARY), { throwIfNoEntry: false })?.isFile()) return false;
  return folders(dir).some((p) => manifestKind(p) === 'export' || folders(p, MONTH_FOLDER).some((m) => manifestKind(m) === 'uvi'));
}

/**
 * The uvi root an export's folder lies in: a folder whose month folders (or, in a uvi portfolio's root, whose profile
 * folders' month folders) hold the monthly information; null where none. `export --out <uvi root>/exports` passed,
 * and the next month's uvi into its own root was refused for good (round 27).
 */
function uviRootAround(root: string): string | null {
  const holdsMonths = (d: string) => listedAbove(root, d, MONTH_FOLDER).some((m) => manifestKind(m) === 'uvi');
  for (let d = path.dirname(root); ; d = path.dirname(d)) {
    if (holdsMonths(d) || (portfolioAt(d) && listedAbove(root, d).some(holdsMonths))) return d;
    if (path.dirname(d) === d) return null;
  }
}

/**
 * Refuses a `kind` run into `root` (its --out, or a portfolio profile's folder) where the other
 * command has written, inside a uvi run's month folder, or (uvi) inside an export's folder
 * (EXPORT_OUT_IN_USE, exit 2): before any request, and again before the commit (finish.ts), so that
 * an export and a uvi run started together into nested folders do not both commit.
 */
export function checkNotOtherCommand(root: string, kind: RunKind, room = 0): void {
  // upward along each path of the folder: its real one and those of other mounts (round 64 Z4: a bind mount)
  for (const real of pathsOf(realNear(root), root)) {
    const month = uviMonthAround(real, kind);
    if (month) throw new UsageError(t.inUviMonth({ dir: root, found: month }), t.inUviMonthHint, 'EXPORT_OUT_IN_USE');
    const exported = kind === 'uvi' ? exportAround(real) : null;
    if (exported) throw new UsageError(t.inExport({ dir: root, found: exported }), t.otherCommandHint, 'EXPORT_OUT_IN_USE');
    const letters = kind === 'export' ? uviRootAround(real) : null;
    if (letters) throw new UsageError(t.inUviRoot({ dir: root, found: letters }), t.otherCommandHint, 'EXPORT_OUT_IN_USE');
  }
  const found = otherRunIn(root, kind, room);
  if (!found) return;
  const message = kind === 'uvi' ? t.holdsExport({ dir: root, found }) : t.holdsUvi({ dir: root, found });
  throw new UsageError(message, t.otherCommandHint, 'EXPORT_OUT_IN_USE');
}

/** A single `kind` run's file in a portfolio's root (export) or month folders (uvi): its manifest (or one set aside), `names`, or
 * their commit's `.<name>.partial`; another month's or a killed run's lay beside the profiles (round 32 F1, F6, F7). */
export function singleRunIn(root: string, kind: RunKind, names: readonly string[]): string | null {
  const files = [MANIFEST, ...names];
  // the commit's temporary names of these files only: a write probe a kill left (also ".partial") is no run's file
  const own = new Set([asideName(MANIFEST), ...files, ...files.map(partialName)]);
  const traces = (dir: string) => {
    // files only: a profile's folder may be named like one (round 33 F2: a profile "billing.csv"); looked up by name,
    // not in a listing cut at 10,000 entries (round 63 Y4: a month of more letters hid its manifest past the cut)
    const hit = [...own].find((n) => {
      const st = lstatQuiet(path.join(dir, n));
      return st !== undefined && !st.isDirectory();
    });
    return hit === undefined ? null : path.join(dir, hit);
  };
  if (kind === 'export') return traces(root);
  for (const month of folders(root, MONTH_FOLDER)) {
    const found = traces(month);
    if (found) return found;
  }
  return null;
}
