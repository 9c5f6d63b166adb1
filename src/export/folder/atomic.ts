// The out folder's files are written under hidden temporary names (".billing.csv.partial"),
// fsynced, and renamed to their final names only once the whole export succeeded, the
// manifest last. A run that fails or is interrupted leaves no file under a final name
// that could be mistaken for a complete export.
import { createHash, type Hash } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { checkReplaceable, renameReplacing, type ReplaceDeps } from '../../core/replace.js';
import { notOurs } from '../../core/bounded-read.js';
import { located } from '../../core/disk.js';
import { isLeftover } from './leftovers.js';
import {
  checkNoFolderAt,
  checkSameFolder,
  copyAside,
  folderId,
  FRESH,
  midCommit,
  notOurFile,
  planted,
  removeLeft,
  syncFolder,
  type FolderId,
} from './planted.js';

const FLUSH_AT = 1 << 16;

/** A place in a BufferedFile (see `mark`). */
export interface FileMark {
  /** Everything written up to the mark, on disk or not yet. */
  bytes: number;
  /** Of those, on disk: the digest covers these. */
  flushed: number;
  /** The rest, still in the buffer. */
  buffered: readonly string[];
  hash: Hash | null;
}

/** Buffered appends to one file; `write` awaits the disk when the buffer is full, so memory stays flat. */
export class BufferedFile {
  private chunks: string[] = [];
  private size = 0;
  /** null for a scratch file: no manifest names its digest (hashing the spools cost the walks' thread CPU for nothing). */
  private hash: Hash | null;
  bytes = 0;

  /** `scratch`: never renamed into place (see AtomicOutput.scratch): no digest, no fsync. */
  constructor(
    private readonly fh: FileHandle,
    readonly path: string,
    private readonly scratch = false,
  ) {
    this.hash = scratch ? null : createHash('sha256');
  }

