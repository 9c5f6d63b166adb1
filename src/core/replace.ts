// Renaming a finished file over an existing one. On Windows that fails (EPERM, EACCES or
// EBUSY) while another program holds the target open: Excel keeps billing.xlsx open as
// long as it shows it; a virus scanner or a second meterdata reading config.json holds a
// file for milliseconds. Such a failure is retried a bounded number of times (about 6 s
// in all); a file that stays in use becomes one error naming it and the fix. Elsewhere a
// rename replaces an open file, and every error passes through unchanged.
import { open as fsOpen, rename as fsRename } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, MeterdataError } from './errors.js';
import { coreTexts as t } from './texts.js';

const IN_USE = new Set(['EPERM', 'EACCES', 'EBUSY']);
/** Waits between attempts on Windows; their sum bounds how long a locked file is waited for. */
export const IN_USE_WAITS_MS = [50, 100, 200, 400, 800, 1500, 3000];

export class FileInUseError extends MeterdataError {
  constructor(file: string, cause: unknown) {
    super(t.fileInUse({ file }), {
      code: 'FILE_IN_USE',
      exitCode: ExitCode.UNAVAILABLE,
      hint: t.fileInUseHint({ name: path.basename(file) }),
      cause,
    });
  }
}

/** The platform and file operations, injectable so the Windows behaviour is tested anywhere. */
export interface ReplaceDeps {
  platform?: NodeJS.Platform;
  rename?: (from: string, to: string) => Promise<void>;
  /** Opens `file` for writing and closes it again (without changing it). */
  openForWrite?: (file: string) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

async function openForWrite(file: string): Promise<void> {
  await (await fsOpen(file, 'r+')).close();
}

async function retryWhileInUse(file: string, op: () => Promise<void>, deps: ReplaceDeps): Promise<void> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (!IN_USE.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      if (attempt >= IN_USE_WAITS_MS.length) throw new FileInUseError(file, e);
      await sleep(IN_USE_WAITS_MS[attempt]!);
    }
  }
}

/** rename(from, to), waiting (on Windows) for a program that holds `to` open to let go. */
export async function renameReplacing(from: string, to: string, deps: ReplaceDeps = {}): Promise<void> {
  const rename = deps.rename ?? fsRename;
  if ((deps.platform ?? process.platform) !== 'win32') return rename(from, to);
  return retryWhileInUse(to, () => rename(from, to), deps);
}

/**
 * On Windows: fails with FileInUseError, before anything is renamed, when one of `files`
 * exists and another program keeps it open (a program that holds a file open without
 * sharing it for writing also blocks its replacement). Missing files are fine.
 */
export async function checkReplaceable(files: string[], deps: ReplaceDeps = {}): Promise<void> {
  if ((deps.platform ?? process.platform) !== 'win32') return;
  const probe = deps.openForWrite ?? openForWrite;
  for (const file of files) {
    await retryWhileInUse(file, () => probe(file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e))), deps);
  }
}
