// The state folder's record of refresh tokens already sent, kept as SHA-256 hashes (never the
// token). A sign-in record copied to a second profile, or restored from a backup, holds a
// refresh token that the server may already have rotated; presenting it revokes the landlord's
// whole connection. The refresh lock and the intent are per profile and cannot see a copy, so
// every refresh first claims its token here, durably and under this file's own lock, before the
// request leaves: a token found already claimed is never sent, whatever profile holds it. One
// list serves the file store and the keychain alike.
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../core/atomic-file.js';
import { readOwnFile } from '../core/bounded-read.js';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { checkJson } from '../core/file-schema.js';
import { dirs } from '../core/paths.js';
import { PID_SPACE_TAG } from '../core/pid.js';
import { fileTexts as ft } from '../core/texts.js';
import { diskRefusal } from '../core/disk.js';
import { diskWords as dw } from '../core/texts-disk.js';
import type { StoredRecord } from './credential-store/index.js';
import { lockNotTaken, withLockAt, type RefreshLock } from './lock.js';
import { EntrySchema, type SpentEntry } from './spent-entry.js';
import { gateFolder, pruneGates, readGate, removeGate, takeGate, takeOverGate } from './claim-gate.js';
import { refreshInFlight, stillInFlight } from './refresh-intent.js';
import { markedUncertain } from './refresh-outcome.js';
import { RefreshAnswerLostError } from './token-exchange.js';
import { tokenTexts as t } from './texts-tokens.js';

/** Entries kept at most; the oldest go first (an hourly refresh for more than a year of one profile). */
export const SPENT_MAX_ENTRIES = 10_000;
/** Entries older than this go (the contract's connection dies after 90 days unused; kept well beyond). */
export const SPENT_MAX_AGE_MS = 400 * 86_400_000;
/** 10,000 entries are about 1.2 MB. */
const SPENT_MAX_BYTES = 4 << 20;

export type { SpentEntry } from './spent-entry.js';

/** One refresh's claims: the id of its latest, and the claim of this profile's it may take over (turned away unused). */
export interface ClaimState {
  id?: string;
  takeOver?: string;
}

const ListSchema = v.looseObject({ v: v.literal(1), spent: v.array(EntrySchema) });

