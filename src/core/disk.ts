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
};

/** The disk's refusal in the run's words, with the file and the system's code; null for any other error. */
export function diskRefusal(e: unknown): { why: string; file: string | null; errno: string } | null {
  if (!(e instanceof Error) || isMeterdataError(e)) return null;
  const { code, path } = e as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !Object.hasOwn(WHY, code)) return null;
  return { why: WHY[code]!(), file: typeof path === 'string' && path !== '' ? path : null, errno: code };
}

/** DISK_WRITE_FAILED for a disk's refusal (exit 1, as for memory: the machine ran out of something); else null. */
export function diskError(e: unknown): MeterdataError | null {
  const r = diskRefusal(e);
  if (!r) return null;
  const message = r.file ? w.notWritten({ file: r.file, why: r.why }) : w.notWrittenAnywhere({ why: r.why });
  return new MeterdataError(message, { code: 'DISK_WRITE_FAILED', exitCode: ExitCode.UNEXPECTED, hint: w.hint, cause: e, details: { errno: r.errno } });
}