  async write(text: string): Promise<void> {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.chunks.length === 0) return;
    const buf = Buffer.from(this.chunks.join(''), 'utf8');
    this.chunks = [];
    this.size = 0;
    this.hash?.update(buf);
    // at an explicit offset, not the handle's position: `rewind` truncates behind it
    for (let at = 0; at < buf.length;) {
      const { bytesWritten } = await this.fh.write(buf, at, buf.length - at, this.bytes).catch((e: unknown) => Promise.reject(located(e, this.path)));
      if (bytesWritten <= 0) throw new Error(`${this.path}: the disk took none of ${buf.length - at} bytes`);
      at += bytesWritten;
      this.bytes += bytesWritten;
    }
  }

  /**
   * Where the file is now, to `rewind` to: what is on disk with the digest so far, and what is
   * still buffered. Not flushed: a mark at every Property's start made a small write of every
   * file each time.
   */
  async mark(): Promise<FileMark> {
    const buffered = [...this.chunks];
    return { bytes: this.bytes + Buffer.byteLength(buffered.join(''), 'utf8'), flushed: this.bytes, buffered, hash: this.hash?.copy() ?? null };
  }

  /** Drops everything written after `mark`, as if it never was. */
  async rewind(mark: FileMark): Promise<void> {
    await this.fh.truncate(mark.flushed);
    this.bytes = mark.flushed;
    this.hash = mark.hash?.copy() ?? null; // the mark stays usable for another rewind
    this.chunks = [...mark.buffered];
    this.size = this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /** sha256 of everything written (call after close). */
  digest(): string {
    if (!this.hash) throw new Error(`${this.path}: a scratch file has no digest`);
    return this.hash.copy().digest('hex');
  }

  /**
   * Flushes, fsyncs and closes. A scratch file is not fsynced: it is never renamed into place, a
   * crash leaves it to the next run's clean-up, and what is made from it (the workbook) is fsynced itself.
   */
  async close(): Promise<void> {
    await this.flush();
    if (!this.scratch) await this.fh.sync().catch((e: unknown) => Promise.reject(located(e, this.path))); // a full disk can show only here (NFS, delayed allocation)
    await this.fh.close();
  }

  async discard(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}

export function partialName(finalName: string): string {
  return `.${finalName}.partial`;
}

/**
 * Where commit moves the previous export's manifest while it replaces the files: a crash
 * mid-commit then leaves no valid-looking manifest beside a mix of old and new files, yet
 * checkOutDir still knows the folder holds an export of these arguments.
 */
export function asideName(finalName: string): string {
  return `.${finalName}.replaced`;
}

export class AtomicOutput {
  private readonly pending = new Map<string, string>(); // final name -> partial path
  private readonly open = new Set<BufferedFile>();

  /** The outermost folder `prepare` created (null: `dir` existed), removed again by abort when left empty. */
  private created: string | null = null;
  /** The folder `prepare` made or found: every new file and the commit go there only while it is still that one. */
  home: FolderId | undefined;

  /** `replace`: the platform and file operations, for tests of the Windows behaviour. */
  constructor(
    readonly dir: string,
    private readonly replace: ReplaceDeps = {},
  ) {}

  /** What an AtomicOutput in another thread needs to remove a folder this one created. */
  get createdDir(): string | null {
    return this.created;
  }

  /** Closed temporary files (final name -> temporary path), to commit from another thread (see `adopt`). */
  staged(): [string, string][] {
    for (const f of this.open) throw new Error(`file still open when staged: ${f.path}`);
    return [...this.pending.entries()];
  }

  /** The output of `staged()`, ready to commit or abort here. */
  static adopt(dir: string, pending: [string, string][], created: string | null = null, home?: FolderId): AtomicOutput {
    const out = new AtomicOutput(dir);
    out.created = created;
    out.home = home;
    for (const [name, p] of pending) out.pending.set(name, p);
    return out;
  }

  /** Removes leftovers of an earlier interrupted run (only our own names: ".*.partial" and the PDF writer's, see isLeftover). */
  async prepare(): Promise<void> {
    this.created = (await mkdir(this.dir, { recursive: true })) ?? this.created;
    this.home = folderId(this.dir);
    await this.removePartials();
  }

  /** Only files and links: a folder named like a leftover is not one of ours (round 26: EISDIR, "a bug", on every run). */
  private async removePartials(): Promise<void> {
    for (const e of await readdir(this.dir, { withFileTypes: true })) {
      if (isLeftover(e.name) && !e.isDirectory()) await removeLeft(path.join(this.dir, e.name));
    }
  }

  /**
   * Opens the temporary file behind `finalName`, made here and now: never through a link or into a file someone put
   * under that name since the tidy-up (round 27: a link planted at `.billing.xlsx.partial` had the workbook written
   * over its target, a letter's emptied its target).
   */
  async create(finalName: string): Promise<BufferedFile> {
    const p = path.join(this.dir, partialName(finalName));
    checkSameFolder(this.dir, this.home);
    const fh = await open(p, FRESH | constants.O_WRONLY).catch((e: unknown) => Promise.reject(planted(e, this.dir, p)));
    const f = new BufferedFile(fh, p);
    this.pending.set(finalName, p);
    this.open.add(f);
    return f;
  }

  /** A scratch file that is never renamed into place (spools); removed by commit/abort. */
  async scratch(name: string): Promise<BufferedFile> {
    const p = path.join(this.dir, partialName(name));
    checkSameFolder(this.dir, this.home);
    const fh = await open(p, FRESH | constants.O_RDWR).catch((e: unknown) => Promise.reject(planted(e, this.dir, p)));
    const f = new BufferedFile(fh, p, true);
    this.open.add(f);
    return f;
  }

  async closeFile(f: BufferedFile): Promise<void> {
    this.open.delete(f);
    await f.close();
  }

  /**
   * Renames every pending file into place, `last` (the manifest) after all others. An
   * existing `last` is first moved aside (and that made durable), so from the first rename
   * on, the folder has no manifest until the new one lands; `stale` files are removed once
   * the old one is aside.
   */
  async commit(last: string, stale: readonly string[] = [], beforeFirstRename: () => void | Promise<void> = () => undefined): Promise<string[]> {
    for (const f of this.open) throw new Error(`file still open at commit: ${f.path}`);
    const names = [...this.pending.keys()].filter((n) => n !== last);
    const aside = path.join(this.dir, asideName(last));
    if (this.pending.has(last)) names.push(last);
    // A file another program keeps open (Windows: billing.xlsx in Excel) stops the commit
    // here, before the first rename, so the folder never holds a mix of old and new files.
    await checkReplaceable(
      [...names, ...stale].map((n) => path.join(this.dir, n)),
      this.replace,
    );
    // A folder put under one of the names since the start (a letter's name is known only now) fails here, before any rename.
    checkSameFolder(this.dir, this.home);
    checkNoFolderAt(this.dir, names);
    // Each temporary file still the run's own: not a link, a file of another user's or another file swapped in (round 27).
    for (const n of names) {
      const p = this.pending.get(n)!;
      const why = notOurs(lstatSync(p), this.dir);
      if (why) throw notOurFile(p, why);
    }
    let undo = async (): Promise<unknown> => undefined;
    if (this.pending.has(last)) {
      const moved = await renameReplacing(path.join(this.dir, last), aside, this.replace).then(
        () => true,
        (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
      );
      // a first run has nothing to set aside: its own manifest stands there, so the same arguments may finish it (round 27);
      // an aside an earlier commit left (checkOutDir let this run in by it) stays: an undo never takes it (round 66 B1)
      const kept = !moved && lstatSync(aside, { throwIfNoEntry: false }) !== undefined;
      if (!moved && !kept) await copyAside(this.pending.get(last)!, aside);
      await this.syncDir().catch(() => undefined); // round 71 #3: "a bug", the manifest left aside
      undo = () => (moved ? rename(aside, path.join(this.dir, last)) : kept ? Promise.resolve() : rm(aside, { force: true }));
    }
    // The commit lock still this run's (commit-lock.ts), looked at once the manifest is aside: another run's last look
    // sees that aside from here on, and a run that took the lock over while this one hung before it is seen here (round
    // 65 A1: a look before the aside, then a hang of 10 minutes, and both committed). Nothing renamed yet: undone.
    try {
      await beforeFirstRename();
    } catch (e) {
      await undo().catch(() => undefined);
      throw e;
    }
    // Files of the export being replaced that this one does not write: gone once its manifest is aside.
    // unlink, never rm: a name that became a folder since staleFiles looked (EISDIR; EPERM on macOS) is left, not a crash without a manifest.
    for (const old of stale)
      await unlink(path.join(this.dir, old)).catch((e: NodeJS.ErrnoException) =>
        e.code === 'ENOENT' || e.code === 'EISDIR' || e.code === 'EPERM' ? undefined : Promise.reject(e),
      );
    for (const [i, n] of names.entries())
      await renameReplacing(this.pending.get(n)!, path.join(this.dir, n), this.replace).catch((e: unknown) => Promise.reject(i > 0 ? midCommit(e) : e));
    this.pending.clear();
    await this.syncDir().catch(() => undefined); // all in place (round 70: told "no files were put"); an aside left goes next time
    await rm(aside, { force: true }).catch(() => undefined);
    return names;
  }

  private syncDir(): Promise<void> {
    return syncFolder(this.dir);
  }

  /**
   * Removes every temporary file; final names are never touched. A folder this export created is removed again
   * when nothing is left in it: a refused or failed run leaves no empty folder that looks like an export.
   */
  async abort(): Promise<void> {
    for (const f of this.open) await f.discard();
    this.open.clear();
    for (const p of this.pending.values()) await rm(p, { force: true });
    this.pending.clear();
    await this.removePartials().catch(() => undefined);
    if (this.created) await removeEmptyUpTo(this.dir, this.created);
  }
}

/** rmdir `dir` and its parents up to and including `top`, stopping at the first that is not empty. */
async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return; // not empty (a file of the user's, or a commit that succeeded): keep it
    }
    if (d === top || path.dirname(d) === d) return;
  }
}
