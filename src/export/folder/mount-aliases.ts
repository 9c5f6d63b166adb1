// The other paths of one folder through the mount table. A bind mount, or a file system mounted twice (a share's
// sub-folder mounted a second time), shows one folder under two paths that no link joins: an export into
// <bind of a uvi month>/sub looked upward only along its own path and committed inside the monthly information's
// folders (round 64 Z4). The looks for the other command's folders (out-folder.ts) run from each path found here.
// Linux only (/proc/self/mountinfo); elsewhere, and for a share mounted twice as two file systems (SMB), none is
// found: docs/export.md says so.
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lstatQuiet } from './planted.js';

export interface Mount {
  /** major:minor of the file system. */
  dev: string;
  /** The folder of that file system shown here ("/" where the whole of it is). */
  root: string;
  /** Where it is shown. */
  at: string;
}

/** A mount table of more lines is read no further (a node's table holds hundreds); a folder has at most this many other paths. */
const MAX_MOUNTS = 100_000;
const MAX_ALIASES = 64;

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
 * The other paths of `real` (a real path: realNear) through `mounts`, each checked to be the same folder (`same`):
 * a translation shadowed by a later mount, or a table read while it changed, is no alias.
 */
export function aliasesIn(real: string, mounts: readonly Mount[], same: (a: string, b: string) => boolean): string[] {
  // the mount that shows `real`: the deepest mount point above it, the last of those stacked there
  let home: Mount | undefined;
  for (const m of mounts) if (within(real, m.at) && (!home || m.at.length >= home.at.length)) home = m;
  if (!home) return [];
  const inFs = path.posix.join(home.root, path.posix.relative(home.at, real));
  const found: string[] = [];
  // the mounts showing most of the file system first: their paths reach the most folders above (round 67 F4: the one
  // path that showed a uvi month came after 16 binds of a folder inside it, and was never looked at)
  const widest = mounts.filter((m) => m.dev === home.dev).sort((a, b) => a.root.length - b.root.length);
  for (const m of widest) {
    if (!within(inFs, m.root)) continue;
    const alias = path.posix.join(m.at, path.posix.relative(m.root, inFs));
    if (alias === real || found.includes(alias) || !same(alias, real)) continue;
    found.push(alias);
    if (found.length >= MAX_ALIASES) break;
  }
  return found;
}

function sameFolder(a: string, b: string): boolean {
  try {
    const [x, y] = [lstatSync(a, { bigint: true }), lstatSync(b, { bigint: true })];
    return x.isDirectory() && x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** `real` and its other paths on this machine's mount table (just `real` where there is none to read). */
export function pathsOf(real: string): string[] {
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
  return [real, ...aliasesIn(there, parseMountinfo(text), sameFolder).map((a) => path.join(a, rest))];
}
