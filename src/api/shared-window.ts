// The rate window shared by the processes of one connection. The service counts requests
// per grant, not per process, so a `status` right before an export used to spend part of
// the export's minute: the export's own budget did not know and met a 429. Each process
// now leaves the start times of its last window in a small file under the profile's state
// folder when it closes, and the next process counts them against its budget.
//
// Bounded and safe by construction: the file holds at most MAX_STARTS numbers of the last
// window (older ones are dropped on every read and write), it is replaced atomically (a
// process that dies mid-write leaves the old file), and anything unreadable counts as
// empty: so does anything that is no regular file or larger than MAX_FILE_BYTES (a FIFO
// or a link to /dev/zero put there would otherwise hang or fill the memory of every run). Two processes writing at the same moment can lose each other's entries; the cost
// is at most a 429, which the Retry-After pause handles. A process that is killed leaves
// no entries, with the same cost.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readBounded } from '../core/bounded-read.js';
import { writeFileAtomic } from '../core/atomic-file.js';
import { dirs } from '../core/paths.js';

/** The longest window kept: the pacer's 60 s plus its 1 s margin. */
export const SHARED_WINDOW_MS = 61_000;
/** The most starts one window can hold: --rate-limit's largest value. */
const MAX_STARTS = 10_000;
/** MAX_STARTS epoch-ms numbers as JSON need under 150 KB; a larger file is not ours. */
const MAX_FILE_BYTES = 1024 * 1024;

export function sharedWindowFile(env: NodeJS.ProcessEnv, profile: string): string {
  return path.join(dirs(env).state, 'pacing', `${encodeURIComponent(profile)}.json`);
}

/** The starts (epoch ms) of the last window in `file`, oldest first; [] when absent or unreadable. */
export async function readWindow(file: string, now: number, windowMs = SHARED_WINDOW_MS): Promise<number[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(readSmallFile(file));
  } catch {
    return [];
  }
  const starts = (raw as { starts?: unknown } | null)?.starts;
  if (!Array.isArray(starts)) return [];
  // A start in the future (a clock set back since) counts as now: it was spent, just not when the clock says.
  return recentOf(
    starts.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).map((x) => Math.min(x, now)),
    now,
    windowMs,
  );
}

/** The file's text; throws unless it is a regular file of at most MAX_FILE_BYTES (a FIFO does not wait for a writer). */
function readSmallFile(file: string): string {
  const read = readBounded(file, MAX_FILE_BYTES);
  if (!read.ok) throw new Error('not a window file');
  return read.bytes.toString('utf8');
}

function recentOf(starts: number[], now: number, windowMs: number): number[] {
  return [...new Set(starts.filter((x) => x > now - windowMs).map(Math.round))].sort((a, b) => a - b).slice(-MAX_STARTS);
}

/** Adds `ours` to what the file holds now and writes back the last window. Never throws: pacing is best effort. */
export async function writeWindow(file: string, ours: number[], now: number, windowMs = SHARED_WINDOW_MS): Promise<void> {
  try {
    const merged = recentOf([...(await readWindow(file, now, windowMs)), ...ours], now, windowMs);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${JSON.stringify({ starts: merged })}\n`, { mode: 0o600 });
  } catch {
    // A read-only or full state folder costs at most one 429 in the next process.
  }
}
