// The change marker of a claim's gate (claim-gate.ts): a takeover of a claim turned away unused, or a give-back, changes
// the gate only while it holds the claim's marker, `<sha256>.<tag>.<g>.took` beside the gate, made by an exclusive
// create whose name the claim's id fixes; two changes of one claim cannot both hold it. A marker whose process ended on
// this machine (killed between its marker and its change: round 57 S2, S3) changed nothing, as the gate is written
// only under it: the next change takes the next generation `g`, never removing the old one (a removal could take a
// live marker made meanwhile for the dead one's). "This machine" is its boot and pid namespace, not its name: two
// containers sharing the state folder and a hostname each took the other's live marker for a dead one's (round 59 U1).
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { readOwnFile } from '../core/bounded-read.js';
import { checkJson } from '../core/file-schema.js';
import { BOOT_MS, BOOTED, PID_SPACE, processAlive } from '../core/pid.js';
import { gateFolder, madeWhole } from './gate-files.js';
import { EntrySchema, type SpentEntry } from './spent-entry.js';

/** Generations of one claim's marker: each later one is taken only where the process of every earlier one ended. */
const GENERATIONS = 8;

const MarkerSchema = v.looseObject({
  of: v.string(),
  by: v.string(),
  pid: v.number(),
  host: v.string(),
  ns: v.optional(v.string()),
  boot: v.optional(v.number()),
  at: v.string(),
  claim: v.optional(EntrySchema),
});
/** The claim `of` it changes; `by`: the change's own id; its process, and where its pid means it; the claim a takeover writes (none: a give-back). */
export interface Marker {
  of: string;
  by: string;
  pid: number;
  host: string;
  ns?: string;
  boot?: number;
  at: string;
  claim?: SpentEntry;
}

/** The name of generation `g` of the change marker of the claim `c` of `hash` (a record's id is any text, so hashed). */
export const markerFile = (env: NodeJS.ProcessEnv, hash: string, c: string, g = 0): string =>
  path.join(gateFolder(env), `${hash}.${createHash('sha256').update(c, 'utf8').digest('hex').slice(0, 16)}.${g}.took`);

/** A change marker's name: pruned once its gate holds another claim (gate-prune.ts). */
export const MARKER_NAME = /^([0-9a-f]{64})\.[0-9a-f]{16}\.\d+\.took$/;

/** A new change of the claim `of`, by this process (a takeover writing `claim`, or a give-back). */
export const changeOf = (of: string, claim?: SpentEntry): Marker => ({
  of,
  by: randomBytes(8).toString('hex'),
  pid: process.pid,
  host: os.hostname(),
  ns: PID_SPACE,
  boot: BOOT_MS,
  at: new Date().toISOString(),
  ...(claim ? { claim } : {}),
});

/** A marker held (`held`: its file), or another change of the claim under way (`marker` none: being written, or left torn by a kill, where links are refused). */
export type Taken = { held: string } | { underWay: string; marker?: Marker };

/**
 * Takes a marker of the claim `mine.of`, else tells the change under way. A marker whose process ended in this pid
 * space is passed for the next generation; one holding this change's own id is this change's (its link made, the reply
 * lost: NFS, as round 52 L4; round 57 S5).
 */
export async function takeMarker(env: NodeJS.ProcessEnv, hash: string, mine: Marker): Promise<Taken> {
  let g = 0;
  for (let tries = 0; g < GENERATIONS && tries < 2 * GENERATIONS; tries++) {
    const file = markerFile(env, hash, mine.of, g);
    // known as held here before it is on disk: another change of this process reading it meanwhile must not pass it (round 62 X1)
    heldHere.add(mine.by);
    const made = await madeWhole(file, JSON.stringify(mine)).catch((e: unknown) => {
      heldHere.delete(mine.by);
      return Promise.reject(e);
    });
    if (made) return held(file, mine);
    const there = readMarker(file);
    if (there?.by === mine.by) return held(file, mine);
    heldHere.delete(mine.by);
    if (there === undefined) {
      if (lstatSync(file, { throwIfNoEntry: false }) === undefined) continue; // gone meanwhile: this generation again
      return { underWay: file }; // torn, or no file: the prune removes it an hour on (gate-prune.ts)
    }
    if (!ended(there)) return { underWay: file, marker: there };
    g++;
  }
  return { underWay: markerFile(env, hash, mine.of, Math.min(g, GENERATIONS - 1)) };
}

/** The changes this process holds a marker for, by id: its own pid on a marker is a live change of its own only then. */
const heldHere = new Set<string>();

function held(file: string, mine: Marker): Taken {
  heldHere.add(mine.by);
  return { held: file };
}

/** Removes a marker this change held: the change is made, or given up. */
export async function releaseMarker(file: string, mine: Marker): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined);
  heldHere.delete(mine.by);
}

/**
 * Whether a marker's process ended: its pid means the same here (PID_SPACE), and it is not running; this process's pid
 * on it is an earlier process's with it (a restarted container's pid 1), unless this process holds it (two takeovers of
 * one claim in one process: each took the other's live marker for an ended one).
 */
function ended(m: Marker): boolean {
  // the boot id hidden (ProcSubset=pid): the same boot where the boot times agree within seconds (round 61 W1)
  const sameBoot = !PID_SPACE.startsWith(`${BOOTED} `) || (m.boot !== undefined && Math.abs(m.boot - BOOT_MS) < 10_000);
  const gone = m.pid === process.pid ? !heldHere.has(m.by) : !processAlive(m.pid);
  return m.ns === PID_SPACE && sameBoot && m.host === os.hostname() && m.pid > 0 && gone;
}

/** A change marker's content; none where it went meanwhile or cannot be read (never through a link: round 57 S8). */
export function readMarker(file: string): Marker | undefined {
  if (lstatSync(file, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
  const read = readOwnFile(file, 8192);
  if (read === null || 'problem' in read) return undefined;
  const checked = checkJson(MarkerSchema, read.text);
  return checked.ok ? checked.value : undefined;
}

export { PID_SPACE } from '../core/pid.js';
