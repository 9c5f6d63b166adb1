// Resume support. Under dirs().state/exports/<hash of profile and arguments>/ the export
// keeps what it fetched, one gzip'd JSON file per completed Property, plus meta.json with
// the identity it was fetched under (tenant, property scope), the Property list and the
// time of the first start. A re-run with the same arguments re-checks /whoami against it
// and fetches only the Properties not yet there; the files are then rebuilt from the
// journal, so they are byte-identical to an uninterrupted run. Removed after success.
import { createHash } from 'node:crypto';
import { link, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { readOwnBytes, readOwnFile } from '../core/bounded-read.js';
import { renameReplacing } from '../core/replace.js';
import os from 'node:os';
import { processAlive } from '../core/pid.js';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { UsageError } from '../core/errors.js';
import type { MeasuringPoint, MeasuringPointConsumption, Property, UnitConsumption, UsageUnit, WhoAmI } from '../api/types.js';
import { JournalDamage, readAnswers, readLockHolder, readMeta, type JournalMeta } from './journal-check.js';
import { gzipAnswers } from './journal-json.js';
import { runText as t } from './texts-run.js';
import { located } from '../core/disk.js';

export type { JournalMeta };
export { answersJson } from './journal-json.js';

import type { PropertyAnswers } from '../api/walk.js';

/** What the walk collected about one Property (defined with the walk, src/api/walk.ts). */
export type { PropertyAnswers };

/** A lock file that cannot be read as ours is taken over once it is this old. */
export const LOCK_DAMAGED_STALE_MS = 30_000;

/**
 * When this process started (ms since the epoch; the same in every thread). A lock naming
 * our own pid but another start was left by an earlier process that had the same pid: in
 * a container every cron run may be pid 7, and a killed one must not block the next forever.
 */
const PROCESS_STARTED = Math.round(Date.now() - process.uptime() * 1000);

function alive(pid: number, started: unknown): boolean {
  if (pid === process.pid) return typeof started !== 'number' || Math.abs(started - PROCESS_STARTED) < 2_000;
  return processAlive(pid);
}

export function journalKey(identity: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = `${file}.tmp`;
  try {
    await writeFile(tmp, data, { flush: true });
  } catch (e) {
    // A write says no file (ENOSPC): the saved progress may be on another disk than --out (run-errors.ts)
    await rm(tmp, { force: true }).catch(() => undefined);
    throw located(e, tmp);
  }
  await renameReplacing(tmp, file);
}

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
}

/**
 * One export writes into a folder at a time, whatever its arguments: the journal's own
 * lock is per arguments, so two exports with different arguments into one --out would
 * otherwise delete each other's temporary files and leave files that disagree with the
 * manifest. Keyed on the folder's real path, so a symlink or "./x" vs "x" is one folder.
 */
export async function outLockFile(stateDir: string, out: string): Promise<string> {
  return path.join(stateDir, 'exports', `out-${createHash('sha256').update(await realOut(out)).digest('hex').slice(0, 32)}.lock`);
}

/** The real path of `out`, or of its nearest existing ancestor joined with the rest. */
async function realOut(out: string): Promise<string> {
  const rest: string[] = [];
  let dir = path.resolve(out);
  for (;;) {
    try {
      return path.join(await realpath(dir), ...rest);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return path.resolve(out);
      rest.unshift(path.basename(dir));
      dir = up;
    }
  }
}

/**
 * Puts the written-aside lock `mine` into place as `file`, failing with EEXIST when a lock is
 * there. A hard link makes it appear with its content in one step; where the file system has no
 * hard links (FAT32 and exFAT drives, some network shares on Windows: EPERM, ENOTSUP, ENOSYS)
 * an exclusive create is the fallback. There a kill between create and write can leave an empty
 * lock, which the damaged-lock rule takes over once it is old.
 */
