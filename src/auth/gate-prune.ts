// The pruning of the claims' gates (claim-gate.ts): gates older than the list's entries, and scratch files a killed
// claim or takeover left, and change markers of killed takeovers that change nothing any more, at most once an hour.
import { constants, promises as fsp, statSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../core/pid.js';
import { gateFolder, readGate } from './claim-gate.js';
import { MARKER_NAME, readMarker } from './change-marker.js';

/** How often the gates are pruned: each prune stats every gate, and a year of many profiles' refreshes leaves tens of thousands. */
const PRUNE_EVERY_MS = 3_600_000;
/** A scratch file of a process still running is kept this long at most. */
const OWNER_KEEPS_MS = 86_400_000;

/**
 * Gates older than `maxAgeMs` go (the list's entries age out alike), at most once an hour (the time of the last prune
 * is the mtime of `refresh-claims.pruned` beside the folder; one dated ahead of `now` does not hold a prune back). At
 * most `limit` a call: a claim stays quick.
 */
export async function pruneGates(env: NodeJS.ProcessEnv, maxAgeMs: number, now: number, limit = 200): Promise<void> {
  const marker = `${gateFolder(env)}.pruned`;
  const last = statQuiet(marker, false);
  if (last !== undefined && last <= now && now - last < PRUNE_EVERY_MS) return;
  await touched(marker);
  const names = await fsp.readdir(gateFolder(env)).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (removed >= limit) return;
    const file = path.join(gateFolder(env), name);
    if (MARKER_NAME.test(name)) {
      removed += (await markerPruned(env, file, name, now)) ? 1 : 0;
      continue;
    }
    // a scratch file a killed claim left: by its ctime, which its link to the gate's name does not change (round 52 L3)
    const scratch = name.endsWith('.tmp');
    // nor one of a process still running here (its name carries the pid): FAT may keep no ctime of its own (round 53 N6)
    // (not this process's own pid: as a container's pid 1, every run has the same; round 54 P5), and for a day at most
    // (a claim writes it for milliseconds; pid 1 or a pid used again would keep it for good: round 55 Q7)
    const owner = scratch ? /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name) : null;
    const since = statQuiet(file, scratch);
    const young = since !== undefined && now - since < OWNER_KEEPS_MS;
    if (owner && young && Number(owner[1]) > 0 && Number(owner[1]) !== process.pid && processAlive(Number(owner[1]))) continue;
    if (since !== undefined && now - since > (scratch ? 3_600_000 : maxAgeMs)) {
      await fsp.rm(file, { force: true }).catch(() => undefined);
      removed++;
    }
  }
}

/**
 * A change marker (change-marker.ts) an hour old: where its gate no longer holds the claim it is for, it changes
 * nothing; where it cannot be read (torn by a kill where links are refused, or something else put there: a link, a
 * folder), it would hold every takeover of its claim at exit 5. One whose gate still holds its claim stays: a later
 * change takes the next generation only while every earlier one is there (a removed one could be made again by a
 * change that then runs beside a live later one).
 */
async function markerPruned(env: NodeJS.ProcessEnv, file: string, name: string, now: number): Promise<boolean> {
  const since = await fsp.lstat(file).then(
    (st) => st.ctimeMs,
    () => undefined,
  );
  if (since === undefined || now - since < 3_600_000) return false;
  const of = readMarker(file)?.of;
  let gate: string | undefined;
  try {
    gate = readGate(env, name.slice(0, 64))?.c;
  } catch {
    return false; // a damaged gate: left as it is, with what was changing it
  }
  if (of !== undefined && gate === of) return false;
  return fsp.rm(file, { force: true, recursive: true }).then(
    () => true,
    () => false,
  );
}

export function statQuiet(file: string, ctime: boolean): number | undefined {
  try {
    const st = statSync(file);
    return ctime ? st.ctimeMs : st.mtimeMs;
  } catch {
    return undefined;
  }
}

/** Sets `file`'s times to now, made empty where missing: never through a link put there, never waiting on a FIFO. */
async function touched(file: string): Promise<void> {
  // a link, FIFO or socket put there goes (never followed, never waited on), or every claim would prune (round 55 Q7)
  const there = await fsp.lstat(file).catch(() => null);
  if (there && (there.isSymbolicLink() || there.isFIFO() || there.isSocket())) await fsp.unlink(file).catch(() => undefined);
  const flags = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await fsp.open(file, flags, 0o600).catch(() => null);
  if (!handle) return;
  const now = new Date();
  await handle
    .utimes(now, now)
    .catch(() => undefined)
    .finally(() => handle.close());
}
