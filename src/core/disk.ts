// A file the disk would not take, told as such rather than as a bug with a stack: the
// export names its own files (export/run-errors.ts); any other command's, e.g. config.json
// noted after a refresh by `status` on a full disk, is told here (cli.ts).
import { ExitCode, MeterdataError, isMeterdataError } from './errors.js';
import { diskWords as w } from './texts-disk.js';

const WHY: Record<string, () => string> = {
  ENOSPC: () => w.full,
  EDQUOT: () => w.quota,
  EROFS: () => w.readOnly,
  EACCES: () => w.denied,
  EPERM: () => w.denied,
  EIO: () => w.failed,
  // a letter's temporary name below an --out of ~4,000 bytes: "a bug" on every re-run (round 32 F13)
  ENAMETOOLONG: () => w.nameTooLong,
};

/** The disk's refusal in the run's words, with the file and the system's code; null for any other error. */
export function diskRefusal(e: unknown): { why: string; file: string | null; errno: string } | null {
  if (!(e instanceof Error) || isMeterdataError(e)) return null;
  const { code, path } = e as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !Object.hasOwn(WHY, code)) return null;
  return { why: WHY[code]!(), file: typeof path === 'string' && path !== '' ? path : null, errno: code };
}

/** Why a write failed, for a warning: the disk's refusal in the run's words ("the disk is full."), else the error's own message. */
export function refusalWords(e: unknown): string {
  const disk = diskRefusal(e);
  return disk ? `${disk.why}.` : e instanceof Error ? e.message : String(e);
}

/** How a caller tells the disk's refusal: its code and words (the export names its own files). */
export interface DiskWords {
  code: 'DISK_WRITE_FAILED' | 'EXPORT_WRITE_FAILED';
  notWritten: (p: { file: string; why: string }) => string;
  notWrittenAnywhere: (p: { why: string }) => string;
  hint: string;
}

/** A disk's refusal as a MeterdataError (exit 1, as for memory: the machine ran out of something); else null. */
export function diskError(
  e: unknown,
  words: DiskWords = { code: 'DISK_WRITE_FAILED', notWritten: w.notWritten, notWrittenAnywhere: w.notWrittenAnywhere, hint: w.hint },
): MeterdataError | null {
  const r = diskRefusal(e);
  if (!r) return null;
  const message = r.file ? words.notWritten({ file: r.file, why: r.why }) : words.notWrittenAnywhere({ why: r.why });
  const hint = r.errno === 'ENAMETOOLONG' ? w.nameTooLongHint : refusalHint(e, words.hint);
  return new MeterdataError(message, { code: words.code, exitCode: ExitCode.UNEXPECTED, hint, cause: e, details: { errno: r.errno } });
}

/** What to do about the disk's refusal `e`: `hint` (free space), unless the file is refused to this user. */
export function refusalHint(e: unknown, hint: string = w.hint): string {
  const errno = diskRefusal(e)?.errno;
  // no space to free: another user's file or folder (a `sudo meterdata export` left the state folder root's; round 27)
  return errno === 'EACCES' || errno === 'EPERM' ? w.deniedHint : hint;
}

/** A write on an open file says no file (ENOSPC, EIO): the one it was to, for the messages above. */
export function located(e: unknown, file: string): unknown {
  const err = e as NodeJS.ErrnoException;
  // a MeterdataError (a worker's out-of-memory, a file in use) has a code of its own and no file to be given
  if (e instanceof Error && !isMeterdataError(e) && typeof err.code === 'string' && err.path === undefined) err.path = file;
  return e;
}
