// Resume support. Under dirs().state/exports/<hash of profile and arguments>/ the export
// keeps what it fetched, one gzip'd JSON file per completed Property, plus meta.json with
// the identity it was fetched under (tenant, property scope), the Property list and the
// time of the first start. A re-run with the same arguments re-checks /whoami against it
// and fetches only the Properties not yet there; the files are then rebuilt from the
// journal, so they are byte-identical to an uninterrupted run. Removed after success.
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { readOwnBytes, readOwnFile } from '../../core/bounded-read.js';
import { writeFileAtomic } from '../../core/atomic-file.js';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { UsageError } from '../../core/errors.js';
import type { Property, WhoAmI } from '../../api/types.js';
import { JournalDamage, readAnswers, readMeta, type JournalMeta } from './journal-check.js';
import { commandRoot, holdsLock, keepTouching, lockGone, releaseLock, removeCreated, stopTouching, takeLock } from '../folder/index.js';
import { lockFolders, takenOver, type InsideLock, type OutLocks } from './out-locks.js';
import { gzipAnswers } from './journal-json.js';
import { isMarked } from './journal-mark.js';
import { runText as t } from '../texts-run.js';
import { stopWords } from '../run-words.js';

export type { JournalMeta };
export { lockOutFolder, takenOver, takenOverReason, type InsideLock } from './out-locks.js';
export { answersJson } from './journal-json.js';
export { LOCK_DAMAGED_STALE_MS, outLockFile } from '../folder/index.js';

import type { PropertyAnswers } from '../../api/walk.js';

