// A file the landlord gives on the command line (--benchmark, --plant-meters), read through the
// project's one bounded reader (src/core/bounded-read.ts): only a plain file, never past 1 MiB, so a
// FIFO, /dev/zero or a huge file is refused at once instead of blocking the run or filling the memory.
// The one place of src/uvi that touches the disk; the parsers of the text are pure.
import path from 'node:path';
import { OWN_FILE_MAX, readBounded, type BoundedRead } from '../../core/bounded-read.js';
import { UsageError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/codes.js';
import { inputTexts as t } from './texts-inputs.js';

/** The file's text, or a UsageError (exit 2) naming the flag, the file and the fix (`hint`). */
export function readOwnText(flag: string, given: string, cwd: string, o: { code: ErrorCode; hint: string }): string {
  let read: BoundedRead;
  try {
    read = readBounded(path.resolve(cwd, given), OWN_FILE_MAX);
  } catch (e) {
    throw new UsageError(t.cannotRead({ flag, file: given, error: (e as NodeJS.ErrnoException).code ?? String(e) }), o.hint, o.code);
  }
  if (!read.ok) {
    const message = {
      folder: t.isFolder,
      'not-a-file': t.notAFile,
      'too-large': (p: { flag: string; file: string }) => t.tooLarge({ ...p, kb: OWN_FILE_MAX >> 10 }),
    }[read.why];
    throw new UsageError(message({ flag, file: given }), o.hint, o.code);
  }
  try {
    // A NUL is no text: Excel's "Unicode text" (UTF-16 without a byte order mark) decodes as "valid" UTF-8 full of them.
    if (read.bytes.includes(0)) throw new Error('NUL');
    return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new UsageError(t.notUtf8({ flag, file: given }), t.notUtf8Hint, o.code);
  }
}
