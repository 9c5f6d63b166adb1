// The one writer of a single file that a reader sees whole or not at all (config.json, the
// stored sign-in, the shared rate window, the portfolio's files, the export's journal): temp
// file in the same directory, fsync, rename, fsync of the directory. An export's output set
// is a different thing: several files committed together (src/export/folder/atomic.ts).
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { located } from './disk.js';
import { renameReplacing } from './replace.js';

export interface AtomicWrite {
  /** The file's mode; without one the process's umask decides, as for any new file. */
  mode?: number;
  /**
   * `unique` (the default): a temporary name of its own per write, for files several processes
   * write; a refusal of the disk names the final file, as a random name would mean nothing to
   * the reader. `fixed`: "<file>.tmp", for a file only its lock holder writes (the journal);
   * the refusal names that file, which is where the disk said no.
   */
  temp?: 'unique' | 'fixed';
}

/** Writes `content` to `file` so that a reader sees the old or the new content, never a mix. */
export async function writeFileAtomic(file: string, content: string | Uint8Array, opts: AtomicWrite = {}): Promise<void> {
  const dir = path.dirname(file);
  const fixed = opts.temp === 'fixed';
  const tmp = fixed ? `${file}.tmp` : path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  let handle: fsp.FileHandle | undefined;
  try {
    // A fixed name left by a kill is written over; a unique one must not exist yet.
    handle = await fsp.open(tmp, fixed ? 'w' : 'wx', opts.mode ?? 0o666);
    await handle.writeFile(content, typeof content === 'string' ? 'utf8' : undefined);
    if (opts.mode !== undefined) await handle.chmod(opts.mode);
    await handle.sync();
  } catch (e) {
    // A full disk: the part written goes (it takes room, and in the credential store it is a secret)
    await handle?.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    // and the error names the file (a write on an open file names none), for the message (core/disk.ts)
    throw located(e, fixed ? tmp : file);
  }
  await handle.close();
  try {
    await renameReplacing(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await fsyncDir(dir);
  if (!fixed) await sweepLeftovers(file);
}

/** A temporary file this old is a kill's leftover: a write takes milliseconds. */
export const LEFTOVER_AGE_MS = 60 * 60 * 1000;
const swept = new Set<string>();

/**
 * Removes what writes of `file` killed before their rename left (their unique names would
 * otherwise pile up: the shared rate window is written during every export). Once per file
 * and process, only names of this file's own pattern, only when older than LEFTOVER_AGE_MS.
 */
async function sweepLeftovers(file: string): Promise<void> {
  if (swept.has(file)) return;
  swept.add(file);
  const dir = path.dirname(file);
  const own = new RegExp(`^\\.${path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.\\d+\\.[a-z0-9]*\\.tmp$`);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!own.test(name)) continue;
    const at = path.join(dir, name);
    const st = await fsp.lstat(at).catch(() => null);
    if (st?.isFile() && Date.now() - st.mtimeMs > LEFTOVER_AGE_MS) await fsp.rm(at, { force: true }).catch(() => undefined);
  }
}

/** Makes a rename in `dir` durable where the platform can (not on Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}
