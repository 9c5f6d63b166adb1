// A file named on the command line (--unit-refs, --template) or one meterdata reads back
// (config.json, the stored sign-in, the manifest in --out, the saved progress, its spools).
// Only a plain file is read, and never past a bound: a FIFO or /dev/stdin would block the
// run, /dev/zero would be read until memory runs out, a file growing meanwhile never ends.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileTexts as ft } from './texts.js';

/** `stat`: the file read (or refused), from the descriptor read through. */
export type BoundedRead = ({ ok: true; bytes: Buffer } | { ok: false; why: 'folder' | 'not-a-file' | 'too-large' }) & { stat: Stats };

/** What opening a socket (ENXIO) or a link that leads round in a circle (ELOOP) says: no file of ours is there. */
const NO_FILE_OF_OURS = new Set(['ENXIO', 'ELOOP']);

/** The file's bytes, or why it is not read; errors of the file system (ENOENT, EACCES) are thrown. */

export function readBounded(file: string, maxBytes: number): BoundedRead {
  let first: Stats;
  try {
    first = statSync(file);
  } catch (e) {
    // a link that leads round in a circle is no file of ours, as a pipe is not (the link itself is the file found)
    // (a loop in a folder above it leaves no file to stat: that is told as what it is, readOwnBytes)
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') return { ok: false, why: 'not-a-file', stat: lstatOr(file, e) };
    throw e;
  }
  if (first.isDirectory()) return { ok: false, why: 'folder', stat: first };
  // a pipe, a device or a socket (which cannot even be opened: ENXIO) is refused as what it is
  if (!first.isFile()) return { ok: false, why: 'not-a-file', stat: first };
  let fd: number;
  try {
    // Opened without blocking (a FIFO without a writer would block here), checked once open.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    // replaced by a socket or a looping link since the stat
    if (NO_FILE_OF_OURS.has((e as NodeJS.ErrnoException).code ?? '')) return { ok: false, why: 'not-a-file', stat: first };
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, why: 'not-a-file', stat };
    if (stat.size > maxBytes) return { ok: false, why: 'too-large', stat };
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const chunk = Buffer.alloc(Math.max(stat.size + 1 - total, 1 << 16));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
    }
    return total > maxBytes ? { ok: false, why: 'too-large', stat } : { ok: true, bytes: Buffer.concat(chunks), stat };
  } finally {
    closeSync(fd);
  }
}

/**
 * Files of our own that a person or another tool may have replaced (config.json, a stored
 * sign-in): a few KB each, so 1 MiB is far above any real one, yet a FIFO, /dev/zero or a
 * huge file put in their place can neither block nor fill the memory.
 */
export const OWN_FILE_MAX = 1 << 20;

/**
 * Such a file's bytes; null when it does not exist; `problem` (in the run's language) when it
 * cannot be one of ours. `maxBytes`: for one that may hold more (the saved progress).
 */
export function readOwnBytes(file: string, maxBytes = OWN_FILE_MAX): { bytes: Buffer } | { problem: string; fileInPath?: string; unreadable?: true } | null {
  let read: BoundedRead;
  try {
    read = readBounded(file, maxBytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    // a file where a folder of the path should be (METERDATA_HOME or the config folder made a file): named, not a crash
    // …or a link that leads nowhere or round in a circle (round 45 F3: a loop above the file, a stack trace)
    const blocker = code === 'ENOTDIR' || code === 'ELOOP' ? pathBlocker(file, code) : null;
    if (blocker !== null) return { problem: blocker.problem, fileInPath: blocker.at };
    // another user's file (a `sudo meterdata login`): told as not readable, not as a disk that could not be written (round 26)
    if (code === 'EACCES' || code === 'EPERM') return { problem: ft.notReadable, unreadable: true };
    throw e;
  }
  if (read.ok) return { bytes: read.bytes };
  return {
    problem: read.why === 'folder' ? ft.isFolder : read.why === 'not-a-file' ? ft.notPlainFile : ft.tooLarge({ mib: Math.round(maxBytes / (1 << 20)) }),
  };
}

const lstatOr = (file: string, e: unknown): Stats => {
  try {
    return lstatSync(file);
  } catch {
    throw e;
  }
};

const isLink = (at: string): boolean => {
  try {
    return lstatSync(at).isSymbolicLink();
  } catch {
    return false;
  }
};

/** The nearest folder of `file`'s path that is a link leading nowhere or round in a circle, if any. */
function brokenLinkInPath(file: string): string | null {
  for (let at = path.dirname(file); at !== path.dirname(at); at = path.dirname(at)) {
    // not there, or below the broken link (ENOENT, ELOOP, ENOTDIR: round 46 M2): look further up
    if (!isLink(at)) continue;
    try {
      statSync(at);
    } catch {
      return at;
    }
  }
  return null;
}

/**
 * What in `file`'s path makes the system's `code` (a file where a folder goes, a link to nowhere or in a circle), in
 * words; null where nothing there does.
 */
export function pathBlocker(file: string, code: unknown): { at: string; problem: string } | null {
  const notFolder = code === 'ENOTDIR' || code === 'EEXIST';
  const at = notFolder ? fileInPath(file) : code === 'ENOENT' || code === 'ELOOP' ? brokenLinkInPath(file) : null;
  if (at === null) return null;
  return { at, problem: notFolder ? ft.fileInPath({ at }) : ft.brokenLink({ at }) };
}

/** The nearest folder of `file`'s path that exists and is no folder, if any. */
function fileInPath(file: string): string | null {
  for (let at = path.dirname(file); at !== path.dirname(at); at = path.dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return at;
    } catch {
      // not there (or above a file): look further up
    }
  }
  return null;
}

