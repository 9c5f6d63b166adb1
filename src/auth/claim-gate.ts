// One file per refresh token claimed, `<state>/refresh-claims/<sha256>`, made with an exclusive create: of two
// processes claiming one token at one moment exactly one makes it, whatever became of the list's lock (its folder
// removed, a holder stalled past the stale limit, a file system without birth times: rounds 48 F1 and 49 N2). It also
// keeps a claim that a late write of the list dropped (round 49 N4). The list (spent-tokens.ts) keeps the entries
// made before the gates and is read first.
//
// A gate never leaves its name: a claim turned away unused is taken over by writing the new claim over it with a
// rename, and a claim given back is removed, each only by the process that holds the claim's change marker
// (change-marker.ts). Session 26: before, a takeover moved the gate aside to look at it, and the name's absence
// meanwhile, the asides and putting them back cost rounds 52 to 56 eleven findings.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import { writeFileAtomic } from '../core/atomic-file.js';
import { readOwnFile } from '../core/bounded-read.js';
import { ServiceUnavailableError } from '../core/errors.js';
import { checkJson } from '../core/file-schema.js';
import { changeOf, PID_SPACE, releaseMarker, takeMarker, type Marker, type Taken } from './change-marker.js';
import { gateFile, madeWhole } from './gate-files.js';
import { EntrySchema, type SpentEntry } from './spent-entry.js';
import { fileTexts as ft } from '../core/texts.js';
import { tokenTexts as t } from './texts-tokens.js';

export { gateFolder } from './gate-files.js';

/** Claims by making the gate: null once it is ours, else the claim there (one given back meanwhile: tried once more). */
export async function takeGate(env: NodeJS.ProcessEnv, entry: SpentEntry): Promise<SpentEntry | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await madeWhole(gateFile(env, entry.h), JSON.stringify(entry))) return null;
    const there = readGate(env, entry.h);
    // our own claim: the link was made, but its reply was lost and told as EEXIST (NFS; round 52 L4)
    if (there && there.c !== undefined && there.c === entry.c) return null;
    if (there) return there;
  }
  throw new ServiceUnavailableError(t.spentListBusy, { code: 'AUTH_LOCK_LOST', hint: t.spentListBusyHint });
}

/**
 * Takes over the claim `unusedId` (turned away unused, and named so by this profile's record): under the claim's change
 * marker (change-marker.ts), the new claim is written over the gate where it still holds that claim (round 51 G1: two
 * takeovers beside a broken list lock both passed). Null once the claim is ours, else the claim that stands; another
 * change of the claim under way is exit 5, never a claim that stands: nothing was sent (round 57 S2 to S5).
 */
export async function takeOverGate(env: NodeJS.ProcessEnv, entry: SpentEntry, unusedId: string): Promise<SpentEntry | null> {
  const mine = changeOf(unusedId, entry);
  const taken = await takeMarker(env, entry.h, mine);
  if ('underWay' in taken) {
    // changed meanwhile: another claim stands; given back: a claim as any
    const there = readGate(env, entry.h);
    if (there === undefined) return takeGate(env, entry);
    if (there.c !== unusedId) return there;
    throw underWay(taken);
  }
  try {
    const there = readGate(env, entry.h);
    if (there === undefined) return await takeGate(env, entry); // given back, or a claim older than the gates
    if (there.c !== unusedId) return there;
    // a rename over the name: at no moment is the gate missing, so no other claim can be made beside it
    await writeFileAtomic(gateFile(env, entry.h), JSON.stringify(entry), { mode: 0o600 });
    return null;
  } finally {
    await releaseMarker(taken.held, mine);
  }
}

/**
 * A marker's process as the text names it: another machine's with its name; a container's with this host's name, or one
 * from before a restart, as such (round 67 F7): its pid means nothing here.
 */
