// What an earlier run of the same portfolio export finished: a record in the state folder,
// kept until a run finishes every profile, so a re-run keeps the profiles whose folders still
// hold exactly that export (src/export/portfolio.ts).
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { readOwnFile } from '../../core/bounded-read.js';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { identity, type ExportArgs } from '../options/index.js';
import { checkListed, listedEntries, MANIFEST } from '../folder/index.js';
import type { ProfileResult } from './portfolio-summary.js';

/** Which profiles an earlier run of the same portfolio export finished (kept until a run finishes them all). */
export class FinishedRecord {
  private chain: Promise<unknown> = Promise.resolve();
  private constructor(
    readonly file: string,
    readonly finished: Record<string, ProfileResult>,
  ) {}

  static async open(stateDir: string, key: unknown): Promise<FinishedRecord> {
    const file = path.join(stateDir, 'portfolio', `${createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32)}.json`);
    return new FinishedRecord(file, finishedIn(readJson(file)) ?? {});
  }

  add(r: ProfileResult): Promise<unknown> {
    this.finished[r.profile] = r;
    const content = JSON.stringify({ finished: this.finished });
    this.chain = this.chain
      .catch(() => undefined)
      .then(async () => {
        await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
        await writeFileAtomic(this.file, content, { mode: 0o600 });
      });
    return this.chain;
  }

  async clear(): Promise<void> {
    await this.chain.catch(() => undefined);
    // a file where the notes' folder belongs: no note was ever written below it, so none is left to remove, and the
    // warning named a file inside a file to delete (round 32 F15)
    await rm(this.file, { force: true }).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOTDIR' ? undefined : Promise.reject(e)));
  }
}

/**
 * A file of ours as JSON; null when it is absent or cannot be ours. Read as a plain file within
 * a bound: a FIFO or a device in the shared --out or state folder must not stop the run.
 */
function readJson(file: string): unknown {
  try {
    const read = readOwnFile(file);
    return read && 'text' in read ? JSON.parse(read.text) : null;
  } catch {
    return null;
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The record's profiles as meterdata writes them: an object of objects (each one's summary, where
 * given, an object too). A damaged record (`finished` 5, a list, a text, null, an entry that is no
 * object) reads as none: its profiles are exported afresh and the record is written anew, where
 * assigning into it would fail every re-run of that profile.
 */
function finishedIn(saved: unknown): Record<string, ProfileResult> | null {
  const finished = isObject(saved) ? saved.finished : undefined;
  if (!isObject(finished)) return null;
  const entries = Object.values(finished);
  return entries.every((e) => isObject(e) && (e.summary === undefined || isObject(e.summary))) ? { ...(finished as Record<string, ProfileResult>) } : null;
}

interface KeptManifest {
  identity?: unknown;
  tenant?: { id?: unknown };
  exported_at?: unknown;
  files?: unknown;
}

/**
 * A profile finished by an earlier run whose folder still holds exactly that export: its manifest,
 * and every file it lists with the size and SHA-256 recorded (as --compare DIR checks them); a
 * file deleted or edited since, or a profile that names another tenant (`tenantId`, its config's) now, means the
 * profile is exported again.
 */
export async function keptResult(rec: FinishedRecord, args: ExportArgs, tenantId: string | undefined): Promise<ProfileResult | null> {
  const done = rec.finished[args.profile!];
  if (!done?.summary) return null;
  const manifest = readJson(path.join(args.out, MANIFEST)) as KeptManifest | null;
  if (!manifest || JSON.stringify(manifest.identity) !== JSON.stringify(identity(args)) || manifest.exported_at !== done.summary.exportedAt) return null;
  // a profile signed in to another landlord since: its folder holds the landlord it stood for before (round 27)
  const held = manifest.tenant?.id;
  if (typeof held !== 'string' || tenantId === undefined || held.toLowerCase() !== tenantId.toLowerCase()) return null;
  // a list meterdata did not write (an entry without a name, a name twice) is not its export
  const listed = listedEntries(manifest.files);
  if (!('entries' in listed) || listed.entries.length === 0) return null;
  for (const f of listed.entries) {
    if (f.name !== path.basename(f.name) || f.name.includes('\\')) return null;
    if (!(await checkListed(path.join(args.out, f.name), f.bytes, f.sha256, false)).ok) return null;
  }
  return { ...done, outcome: 'kept', seconds: 0 };
}
