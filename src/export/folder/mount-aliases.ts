// The other paths of one folder through the mount table. A bind mount, or a file system mounted twice (a share's
// sub-folder mounted a second time), shows one folder under two paths that no link joins: an export into
// <bind of a uvi month>/sub looked upward only along its own path and committed inside the monthly information's
// folders (round 64 Z4). The looks for the other command's folders (out-folder.ts) run from each path found here.
// Linux only (/proc/self/mountinfo); elsewhere, for a mount whose source this process cannot see, and for a share
// mounted twice as two file systems (SMB), none is found: docs/export.md says so.
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { lstatQuiet } from './planted.js';
import { outText as t } from './texts-folder.js';

export interface Mount {
  /** major:minor of the file system. */
  dev: string;
  /** The folder of that file system shown here ("/" where the whole of it is). */
  root: string;
  /** Where it is shown. */
  at: string;
}

/** A mount table of more lines is read no further (a node's table holds hundreds). */
const MAX_MOUNTS = 100_000;
/** Paths of one folder that lead to different folders above it, at most: each is one more upward look. */
export const MAX_ALIASES = 256;

/** mountinfo's fields escape space, tab, newline and backslash in octal. */
const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n').slice(0, MAX_MOUNTS)) {
    const f = line.split(' ');
    if (f.length < 5 || !/^\d+:\d+$/.test(f[2]!)) continue;
    mounts.push({ dev: f[2]!, root: unescape(f[3]!), at: unescape(f[4]!) });
  }
  return mounts;
}

const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * The other paths of `real` (a real path: realNear) through `mounts`; `idOf` names a folder (device and inode; null
 * where it is none), so that each path is checked to be the same folder (a translation shadowed by a later mount, or a
 * table read while it changed, is no alias). Paths whose looks would pass the same folders are looked at once: two
 * mounts of one root whose mount points stand in one folder of one path (round 68 G4: 64 binds of a whole disk listed
 * first hid the one bind that stood in a uvi month). By its path, not its inode: the looks go up by path, and one
 * folder bound into a uvi month has the month above it on one path only (round 69 H2). `cut`: more than MAX_ALIASES.
 */
export function aliasesIn(real: string, mounts: readonly Mount[], idOf: (p: string) => string | null): { paths: string[]; cut: boolean } {
  // the mount that shows `real`: the deepest mount point above it, the last of those stacked there
  let home: Mount | undefined;
  for (const m of mounts) if (within(real, m.at) && (!home || m.at.length >= home.at.length)) home = m;
  const target = idOf(real);
  if (!home || target === null) return { paths: [], cut: false };
  const inFs = path.posix.join(home.root, path.posix.relative(home.at, real));
  const seen = new Set([`${home.root}\0${path.posix.dirname(home.at)}`]);
  const paths: string[] = [];
  for (const m of mounts) {
    if (m.dev !== home.dev || !within(inFs, m.root)) continue;
    const key = `${m.root}\0${path.posix.dirname(m.at)}`;
    if (seen.has(key)) continue;
    const alias = path.posix.join(m.at, path.posix.relative(m.root, inFs));
    if (alias === real || idOf(alias) !== target) continue;
    seen.add(key);
    if (paths.length === MAX_ALIASES) return { paths, cut: true };
    paths.push(alias);
  }
  return { paths, cut: false };
}

function folderId(p: string): string | null {
  try {
    const st = lstatSync(p, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * `real` and its other paths on this machine's mount table (just `real` where there is none to read); refused where
 * they are more than MAX_ALIASES (`dir`: --out, named in the refusal).
 */
export function pathsOf(real: string, dir: string): string[] {
  if (process.platform !== 'linux') return [real];
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [real];
  }
  // a folder the run is still to make: the paths of the nearest one there, and the rest of the way
  let there = real;
  while (!lstatQuiet(there) && path.dirname(there) !== there) there = path.dirname(there);
  const rest = path.relative(there, real);
  const { paths, cut } = aliasesIn(there, parseMountinfo(text), folderId);
  if (cut) throw new UsageError(t.tooManyPaths({ dir, max: MAX_ALIASES }), t.tooManyPathsHint, 'EXPORT_OUT_IN_USE');
  return [real, ...paths.map((a) => path.join(a, rest))];
}