export async function placeLock(mine: string, file: string, linkFn: (from: string, to: string) => Promise<void> = link): Promise<void> {
  try {
    await linkFn(mine, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    await writeFile(file, await readFile(mine), { flag: 'wx' });
  }
}

export class Journal {
  private constructor(
    readonly dir: string,
    public meta: JournalMeta,
    /** Why an earlier journal was dropped, for the user; null when none was. */
    readonly restartReason: string | null,
    readonly resumed: boolean,
    private readonly unlock: () => Promise<void>,
    private readonly outLock: string,
  ) {}

  /**
   * One export per journal at a time (two cron jobs with the same arguments). The lock
   * file names its holder; a lock left by a process that no longer runs on this host (a
   * killed export) is taken over, so a resume right after a kill works. The file appears
   * with its content in one step (written aside, then hard-linked into place), so a kill
   * can never leave an empty lock behind; a damaged one (another tool, a full disk) is
   * taken over once it is older than LOCK_DAMAGED_STALE_MS.
   */
  private static async lock(file: string, busy: UsageError): Promise<() => Promise<void>> {
    await mkdir(path.dirname(file), { recursive: true });
    const mine = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(mine, JSON.stringify({ pid: process.pid, host: os.hostname(), started: PROCESS_STARTED })).catch((e: unknown) => Promise.reject(located(e, mine)));
      for (let attempt = 0; ; attempt++) {
        try {
          await placeLock(mine, file);
          return () => rm(file, { force: true });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          if (attempt === 0 && (await Journal.staleLock(file))) {
            await rm(file, { force: true });
            continue;
          }
          throw busy;
        }
      }
    } finally {
      await rm(mine, { force: true });
    }
  }

  /** Whether the lock's holder is gone: a dead process on this host, or a damaged file left long ago. */
  private static async staleLock(file: string): Promise<boolean> {
    let text: string;
    let ageMs: number;
    try {
      ageMs = Date.now() - (await stat(file)).mtimeMs;
      // a FIFO or a device in its place is a damaged lock, never waited on
      const read = readOwnFile(file);
      if (read === null) return true; // gone between our attempt and this look: try again
      text = 'text' in read ? read.text : '';
    } catch {
      return true;
    }
    const holder = readLockHolder(text);
    if (!holder) return ageMs > LOCK_DAMAGED_STALE_MS;
    return holder.host === os.hostname() && !alive(holder.pid, holder.started);
  }

  /**
   * Opens the journal of `identity`, resuming it when it was made under the same tenant
   * and property scope; otherwise starts a new one (and says why the old one was dropped).
   */
  static async open(stateDir: string, identity: Record<string, unknown>, who: WhoAmI, now: Date, out: string): Promise<Journal> {
    const dir = path.join(stateDir, 'exports', journalKey(identity));
    // The journal first: a second run with the same arguments is told just that.
    const unlockJournal = await Journal.lock(
      `${dir}.lock`,
      new UsageError(t.running, t.runningHint({ lock: `${dir}.lock` }), 'EXPORT_ALREADY_RUNNING'),
    );
    const outLock = await outLockFile(stateDir, out);
    let unlockOut: () => Promise<void>;
    try {
      unlockOut = await Journal.lock(
        outLock,
        new UsageError(t.outBusy({ out }), t.outBusyHint({ lock: outLock }), 'EXPORT_OUT_BUSY'),
      );
    } catch (e) {
      await unlockJournal();
      throw e;
    }
    const unlock = () => unlockOut().finally(unlockJournal);
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
      version: 1,
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
      onDamaged(file, code === 'ERR_BUFFER_TOO_LARGE' ? t.unpackedTooLarge({ mb: Journal.UNPACKED_MAX / 1024 / 1024 }) : code?.startsWith('Z_') ? t.notGzip : (code ?? String(e)));
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
   * `unitsJson`: each unit's answer as JSON, made as it came (stream.ts), handed over (see
   * gzipAnswers in journal-json.ts).
   */
  async save(index: number, answers: PropertyAnswers, unitsJson?: string[]): Promise<void> {
    await writeAtomic(this.file(index), await gzipAnswers(answers, unitsJson));
  }

  /** Keeps the lock held (the process still runs) and gives it to `Journal.release` in another thread. */
  handOver(): JournalHandle {
    return { dir: this.dir, lockFile: `${this.dir}.lock`, outLockFile: this.outLock };
  }

  /** Ends a handed-over journal: removes it after success, keeps it for a resume otherwise; the lock is released either way. */
  static async release(handle: JournalHandle, done: boolean): Promise<void> {
    if (done) await rm(handle.dir, { recursive: true, force: true });
    await rm(handle.lockFile, { force: true }).catch(() => undefined);
    await rm(handle.outLockFile, { force: true }).catch(() => undefined);
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