export function spentFile(env: NodeJS.ProcessEnv): string {
  return path.join(dirs(env).state, 'refresh-tokens-spent.json');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The list with `entry` added, without entries older than the age bound, at most SPENT_MAX_ENTRIES (newest kept). */
export function withEntry(list: readonly SpentEntry[], entry: SpentEntry, now: number): SpentEntry[] {
  // An entry dated ahead of this clock (a clock stepped back) is kept: dropping it early would lose the guard.
  const kept = list.filter((e) => now - Date.parse(e.at) < SPENT_MAX_AGE_MS);
  return [...kept, entry].slice(-SPENT_MAX_ENTRIES);
}

export function findSpent(list: readonly SpentEntry[], token: string): SpentEntry | undefined {
  const h = tokenHash(token);
  return list.find((e) => e.h === h);
}

/** Parsed list, or what is wrong with it (in the run's language). */
export function parseSpent(text: string): { ok: true; value: SpentEntry[] } | { ok: false; problem: string } {
  const checked = checkJson(ListSchema, text);
  return checked.ok ? { ok: true, value: checked.value.spent } : checked;
}

/**
 * The list; none yet is an empty one. A damaged list stops the refresh (exit 5) instead of being
 * started afresh: a fresh list would no longer know the tokens already sent, and a copied record
 * would then revoke its connection. Nothing is sent or marked, so no connection is lost.
 */
export function readSpent(env: NodeJS.ProcessEnv): SpentEntry[] {
  const file = spentFile(env);
  const read = readOwnFile(file, SPENT_MAX_BYTES);
  if (read === null) return [];
  const parsed = 'problem' in read ? { ok: false as const, problem: read.problem } : parseSpent(read.text);
  if (parsed.ok) return parsed.value;
  // another user's list (root's after a `sudo meterdata export`) is not damaged: it is given back (round 26)
  const unreadable = 'problem' in read && read.unreadable === true;
  throw new ServiceUnavailableError((unreadable ? t.spentListUnreadable : t.spentListDamaged)({ file, problem: parsed.problem }), {
    code: 'AUTH_SPENT_LIST_DAMAGED',
    hint: unreadable ? ft.notReadableHint : t.spentListDamagedHint,
  });
}

async function writeSpent(env: NodeJS.ProcessEnv, list: SpentEntry[]): Promise<void> {
  await writeFileAtomic(spentFile(env), JSON.stringify({ v: 1, spent: list }), { mode: 0o600 });
}

/**
 * Claims `token` for a refresh about to be sent: returns the entry of whoever sent it before
 * (then nothing is written and the token must not be sent), or null once our entry is durable.
 * An entry of this profile's whose id `state.takeOver` names was turned away unused and could not be given back
 * (round 27 F9): it is replaced by the new claim, not taken for a sent token. A claim's id is new every time, so a
 * record restored from a backup that names an older claim never matches a later one.
 */
export function claimRefreshToken(env: NodeJS.ProcessEnv, token: string, profile: string, at: string, state: ClaimState = {}, signal?: AbortSignal) {
  // a stop ends the wait for the list's lock: nothing has been sent yet (round 45 F4: heard after 57 s)
  return withLockAt(env, spentFile(env), (lock) => claimHeld(env, token, profile, at, state, lock), signal);
}

/** The ids of this process's claims by token hash and time: a claim is given back by its id (round 56 R4). */
const claimedHere = new Map<string, string>();

/** A claim not noted (its gate or the list not written, `at` the path): nothing is sent, and its gate goes with it. */
async function notNoted(env: NodeJS.ProcessEnv, claim: SpentEntry, e: unknown, at: string, message: (reason: string) => string): Promise<never> {
  if (e instanceof ServiceUnavailableError) throw e; // a damaged gate, or one that came and went twice
  await removeGate(env, claim.h, claim.c, claim.at, true).catch(() => undefined);
  const code = (e as NodeJS.ErrnoException).code ?? '';
  // the hint fits the cause (round 53 N5: a link left where the folder goes was told to free disk space, a read-only mount to chown)
  const hint =
    code === 'EROFS'
      ? t.readOnlyHint
      : ['EACCES', 'EPERM'].includes(code)
        ? dw.deniedHint
        : ['ENOENT', 'ENOTDIR', 'EEXIST', 'ELOOP'].includes(code)
          ? ft.fileInPathHint({ at })
          : dw.hint;
  throw new ServiceUnavailableError(message(diskRefusal(e)?.why ?? (e instanceof Error ? e.message : String(e))), {
    code: 'AUTH_STORE_WRITE_FAILED',
    hint,
    cause: e,
  });
}

async function claimHeld(env: NodeJS.ProcessEnv, token: string, profile: string, at: string, state: ClaimState, lock: RefreshLock): Promise<SpentEntry | null> {
  const list = readSpent(env);
  const h = tokenHash(token);
  const found = findSpent(list, token) ?? readGate(env, h);
  const unused = found !== undefined && isClaim(found, state.takeOver, profile);
  if (found && !unused) return found;
  const entry: SpentEntry = { h, at, profile, c: randomBytes(8).toString('hex'), pid: process.pid, host: os.hostname(), ns: PID_SPACE_TAG };
  // before the gate: a torn change marker left by a kill goes an hour on (round 57 S4); before the lock's last look, as
  // a prune of many gates takes a while (round 56 R6)
  await pruneGates(env, SPENT_MAX_AGE_MS, Date.now()).catch(() => undefined);
  // Taken over while stalled: another holder may have added an entry that this write would drop.
  if (!(await lock.stillHeld())) throw new ServiceUnavailableError(t.spentListBusy, { code: 'AUTH_LOCK_LOST', hint: t.spentListBusyHint });
  // The one step two claims of a token cannot both pass, whatever became of the list's lock (claim-gate.ts), also
  // where a claim turned away unused is taken over.
  const other = await (unused ? takeOverGate(env, entry, state.takeOver!) : takeGate(env, entry)).catch((e: unknown) =>
    notNoted(env, entry, e, gateFolder(env), (reason) => t.spentClaimNotWritten({ folder: gateFolder(env), reason })),
  );
  if (other) return other;
  await writeSpent(env, withEntry(unused ? list.filter((e) => e !== found) : list, entry, Date.now())).catch((e: unknown) =>
    notNoted(env, entry, e, spentFile(env), (reason) => t.spentListNotWritten({ file: spentFile(env), reason })),
  );
  claimedHere.set(`${h}\u0000${at}`, entry.c!);
  // turned away, this claim is ours to take over (between429's resend); it was never a token sent
  state.id = state.takeOver = entry.c;
  return null;
}

/**
 * Gives our claim back: the refresh failed before its request could reach the server. Taken over
 * while stalled between reading and writing, the list is read again under a new lock, since our
 * write would drop a claim the new holder added; taken over twice, the claim stays (the safe side:
 * the next run asks for a sign-in instead of sending).
 */
export async function releaseClaim(env: NodeJS.ProcessEnv, token: string, at: string): Promise<void> {
  const h = tokenHash(token);
  const c = claimedHere.get(`${h}\u0000${at}`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const done = await withLockAt(env, spentFile(env), async (lock) => {
      const list = readSpent(env);
      const rest = list.filter((e) => !(e.h === h && (c !== undefined ? e.c === c : e.at === at)));
      if (rest.length !== list.length) {
        if (!(await lock.stillHeld())) return false;
        await writeSpent(env, rest);
      }
      await removeGate(env, h, c, at);
      return true;
    });
    if (done) return;
  }
  throw new ServiceUnavailableError(t.spentListBusy, { code: 'AUTH_LOCK_LOST', hint: t.spentListBusyHint });
}

/** Who sent `token` before, if anyone (read without the lock: for status and messages). */
export function spentBy(env: NodeJS.ProcessEnv, token: string): SpentEntry | undefined {
  return findSpent(readSpent(env), token) ?? readGate(env, tokenHash(token));
}

/**
 * Exit 3: this record's refresh token was sent before (a copied or restored record, or this profile's own
 * earlier run whose answer was lost or whose claim could not be given back); it is never sent again.
 */
export class RefreshTokenSpentError extends NotSignedInError {
  constructor(
    readonly entry: SpentEntry,
    profile: string,
    relogin: string,
  ) {
    const message = entry.profile === profile ? t.spentBySelf({ at: entry.at }) : t.spentByOther({ at: entry.at, by: entry.profile });
    super(message, { code: 'AUTH_REFRESH_SPENT', hint: relogin });
  }
}

/**
 * A claim of `profile`'s, a short while ago, by another process on this machine that still runs: its refresh may be on
 * its way, so the token is not sent, but the record is no copy's either (the refresh lock did not keep the two apart:
 * a holder stalled past the stale limit, or the lock's folder removed while both ran: round 47 M1′).
 */
export function claimedInFlight(entry: SpentEntry, profile: string): entry is SpentEntry & { pid: number; host: string } {
  const { pid, host, ns } = entry;
  // a pid from 1 only: kill(0) and kill(-n) ask about a process group, which a hand-edited list must not stand for (round 48 F5)
  const aPid = pid !== undefined && Number.isSafeInteger(pid) && pid > 0;
  return entry.profile === profile && aPid && host !== undefined && stillInFlight({ at: entry.at, pid, host, ...(ns === undefined ? {} : { ns }) });
}

/** The error for a token found claimed: a refresh on its way in another process of this profile (exit 5, AUTH_REFRESH_IN_FLIGHT), or sent before (exit 3). */
export function claimedError(earlier: SpentEntry, profile: string, relogin: string): Error {
  if (claimedInFlight(earlier, profile)) return refreshInFlight({ at: earlier.at, pid: earlier.pid, host: earlier.host, ns: earlier.ns }, relogin);
  return new RefreshTokenSpentError(earlier, profile, relogin);
}

/**
 * Claims `token`, then (`beforeSend`: the record's intent) sends it with `send`: a token sent before (by any profile)
 * is never sent (RefreshTokenSpentError). Whatever fails before the token could be used gives the claim back; an
 * answer lost after sending keeps it, as the record's mark does. The claim comes first: it is the one step another
 * process cannot pass at the same moment, so only its winner writes an intent over the record (round 47 M1′).
 */
export async function sendOnce<T>(
  env: NodeJS.ProcessEnv,
  token: string,
  profile: string,
  at: string,
  relogin: string,
  send: () => Promise<T>,
  state: ClaimState = {},
  signal?: AbortSignal,
  beforeSend?: () => Promise<void>,
): Promise<T> {
  const earlier = await claimRefreshToken(env, token, profile, at, state, signal);
  if (earlier) throw claimedError(earlier, profile, relogin);
  try {
    await beforeSend?.();
    return await send();
  } catch (e) {
    // a claim the 429's wait could not give back (giveBack), or could not take again (reclaim), is not tried again:
    // another minute on a held lock (round 31 F4, round 32 F2)
    const settled = keptClaims.has(e as object) || unclaimed.has(e as object);
    if (!(e instanceof RefreshAnswerLostError) && !settled) await releaseClaim(env, token, at).catch(() => keep(e, state.id));
    throw e;
  }
}

/** Gives the claim `id` back (a 429's wait); where it cannot be, the failure carries the claim for the record (settledAfter) and is thrown. */
export async function giveBack(env: NodeJS.ProcessEnv, token: string, at: string, id: string | undefined): Promise<void> {
  try {
    await releaseClaim(env, token, at);
  } catch (e) {
    keep(e, id);
    throw e;
  }
}

const keptClaims = new WeakMap<object, string>();
/** Failures of a claim taken again after a 429's wait that wrote nothing: the claim was given back before the wait. */
const unclaimed = new WeakSet<object>();

/** Claims `token` again after a 429's wait (between429's resend): a lock that could not be had or was lost leaves nothing to give back. */
export async function reclaim(env: NodeJS.ProcessEnv, token: string, profile: string, at: string, state: ClaimState): Promise<SpentEntry | null> {
  try {
    return await claimRefreshToken(env, token, profile, at, state);
  } catch (e) {
    // the lock not taken (held, damaged, refused by the disk) or lost
    if (lockNotTaken(e) || (e instanceof ServiceUnavailableError && e.code === 'AUTH_LOCK_LOST')) unclaimed.add(e);
    throw e;
  }
}

/** A claim of a token never used that could not be given back: the record names it (settledAfter), so the next run may take it over. */
function keep(e: unknown, id: string | undefined): void {
  if (typeof e === 'object' && e !== null && id !== undefined) keptClaims.set(e, id);
}

/** The record after a refresh that failed with `e`: marked when its token was sent (an answer lost after sending) or sent before by a copy, so nobody sends it again; as it was otherwise (the token was not used). */
export function settledAfter(e: unknown, current: StoredRecord): StoredRecord {
  if (e instanceof RefreshAnswerLostError) return markedUncertain(current);
  if (e instanceof RefreshTokenSpentError) return markedUncertain(current, e.entry.at);
  const kept = typeof e === 'object' && e !== null ? keptClaims.get(e) : undefined;
  return kept === undefined ? current : { ...current, refresh_claim_unused: kept };
}

/** The list's entry is this record's own claim of a token turned away unused (ClaimState.takeOver): not a token sent. */
export const unusedClaimOf = (entry: SpentEntry, rec: StoredRecord, profile: string): boolean => isClaim(entry, rec.refresh_claim_unused, profile);

/** The entry is the claim `id` of `profile`'s (never an entry without an id). */
const isClaim = (entry: SpentEntry, id: string | undefined, profile: string): boolean => id !== undefined && entry.c === id && entry.profile === profile;