export function journalKey(identity: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

/** A journal file is written only under the journal's lock: one fixed temporary name, which a refusal of the disk names. */
const writeAtomic = (file: string, data: string | Buffer): Promise<void> => writeFileAtomic(file, data, { temp: 'fixed' });

function sameScope(a: WhoAmI['property_scope'], b: WhoAmI['property_scope']): boolean {
  const norm = (s: WhoAmI['property_scope']) => (s === 'all' ? 'all' : JSON.stringify([...s].sort()));
  return norm(a) === norm(b);
}

/**
 * A journal whose lock outlived the thread that opened it: the export's walk hands it to
 * the thread that writes the workbook and commits the files, which releases it.
 */
export interface JournalHandle {
  dir: string;
  lockFile: string;
  /** The --out folder's lock (see outLockFile). */
  outLockFile: string;
  /** A uvi run's lock of its --out root (see commandRoot), null for an export. */
  rootLockFile: string | null;
  /** The locks inside those folders, and the folder each created. */
  insideLocks: InsideLock[];
}

export class Journal {
  private constructor(
    readonly dir: string,
    public meta: JournalMeta,
    /** Why an earlier journal was dropped, for the user; null when none was. */
    readonly restartReason: string | null,
    readonly resumed: boolean,
    private readonly unlock: () => Promise<void>,
    private readonly outLocks: OutLocks,
  ) {}

  /**
   * Opens the journal of `identity`, resuming it when it was made under the same tenant
   * and property scope; otherwise starts a new one (and says why the old one was dropped).
   * `onTakenOver` is told when another run took one of its folders over (see keepTouching).
   */
  static async open(
    stateDir: string,
    identity: Record<string, unknown>,
    who: WhoAmI,
    now: Date,
    out: string,
    onTakenOver?: (e: UsageError) => void,
  ): Promise<Journal> {
    const dir = path.join(stateDir, 'exports', journalKey(identity));
    // The journal first: a second run with the same arguments is told just that.
    const unlockJournal = await takeLock(
      `${dir}.lock`,
      new UsageError(stopWords(identity.template).running, t.runningHint({ lock: `${dir}.lock` }), 'EXPORT_ALREADY_RUNNING'),
    );
    let folders: Awaited<ReturnType<typeof lockFolders>>;
    try {
      folders = await lockFolders(stateDir, out, commandRoot(out, identity), onTakenOver);
    } catch (e) {
      await unlockJournal();
      throw e;
    }
    const outLock = folders.files;
    const unlock = () => folders.unlock().finally(unlockJournal);
    let reason: string | null = null;
    const metaFile = path.join(dir, 'meta.json');
    try {
      // a FIFO or a device in its place is damage, not a wait
      const read = readOwnFile(metaFile, Journal.META_MAX);
      const meta = read === null ? null : 'problem' in read ? Journal.damaged(read.problem) : readMeta(read.text);
      if (meta === null) reason = null;
      else if (meta === 'other-version' || JSON.stringify(meta.identity) !== JSON.stringify(identity)) reason = t.otherVersion;
      else if (meta.tenantId !== who.tenant_id) reason = t.otherTenant({ now: who.tenant_name, before: meta.tenantName });
      else if (!sameScope(meta.propertyScope, who.property_scope)) reason = t.otherScope;
      else if (isMarked(dir)) reason = t.committedBefore({ started: meta.startedAt, out });
      else return new Journal(dir, meta, null, true, unlock, outLock);
    } catch (e) {
      // Damaged progress is only a cache of answers: starting over is always safe, and says which file it was.
      if (e instanceof JournalDamage) reason = t.damaged({ file: metaFile, why: e.message });
      else {
        const { code, message } = e as NodeJS.ErrnoException;
        if (code !== 'ENOENT') reason = t.unreadable({ file: metaFile, why: code ?? message });
      }
    }
    const meta: JournalMeta = {
      version: 2, // 2: the commit mark (journal-mark.ts); a journal of 1 may be one left after its commit (round 68 G2)
      identity,
      startedAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      tenantId: who.tenant_id,
      tenantName: who.tenant_name,
      propertyScope: who.property_scope,
      properties: null,
    };
    const j = new Journal(dir, meta, reason, false, unlock, outLock);
    try {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await j.saveMeta();
    } catch (e) {
      // A full disk: the locks go, or a later export of this process (browse's) would be told another one runs
      await j.close();
      throw e;
    }
    return j;
  }

  private static damaged(why: string): never {
    throw new JournalDamage(why);
  }

  private async saveMeta(): Promise<void> {
    await writeAtomic(path.join(this.dir, 'meta.json'), JSON.stringify(this.meta));
  }

  async setProperties(properties: Property[]): Promise<void> {
    this.meta.properties = properties;
    await this.saveMeta();
  }

  /**
   * A saved file is unpacked into at most this much: the service's answers for one Property
   * (each answer capped at 32 MiB) stay far below it, and a damaged or planted file must not
   * fill the memory (a few KB of gzip can unpack to gigabytes).
   */
  static readonly UNPACKED_MAX = 512 * 1024 * 1024;
  /** meta.json is read no further: it holds the Property list, a few hundred bytes each. */
  static readonly META_MAX = 64 * 1024 * 1024;

  private file(index: number): string {
    return path.join(this.dir, `property-${String(index).padStart(6, '0')}.json.gz`);
  }

  /**
   * The saved answers of the Property at `index`, or null when it is to be fetched: not
   * fetched yet, or damaged (said through `onDamaged`, naming the file and why).
   */
  async load(index: number, expected: Pick<Property, 'id'>, onDamaged: (file: string, why: string) => void): Promise<PropertyAnswers | null> {
    const file = this.file(index);
    // the answers fetched again could not be saved over it (EISDIR after every request, "a bug"; round 27)
    if (lstatSync(file, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(t.answersFolder({ file }), t.answersFolderHint({ file }), 'EXPORT_OUT_IN_USE');
    let text: string;
    try {
      // only a plain file, within the bound: a FIFO or a device in the state folder is damage, not a wait
      const read = readOwnBytes(file, Journal.UNPACKED_MAX);
      if (read === null) return null;
      if ('problem' in read) {
        onDamaged(file, read.problem);
        return null;
      }
      text = gunzipSync(read.bytes, { maxOutputLength: Journal.UNPACKED_MAX }).toString('utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      onDamaged(
        file,
        code === 'ERR_BUFFER_TOO_LARGE'
          ? t.unpackedTooLarge({ mb: Journal.UNPACKED_MAX / 1024 / 1024 })
          : code?.startsWith('Z_')
            ? t.notGzip
            : (code ?? String(e)),
      );
      return null;
    }
    try {
      return readAnswers<PropertyAnswers>(text, expected);
    } catch (e) {
      if (!(e instanceof JournalDamage)) throw e;
      onDamaged(file, e.message);
      return null;
    }
  }

  /**
   * `unitsJson`: each unit's answer as JSON, made as it came (pipeline/stream.ts), handed over (see
   * gzipAnswers in journal-json.ts).
   */
  async save(index: number, answers: PropertyAnswers, unitsJson?: string[]): Promise<void> {
    await writeAtomic(this.file(index), await gzipAnswers(answers, unitsJson));
  }

  /** Keeps the lock held (the process still runs) and gives it to `Journal.release` in another thread, which touches the folder locks from now on (Journal.keep). */
  handOver(): JournalHandle {
    for (const l of this.outLocks.inside) stopTouching(l.file);
    return { dir: this.dir, lockFile: `${this.dir}.lock`, outLockFile: this.outLocks.out, rootLockFile: this.outLocks.root, insideLocks: this.outLocks.inside };
  }

  /**
   * Touches a handed-over journal's folder locks from this thread until Journal.release: the workbook and the commit
   * may take minutes on a slow share, and a lock left silent that long is taken over by another host's run.
   */
  static keep(handle: JournalHandle, onTakenOver: (e: UsageError) => void): void {
    for (const l of handle.insideLocks) keepTouching(l.file, (how) => onTakenOver(takenOver(l.dir, how)));
  }

  /** Ends a handed-over journal: removes it after success, keeps it for a resume otherwise; the lock is released either way. */
  static async release(handle: JournalHandle, done: boolean): Promise<void> {
    for (const l of handle.insideLocks) stopTouching(l.file);
    // the locks go even where the journal cannot (a state folder gone read-only): the run's failure is told after
    // meta.json first: a removal stopped half-way leaves no journal to resume under the old start (round 67 F8)
    const removal = done
      ? await rm(path.join(handle.dir, 'meta.json'), { force: true })
          .then(() => rm(handle.dir, { recursive: true, force: true }))
          .then(
            () => null,
            (e: unknown) => ({ e }),
          )
      : null;
    await releaseLock(handle.lockFile).catch(() => undefined);
    await releaseLock(handle.outLockFile).catch(() => undefined);
    if (handle.rootLockFile !== null) await releaseLock(handle.rootLockFile).catch(() => undefined);
    for (const l of handle.insideLocks) {
      await releaseLock(l.file).catch(() => undefined);
      await removeCreated(l.dir, l.created);
    }
    if (removal) throw removal.e;
  }

  /**
   * Throws EXPORT_OUT_TAKEN_OVER unless every folder lock of the run is still its own: a run paused past the
   * 10-minute rule (folder-lock.ts) whose folder another host's run took over meanwhile must not commit into it.
   * A lock that is gone is told as deleted, as the heartbeat tells it: nobody's record is there, and a run shorter
   * than a heartbeat was told "took over … paused for more than 10 minutes" when it never paused (round 26).
   */
  static checkHeld(locks: readonly InsideLock[]): void {
    const lost = locks.find((l) => !holdsLock(l.file));
    if (lost) throw takenOver(lost.dir, lockGone(lost.file) ? 'deleted' : 'replaced');
  }

  /** Keeps the journal for a later resume and lets another run take it. */
  async close(): Promise<void> {
    await this.unlock().catch(() => undefined);
  }

  /** Drops progress that can never be continued (it holds another period), so the next run starts over. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
    await this.close();
  }
}
