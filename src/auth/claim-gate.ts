// One file per refresh token claimed, `<state>/refresh-claims/<sha256>`, made with an exclusive create: of two
// processes claiming one token at one moment exactly one makes it, whatever became of the list's lock (its folder
// removed, a holder stalled past the stale limit, a file system without birth times: rounds 48 F1 and 49 N2). It also
// keeps a claim that a late write of the list dropped (round 49 N4). The list (spent-tokens.ts) keeps the entries
// made before the gates and is read first.
//
// A gate never leaves its name: a claim turned away unused is taken over by writing the new claim over it with a
// rename, and a claim given back is removed, each only by the one process that first made the claim's change marker
// (`<sha256>.<tag>.took`, an exclusive create per claim id, removed again once the change is made). Session 26: before,
// a takeover moved the gate aside to look at it, and the name's absence meanwhile, the asides and putting them back
// cost rounds 52 to 56 eleven findings.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../core/atomic-file.js';
import { readOwnFile } from '../core/bounded-read.js';
import { ServiceUnavailableError } from '../core/errors.js';
import { checkJson } from '../core/file-schema.js';
import { dirs } from '../core/paths.js';
import { EntrySchema, type SpentEntry } from './spent-entry.js';
import { fileTexts as ft } from '../core/texts.js';
import { tokenTexts as t } from './texts-tokens.js';

/** Where the gates are: named when one cannot be made. */
export function gateFolder(env: NodeJS.ProcessEnv): string {
  return path.join(dirs(env).state, 'refresh-claims');
}

const gateFile = (env: NodeJS.ProcessEnv, hash: string): string => path.join(gateFolder(env), hash);

/** The change marker of the claim `c` of `hash`'s gate: its name is fixed by the claim's id (a record's id is any text, so hashed). */
export const markerFile = (env: NodeJS.ProcessEnv, hash: string, c: string): string =>
  path.join(gateFolder(env), `${hash}.${createHash('sha256').update(c, 'utf8').digest('hex').slice(0, 16)}.took`);

/** What a change marker holds: the claim it changes, and the claim a takeover writes in its place (none: a give-back). */
const MarkerSchema = v.looseObject({ of: v.string(), claim: v.optional(EntrySchema) });
interface Marker {
  of: string;
  claim?: SpentEntry;
}

/**
 * Makes `file` holding `text`, durably and whole; false where the name is taken. Written aside, then linked to its
 * name (a link, like an exclusive create, fails where the name is taken): a full disk or a kill while writing leaves
 * no torn file that refuses a token never sent (round 51 G2), only a scratch file.
 */
async function madeWhole(file: string, text: string): Promise<boolean> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writtenNew(scratch, text);
    return await fsp.link(scratch, file).then(
      () => true,
      (e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        // a file system without hard links (FAT, exFAT, some shares): the exclusive create itself, written after
        return NO_LINKS.has(code ?? '') ? writtenNew(file, text) : Promise.reject(e);
      },
    );
  } finally {
    await fsp.rm(scratch, { force: true }).catch(() => undefined);
  }
}

/** What a file system without hard links (FAT, exFAT, some shares) answers a link with. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** `text` in a file made by an exclusive create, synced; false where the name is taken. A failed write removes it. */
async function writtenNew(file: string, text: string): Promise<boolean> {
  const handle = await fsp.open(file, 'wx', 0o600).catch((e: unknown) => ((e as NodeJS.ErrnoException).code === 'EEXIST' ? null : Promise.reject(e)));
  if (handle === null) return false;
  let whole = false;
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    whole = true;
  } finally {
    await handle.close();
    if (!whole) await fsp.rm(file, { force: true }).catch(() => undefined);
  }
  return true;
}

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
 * Takes over the claim `unusedId` (turned away unused, and named so by this profile's record): the one process that
 * makes its change marker writes the new claim over the gate, where the gate still holds that claim (round 51 G1:
 * two takeovers beside a broken list lock both passed). Null once the claim is ours, else the claim that stands: the
 * gate's, where another claim is there; where another takeover or give-back of the same claim is under way (or was
 * killed before its change: the safe side, as the token may be on its way), that one's.
 */
export async function takeOverGate(env: NodeJS.ProcessEnv, entry: SpentEntry, unusedId: string): Promise<SpentEntry | null> {
  const marker = markerFile(env, entry.h, unusedId);
  // another change of the claim under way: what stands, else (the gate given back, the change failed) a claim as any
  if (!(await madeWhole(marker, JSON.stringify({ of: unusedId, claim: entry } satisfies Marker))))
    return (await standingOver(env, entry.h, unusedId)) ?? takeGate(env, entry);
  try {
    const there = readGate(env, entry.h);
    if (there === undefined) return await takeGate(env, entry); // given back, or a claim older than the gates
    if (there.c !== unusedId) return there;
    // a rename over the name: at no moment is the gate missing, so no other claim can be made beside it
    await writeFileAtomic(gateFile(env, entry.h), JSON.stringify(entry), { mode: 0o600 });
    return null;
  } finally {
    await fsp.rm(marker, { force: true }).catch(() => undefined);
  }
}

/**
 * What stands against a takeover of the claim `c` of `hash`, found without changing anything (also for `status`):
 * another claim in the gate; where the gate still holds `c` and a change of it is under way (or was killed before its
 * write), the claim of that takeover, or `c` itself for a give-back; nothing where the takeover would pass.
 */
export function standingOver(env: NodeJS.ProcessEnv, hash: string, c: string): SpentEntry | undefined {
  const there = readGate(env, hash);
  if (there === undefined || there.c !== c) return there;
  const changing = readMarker(markerFile(env, hash, c));
  return changing && (changing.claim ?? there);
}

/** A change marker's content; none where it went meanwhile or cannot be read. */
function readMarker(file: string): Marker | undefined {
  const read = readOwnFile(file, 8192);
  if (read === null || 'problem' in read) return undefined;
  const checked = checkJson(MarkerSchema, read.text);
  return checked.ok ? checked.value : undefined;
}

/** The claim a change marker in the gates' folder is for, to prune it once its gate holds another; none where unreadable. */
export function markerOf(file: string): string | undefined {
  return readMarker(file)?.of;
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
 * that claim at the same moment either finds the gate gone or writes over it after: its new claim is never removed. A
 * damaged gate stays (the next claim says so); where a change of the claim is under way, the gate stays with it.
 */
export async function removeGate(env: NodeJS.ProcessEnv, hash: string, c: string | undefined, at: string): Promise<void> {
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
  const marker = markerFile(env, hash, claim.c ?? '');
  if (!(await madeWhole(marker, JSON.stringify({ of: claim.c ?? '' } satisfies Marker)))) return;
  try {
    if (held()?.c === claim.c) await fsp.rm(gateFile(env, hash), { force: true });
  } finally {
    await fsp.rm(marker, { force: true }).catch(() => undefined);
  }
}

export { pruneGates } from './gate-prune.js';