/** Such a file's text (see readOwnBytes). */
export function readOwnFile(file: string, maxBytes = OWN_FILE_MAX): { text: string } | { problem: string; fileInPath?: string; unreadable?: true } | null {
  const read = readOwnBytes(file, maxBytes);
  return read && 'bytes' in read ? { text: read.bytes.toString('utf8') } : read;
}

/**
 * A file of ours read as a stream or in pieces (a spool, the workbook before its hash): opened
 * only if it is a plain file, so a FIFO or a device put in its place in a shared folder can
 * neither block the run nor be read forever. Errors of the file system are thrown.
 */
export async function openPlain(file: string): Promise<{ handle: FileHandle } | { problem: string }> {
  return openJudged(file, 0, (st) => (st.isFile() ? null : st.isDirectory() ? ft.isFolder : ft.notPlainFile));
}

/** `file` opened for reading without waiting on a FIFO (and `flags`), kept only where `judge` finds nothing wrong with it. */
async function openJudged(file: string, flags: number, judge: (st: Stats) => string | null): Promise<{ handle: FileHandle } | { problem: string }> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | flags);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (NO_FILE_OF_OURS.has(code)) return { problem: code === 'ELOOP' && flags !== 0 ? ft.isLink : ft.notPlainFile };
    throw e;
  }
  const st = await handle.stat().catch(async (e: unknown) => {
    await handle.close();
    throw e;
  });
  const problem = judge(st);
  if (problem === null) return { handle };
  await handle.close();
  return { problem };
}

/**
 * Why `st` is not a file this process made and still holds under its name: a link, no plain file, another user's,
 * or a file with other names too (a hard link); null when it is. A file of the run put under its temporary name
 * in a shared --out (a forged letter, a link to a file elsewhere) would be hashed and committed as the run's
 * (round 27); one this user may not write it could not have made.
 */
export function notOurs(st: Stats, dir: string): string | null {
  if (st.isSymbolicLink()) return ft.isLink;
  if (!st.isFile()) return st.isDirectory() ? ft.isFolder : ft.notPlainFile;
  if (st.uid !== ownUidIn(dir)) return ft.otherOwner;
  return st.nlink > 1 ? ft.otherNames : null;
}

const ownUids = new Map<string, number>();

/**
 * The owner the files this process makes in `dir` get: its own uid, except where the file system maps it (an NFS
 * share's root_squash makes root's files nobody's), found once per folder with a probe of a leftover's name.
 */
export function ownUidIn(dir: string): number | undefined {
  const known = ownUids.get(dir);
  if (known !== undefined || typeof process.getuid !== 'function') return known ?? process.getuid?.();
  const probe = path.join(dir, `.meterdata-owner.${process.pid}.partial`);
  let uid = process.getuid();
  try {
    const fd = openSync(probe, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
    try {
      uid = fstatSync(fd).uid;
    } finally {
      closeSync(fd);
      unlinkSync(probe);
    }
  } catch {
    // a folder it cannot write: the files it holds were not made here now; the process's uid stands
  }
  ownUids.set(dir, uid);
  return uid;
}

/** A file this run wrote, opened to be read back (a spool, the workbook, a letter): only if it is still its own (notOurs). */
export async function openOwn(file: string): Promise<{ handle: FileHandle } | { problem: string }> {
  return openJudged(file, constants.O_NOFOLLOW ?? 0, (st) => notOurs(st, path.dirname(file)));
}
