// Opt-in file store: one JSON file per profile, mode 0600, in the state directory,
// replaced atomically so a crash leaves the old or the new record, never half of one.
import { accessSync, constants, lstatSync, promises as fsp, statSync, type Stats } from 'node:fs';
import { diskError } from '../../core/disk.js';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { pathBlocker, readOwnFile } from '../../core/bounded-read.js';
import { fileTexts as ft } from '../../core/texts.js';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { dirs } from '../../core/paths.js';
import { damagedRecord, parseRecord, type CredentialStore, type StoredRecord } from './types.js';
import { storeTexts as t } from './texts.js';

/**
 * The record holds a refresh token: a copy restored from a backup or edited with another
 * umask may be readable by others, and `status` says "mode 0600". Made so at once.
 */
async function tighten(file: string): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await fsp.stat(file);
  if ((mode & 0o077) !== 0) await fsp.chmod(file, 0o600).catch(() => undefined);
}

async function isLink(file: string): Promise<boolean> {
  try {
    return (await fsp.lstat(file)).isSymbolicLink();
  } catch {
    // not there (or not reachable): the read that follows says what it finds
    return false;
  }
}

/**
 * A file where the credentials folder (or one above it) should be, or a link there that leads nowhere or in a circle:
 * named with the move that fixes it, not a stack trace (round 44 N4, round 45 F3).
 */
const blockedBy = (file: string, at: string, problem: string) => new UsageError(t.storeBlocked({ file, problem }), ft.fileInPathHint({ at }), 'CONFIG_INVALID');

/** `e` told as blockedBy where something in the path caused it; any other error as it is. */
function blocked(file: string, e: unknown): unknown {
  const b = pathBlocker(file, (e as NodeJS.ErrnoException).code);
  return b === null ? e : blockedBy(file, b.at, b.problem);
}

/** A link to nowhere in the path, which reads as "no record" (ENOENT): told, before any sign-in starts or as the read's finding. */
function checkLinks(file: string): void {
  const b = pathBlocker(file, 'ENOENT');
  if (b !== null) throw blockedBy(file, b.at, b.problem);
}

/** `dir`, or the nearest folder above it that exists (what a recursive mkdir of `dir` writes in); none where the path cannot be followed. */
function nearestFolder(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const found = statQuiet(d);
    if (found !== undefined) return found.isDirectory() ? d : undefined;
    if (path.dirname(d) === d) return undefined;
  }
}

function statQuiet(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // a file or a link loop in the path: told by the checks before
  }
}

export class FileCredentialStore implements CredentialStore {
  readonly kind = 'file' as const;
  private readonly dir: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = path.join(dirs(env).state, 'credentials');
  }

  fileFor(profile: string): string {
    return path.join(this.dir, `${profile}.json`);
  }

  /** A folder at the record's place (not meterdata's: never removed) would fail the write after the tokens were issued. */
  checkNoFolder(profile: string): void {
    const file = this.fileFor(profile);
    let found;
    try {
      found = lstatSync(file, { throwIfNoEntry: false });
    } catch (e) {
      throw blocked(file, e);
    }
    if (found === undefined) checkLinks(file);
    if (found?.isDirectory()) throw new UsageError(t.recordIsFolder({ file }), t.recordIsFolderHint({ file }), 'CONFIG_INVALID');
    // a folder this user may not write (root's, after a `sudo meterdata login`) failed only once the code was redeemed
    // (round 46 L3); not made yet, the folder it would be made in (round 47 L-b)
    const existing = nearestFolder(this.dir);
    if (existing !== undefined)
      try {
        accessSync(existing, constants.W_OK | constants.X_OK);
      } catch (e) {
        throw diskError(e) ?? e;
      }
  }

  describe(profile: string): string {
    return t.describeFile({ file: this.fileFor(profile) });
  }

  async read(profile: string): Promise<StoredRecord | null> {
    const file = this.fileFor(profile);
    // A link to another profile's record would be read as this profile's and written back as a plain
    // file: two records holding one refresh token, and the second to refresh would end the connection.
    if (await isLink(file)) throw damagedRecord(t.fileLinked({ file, target: await fsp.readlink(file).catch(() => '?') }), profile);
    const read = readOwnFile(file);
    if (read === null) return (checkLinks(file), null);
    if ('problem' in read)
      throw read.fileInPath !== undefined
        ? blockedBy(file, read.fileInPath, read.problem)
        : read.unreadable
          ? damagedRecord(t.fileUnreadable({ file, problem: read.problem }), profile, true)
          : damagedRecord(t.fileDamaged({ file, problem: read.problem }), profile);
    await tighten(file);
    const checked = parseRecord(read.text);
    if (!checked.ok) throw damagedRecord(t.fileDamaged({ file, problem: checked.problem }), profile);
    return checked.value;
  }

  async write(profile: string, record: StoredRecord): Promise<void> {
    const file = this.fileFor(profile);
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 }).catch((e: unknown) => Promise.reject(blocked(file, e)));
    await writeFileAtomic(file, JSON.stringify(record), { mode: 0o600 });
  }

  async remove(profile: string): Promise<boolean> {
    try {
      await fsp.unlink(this.fileFor(profile));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw blocked(this.fileFor(profile), e);
    }
  }
}
