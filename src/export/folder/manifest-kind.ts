// Which command's run a folder holds, told by its manifest (out-folder.ts): an export's or a uvi month's. Every run
// asks it of the folders around and below its --out, before any request and again before each commit (a portfolio per
// profile), so a folder's answer is kept while its manifest files are unchanged.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { readOwnFile } from '../../core/bounded-read.js';
import { UsageError } from '../../core/errors.js';
import { asideName } from './atomic.js';
import { folders, listingCut, MAX_LISTED } from './listings.js';
import { runKind, type RunKind } from '../options/index.js';
import { outText as t } from './texts-folder.js';

export const MANIFEST = 'meterdata-manifest.json';
/** A manifest read for its kind: up to this many bytes (a month of 100,000 letters is about 20 MB). */
const MANIFEST_MAX = 64 << 20;

/** Answers kept, by folder, with the identity of its manifest and its aside copy (at most KEPT_MAX: about 10 MB). */
const kinds = new Map<string, { stamp: string; kind: RunKind | null }>();
const KEPT_MAX = 100_000;

/** The run a folder's manifest belongs to; null where there is none or it is not readable as one. */
export function manifestKind(dir: string): RunKind | null {
  const stamp = manifestStamp(dir);
  const kept = stamp === undefined ? undefined : kinds.get(dir);
  if (kept !== undefined && kept.stamp === stamp) return kept.kind;
  const kind = readKind(dir);
  if (stamp !== undefined) {
    if (kinds.size >= KEPT_MAX) kinds.clear();
    kinds.set(dir, { stamp, kind });
  }
  return kind;
}

/** The manifest files' identity (a commit replaces them: a new inode); none where they cannot be looked at. */
function manifestStamp(dir: string): string | undefined {
  try {
    return [MANIFEST, asideName(MANIFEST)]
      .map((n) => lstatSync(path.join(dir, n), { bigint: true, throwIfNoEntry: false }))
      .map((st) => (st ? `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}` : '-'))
      .join('|');
  } catch {
    return undefined;
  }
}

function readKind(dir: string): RunKind | null {
  for (const name of [MANIFEST, asideName(MANIFEST)]) {
    // a month of thousands of letters writes a manifest over the 1 MiB of other files read back (round 61 W6)
    const read = readOwnFile(path.join(dir, name), MANIFEST_MAX);
    if (!read || 'problem' in read) continue;
    try {
      const template = (JSON.parse(read.text) as { identity?: { template?: unknown } } | null)?.identity?.template;
      if (typeof template === 'string') return runKind(template);
    } catch {
      // not a manifest of ours: the folder's own check judges it
    }
  }
  return null;
}

/** Folders looked at below a uvi root for an export's: a portfolio of a hundred landlords' five years of months is 6,100. */
export const BELOW_MAX = 50_000;

/**
 * An export's folder in or anywhere below the uvi root `root`, breadth first: one in a month folder's sub-folder
 * (`export --out R/2025-10/sub`) or deeper was not looked for, both runs committed, and the export was then refused for
 * good, as it lies in a uvi root (round 58 T5). A root of more than BELOW_MAX folders is refused, never passed
 * unlooked-at (round 60 V3: at 5,000 it passed).
 */
/** Refused where the look cannot be whole: never passed unlooked-at. */
export const tooMany = (dir: string, max: number) => new UsageError(t.tooManyBelow({ dir, max }), t.tooManyBelowHint, 'EXPORT_OUT_IN_USE');

export function exportBelow(root: string, max = BELOW_MAX): string | null {
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    if (i >= max) throw tooMany(root, max);
    if (manifestKind(queue[i]!) === 'export') return queue[i]!;
    queue.push(...folders(queue[i]!));
    if (listingCut(queue[i]!)) throw tooMany(root, MAX_LISTED); // a folder of more entries than are listed (round 61 W2)
  }
  return null;
}
