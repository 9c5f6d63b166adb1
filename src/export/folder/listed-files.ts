// The files an export's manifest lists, checked against what it recorded (plain file, size,
// SHA-256) before they are trusted again: --compare DIR reads an earlier export's figures from
// them, a portfolio re-run keeps a profile's finished folder only while they still hold the
// export. Read asynchronously in pieces, never past the recorded size, so a signal ends the
// wait and a FIFO, a device or a file growing meanwhile is refused, never waited on.
import { createHash } from 'node:crypto';
import { openPlain } from '../../core/bounded-read.js';

/** The largest file an export lists that is read back: a year of a large tenant's billing CSV is far smaller. */
export const LISTED_FILE_MAX = 1 << 30;

/**
 * The largest listed file read as text: V8's strings hold fewer than 2^29 characters, and a
 * CSV's text has at most as many as its bytes; 256 MiB leaves room and is still far above a year's billing CSV.
 */
export const LISTED_TEXT_MAX = 256 << 20;

const PIECE = 1 << 20;

export type ListedCheck = { ok: true; text: string | null } | { ok: false; why: 'changed' | 'too-large' };

/**
 * Whether `file` still is what the manifest lists (`bytes`, `sha256`); `asText`: also its text
 * (UTF-8), refused as too large above LISTED_TEXT_MAX before anything is read.
 */
export async function checkListed(file: string, bytes: unknown, sha256: unknown, asText: boolean): Promise<ListedCheck> {
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0 || typeof sha256 !== 'string') return { ok: false, why: 'changed' };
  if (bytes > (asText ? LISTED_TEXT_MAX : LISTED_FILE_MAX)) return { ok: false, why: 'too-large' };
  let opened: Awaited<ReturnType<typeof openPlain>>;
  try {
    opened = await openPlain(file);
  } catch {
    return { ok: false, why: 'changed' };
  }
  if ('problem' in opened) return { ok: false, why: 'changed' };
  const { handle } = opened;
  try {
    const hash = createHash('sha256');
    const pieces: Buffer[] = [];
    let total = 0;
    // one byte past the recorded size says the file is longer: never read further
    for (;;) {
      const piece = Buffer.alloc(Math.min(PIECE, bytes + 1 - total));
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > bytes) return { ok: false, why: 'changed' };
      hash.update(piece.subarray(0, bytesRead));
      if (asText) pieces.push(piece.subarray(0, bytesRead));
    }
    if (total !== bytes || hash.digest('hex') !== sha256) return { ok: false, why: 'changed' };
    return { ok: true, text: asText ? Buffer.concat(pieces).toString('utf8') : null };
  } catch {
    return { ok: false, why: 'changed' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** One entry of a manifest's `files`, its name a string (whether plain, each reader judges). */
export interface ListedEntry {
  name: string;
  bytes?: unknown;
  sha256?: unknown;
}

/**
 * A manifest's `files` as meterdata writes it: a list of objects, each with a string name, no
 * name twice (compared ignoring case: one file on Windows and macOS). Anything else (a number,
 * an object, null in the list, a name given twice, which would be read and trusted once per
 * entry) is no list meterdata wrote: `shape` or the name given twice.
 */
export function listedEntries(files: unknown): { entries: ListedEntry[] } | { problem: 'shape' } | { problem: 'twice'; name: string } {
  if (!Array.isArray(files)) return { problem: 'shape' };
  const seen = new Set<string>();
  for (const f of files as unknown[]) {
    if (typeof f !== 'object' || f === null || Array.isArray(f) || typeof (f as { name?: unknown }).name !== 'string') return { problem: 'shape' };
    const name = (f as ListedEntry).name;
    if (seen.has(name.toLowerCase())) return { problem: 'twice', name };
    seen.add(name.toLowerCase());
  }
  return { entries: files as ListedEntry[] };
}