export function markerPid(m: Pick<Marker, 'pid' | 'host' | 'ns'> | undefined): string | undefined {
  if (!m) return undefined;
  if (m.host !== os.hostname()) return `${m.pid}, ${m.host}`;
  return m.ns !== undefined && m.ns !== PID_SPACE ? t.pidElsewhere({ pid: m.pid }) : `${m.pid}`;
}

/** Exit 5: another process takes over or gives back the same claim this moment (or was killed while writing its marker). */
function underWay(taken: Extract<Taken, { underWay: string }>): ServiceUnavailableError {
  return new ServiceUnavailableError(t.changeUnderWay({ file: taken.underWay, pid: markerPid(taken.marker) }), {
    code: 'AUTH_REFRESH_IN_FLIGHT',
    hint: t.changeUnderWayHint({ file: taken.underWay }),
  });
}

/** What stands against a takeover of the claim `c` of `hash` (for `status`): another claim in its gate. */
export function standingOver(env: NodeJS.ProcessEnv, hash: string, c: string): SpentEntry | undefined {
  const there = readGate(env, hash);
  return there?.c !== c ? there : undefined;
}

/**
 * The claim the gate of `hash` holds, if any. A gate that cannot be read (a hand edit; on a file system without hard
 * links, a process killed between making and writing it) is told as damaged, naming it: never taken for no claim.
 */
export function readGate(env: NodeJS.ProcessEnv, hash: string): SpentEntry | undefined {
  const file = gateFile(env, hash);
  const read = readOwnFile(file, 4096);
  if (read === null) return undefined;
  // another user's gate, or a file where the folder goes: said as such, not as a killed process's (round 51 G3)
  if ('problem' in read && (read.unreadable || read.fileInPath !== undefined))
    throw new ServiceUnavailableError(t.gateUnreadable({ file, problem: read.problem }), {
      code: 'AUTH_SPENT_LIST_DAMAGED',
      hint: read.fileInPath !== undefined ? ft.fileInPathHint({ at: read.fileInPath }) : ft.notReadableHint,
    });
  const checked = 'problem' in read ? { ok: false as const, problem: read.problem } : checkJson(EntrySchema, read.text);
  if (checked.ok && checked.value.h === hash) return checked.value;
  const problem = checked.ok ? 'the hash it holds is not its name' : checked.problem;
  throw new ServiceUnavailableError(t.gateDamaged({ file, problem }), { code: 'AUTH_SPENT_LIST_DAMAGED', hint: t.spentGateDamagedHint({ file }) });
}

/**
 * Removes the gate of `hash` where it holds the claim `c` (given back: the token was never used; round 56 R4: known
 * by its id, not by its time; a claim without one, by its time `at`). Under the claim's change marker, so a takeover of
 * that claim at the same moment either finds the gate gone or writes over it after: its new claim is never removed;
 * where a change of the claim is under way, the gate stays with it. `fresh`: this process made the claim a moment ago
 * and no record names it (the claim's note not made): no takeover can be under way, and a full disk that refused the
 * note needs no marker to take it back (round 57 S1). A damaged gate stays (the next claim says so).
 */
export async function removeGate(env: NodeJS.ProcessEnv, hash: string, c: string | undefined, at: string, fresh = false): Promise<void> {
  const held = (): SpentEntry | undefined => {
    try {
      const there = readGate(env, hash);
      return there && (c !== undefined ? there.c === c : there.at === at) ? there : undefined;
    } catch {
      return undefined;
    }
  };
  const claim = held();
  if (claim === undefined) return;
  if (fresh) return fsp.rm(gateFile(env, hash), { force: true });
  const mine = changeOf(claim.c ?? '');
  const taken = await takeMarker(env, hash, mine);
  if ('underWay' in taken) return;
  try {
    // read again under the marker: a takeover may have written its claim over it before (round 57 S6)
    if (held()?.c === claim.c) await fsp.rm(gateFile(env, hash), { force: true });
  } finally {
    await releaseMarker(taken.held, mine);
  }
}

export { pruneGates } from './gate-prune.js';
