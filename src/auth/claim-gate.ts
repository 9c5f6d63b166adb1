// One file per refresh token claimed, `<state>/refresh-claims/<sha256>`, made with an exclusive create: of two
// processes claiming one token at one moment exactly one makes it, whatever became of the list's lock (its folder
// removed, a holder stalled past the stale limit, a file system without birth times: rounds 48 F1 and 49 N2). It also
// keeps a claim that a late write of the list dropped (round 49 N4). The list (spent-tokens.ts) keeps the entries
// made before the gates and is read first.
import { randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { readOwnFile } from '../core/bounded-read.js';
import { statQuiet } from './gate-prune.js';
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

/**
 * How long a takeover that finds no gate waits for one moved aside to come back (a takeover checks it in
 * milliseconds), looking for its gate every REAPPEAR_POLL_MS and listing the folder for gates held aside every
 * ASIDE_POLL_MS (a listing of tens of thousands of gates takes a while; round 55 Q6).
 */
const REAPPEAR_MS = 1_000;
const REAPPEAR_POLL_MS = 25;
const ASIDE_POLL_MS = 250;

const gateFile = (env: NodeJS.ProcessEnv, hash: string): string => path.join(gateFolder(env), hash);

/** Whether a name in the gates' folder is a gate of `hash` moved aside by a takeover (`<hash>.<pid>.<hex>.taken.tmp`). */
const asideOf = (hash: string) => (name: string) => name.startsWith(`${hash}.`) && name.endsWith('.taken.tmp');

/** A gate moved aside gone before it was read or put back: whose claim it held cannot be told, so nothing is claimed. */
const vanished = (file: string) => new ServiceUnavailableError(t.gateVanished({ file }), { code: 'AUTH_LOCK_LOST', hint: t.spentListBusyHint });

/**
 * Makes the gate of `entry`'s token, durably and whole; false where one is there already (another claim of the token).
 * Written aside, then linked to its name (a link, like an exclusive create, fails where the name is taken): a full
 * disk or a kill while writing leaves no torn gate that refuses a token never sent (round 51 G2), only a scratch file.
 */
async function openGate(env: NodeJS.ProcessEnv, entry: SpentEntry): Promise<boolean> {
  const file = gateFile(env, entry.h);
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writtenNew(scratch, JSON.stringify(entry));
    return await fsp.link(scratch, file).then(
      () => true,
      (e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        // a file system without hard links (FAT, exFAT, some shares): the exclusive create itself, written after
        return NO_LINKS.has(code ?? '') ? writtenNew(file, JSON.stringify(entry)) : Promise.reject(e);
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
    if (await openGate(env, entry)) return null;
    const there = readGate(env, entry.h);
    // our own claim: the link was made, but its reply was lost and told as EEXIST (NFS; round 52 L4)
    if (there && there.c !== undefined && there.c === entry.c) return null;
    if (there) return there;
  }
  throw new ServiceUnavailableError(t.spentListBusy, { code: 'AUTH_LOCK_LOST', hint: t.spentListBusyHint });
}

/**
 * Takes over the claim `unusedId` (turned away unused, and named so by this profile's record): its gate is moved
 * aside by a rename, which only one process can do to one name, and the new gate is made as any claim's (round 51 G1:
 * replaced in place, two takeovers beside a broken list lock both passed). A gate moved aside that is not that claim
 * (another process's, made meanwhile), or that cannot be read, is put back where its name is still free. Null once the
 * claim is ours, else the claim that stands.
 */
export async function takeOverGate(env: NodeJS.ProcessEnv, entry: SpentEntry, unusedId: string): Promise<SpentEntry | null> {
  const file = gateFile(env, entry.h);
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.taken.tmp`;
  const moved = await fsp.rename(file, aside).then(
    () => true,
    (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? false : Promise.reject(e)),
  );
  if (!moved) {
    // No gate: another takeover may have it aside this moment, to check it and put it back (round 52 L2: a third
    // made its own gate in that gap, the one put back was lost, and a live connection was told to sign in again).
    return (await reappearing(env, entry, unusedId)) ?? takeGate(env, entry);
  }
  let was: SpentEntry | undefined;
  try {
    was = gateAt(aside, entry.h, file);
  } catch (e) {
    await putBack(aside, file); // a damaged gate stays where it was: never taken for no claim (round 53 N3)
    throw e;
  }
  // moved aside and gone before it was read (given back meanwhile, or another program): whose it was cannot be told, so nothing is claimed
  if (was === undefined) throw vanished(file);
  if (was.c === unusedId) {
    await fsp.rm(aside, { force: true });
    return takeGate(env, entry);
  }
  await putBack(aside, file);
  return was;
}

/**
 * Puts a gate moved aside back under its name where that is still free, then removes the aside: by a link, else (links
 * refused: FAT, exFAT, some shares; another user's gate under Linux's protected hard links; a full disk) by renaming
 * it back, which keeps the file a claim still writing it writes to (round 54 P1: a copy of its bytes made an empty
 * gate for good). A name taken meanwhile is a third claim's, which stands. Where neither works, the aside stays:
 * it still counts as the claim (`reappearing`), never as none (round 54 P3).
 */
async function putBack(aside: string, file: string): Promise<void> {
  const refused = await fsp.link(aside, file).then(
    () => null,
    (e: unknown) => (e as NodeJS.ErrnoException).code ?? '',
  );
  // back by the link, or the name taken meanwhile: a third claim's, which stands
  if (refused === null || refused === 'EEXIST') return fsp.rm(aside, { force: true });
  // gone meanwhile: given back by its claim (removeGate), or removed by another program
  if (refused === 'ENOENT' && statQuiet(aside, false) === undefined) throw vanished(file);
  // a name taken between this look and the rename would be written over: a moment, where links are refused only
  if (statQuiet(file, false) === undefined) await fsp.rename(aside, file);
  else await fsp.rm(aside, { force: true });
}

/**
 * The claim that stands where a takeover found no gate, within REAPPEAR_MS: its gate come back, or a gate another
 * takeover holds aside that is not the unused claim (round 53 N2: past the wait, a third made its own gate beside
 * it). None: the takeover claims.
 */
async function reappearing(env: NodeJS.ProcessEnv, entry: SpentEntry, unusedId: string): Promise<SpentEntry | undefined> {
  // by the monotonic clock: a step of the wall clock neither ends the wait at once nor keeps it for an hour (round 56 R2)
  const until = performance.now() + REAPPEAR_MS;
  for (let listed = -Infinity; ;) {
    const now = performance.now();
    const listNow = now - listed >= ASIDE_POLL_MS || now >= until;
    if (listNow) listed = now;
    const there = readGate(env, entry.h) ?? (listNow ? heldAside(env, entry.h, (held) => held.c !== unusedId && !givenBack.has(held.c ?? '')) : undefined);
    if (there || (listNow && now >= until)) return there;
    await new Promise((resolve) => setTimeout(resolve, REAPPEAR_POLL_MS));
  }
}

/**
 * The ids of the claims this process gave back (releaseClaim): never sent, so never one that stands against its own next
 * try (round 55 Q2: such a claim held aside by another takeover was taken for another's, and a token never sent was
 * told to be signed in again). Kept in memory, not told by pid: a dead process with the same pid (a container's pid 1)
 * may have sent its claim (round 56 R1).
 */
const givenBack = new Set<string>();

/** Notes that this process gives back its claim `c`: its token was never sent. */
export function givingBack(c: string): void {
  givenBack.add(c);
}

/**
 * A claim of `hash` that `counts` in a gate moved aside by a takeover (`<hash>.<pid>.<hex>.taken.tmp`). A damaged one
 * is told by its own name (round 55 Q3: the gate's name, which did not exist), never taken for no claim.
 */
export function heldAside(env: NodeJS.ProcessEnv, hash: string, counts: (held: SpentEntry) => boolean = () => true): SpentEntry | undefined {
  let names: string[];
  try {
    names = readdirSync(gateFolder(env)).filter(asideOf(hash));
  } catch {
    return undefined;
  }
  for (const name of names) {
    const held = gateAt(path.join(gateFolder(env), name), hash);
    if (held && counts(held)) return held;
  }
  return undefined;
}

/**
 * The claim the gate of `hash` holds, if any. A gate that cannot be read (a hand edit; on a file system without hard
 * links, a process killed between making and writing it) is told as damaged, naming it: never taken for no claim.
 */
export function readGate(env: NodeJS.ProcessEnv, hash: string): SpentEntry | undefined {
  return gateAt(gateFile(env, hash), hash);
}

/** The claim the gate at `at` holds; `file`: the name the messages give (a gate moved aside is told by the name it goes back to). */
function gateAt(at: string, hash: string, file = at): SpentEntry | undefined {
  const read = readOwnFile(at, 4096);
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
 * Removes the gate of `hash` where it holds the claim made at `at` (given back: the token was never used), and a gate a
 * takeover holds aside with that claim, or that takeover would put back a claim never sent (round 55 Q1: every later run
 * was then told to sign in again; round 56 R3: also where it was moved aside between this look and the removal).
 */
export async function removeGate(env: NodeJS.ProcessEnv, hash: string, at: string): Promise<void> {
  // a second look where the first found it nowhere: moved between the listing and the read, it is at the other name now
  for (let look = 0; look < 2 && !(await removedFrom(env, hash, at)); look++);
}

async function removedFrom(env: NodeJS.ProcessEnv, hash: string, at: string): Promise<boolean> {
  const names = await fsp.readdir(gateFolder(env)).catch(() => [] as string[]);
  let removed = false;
  for (const name of [hash, ...names.filter(asideOf(hash))]) {
    const file = path.join(gateFolder(env), name);
    let held: SpentEntry | undefined;
    try {
      held = gateAt(file, hash);
    } catch {
      continue; // a damaged gate stays: the next claim says so
    }
    if (held?.at !== at) continue;
    await fsp.rm(file, { force: true });
    removed = true;
  }
  return removed;
}

export { pruneGates } from './gate-prune.js';
