// Profiles: one landlord connection each, kept in <config>/config.json. Nothing secret
// is ever written here: tokens, client secrets and DPoP keys live in the credential store.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { setTimeout as sleep } from 'node:timers/promises';
import { OWN_FILE_MAX, readOwnFile } from './bounded-read.js';
import { ServiceUnavailableError, UsageError } from './errors.js';
import { checkJson, checkValue } from './file-schema.js';
import { ConfigSchema, ProfileSchema } from './config-schema.js';
import { coreTexts as t, fileTexts as ft } from './texts.js';
import { dirs } from './paths.js';
import { writeFileAtomic } from './atomic-file.js';
import { diskRefusal } from './disk.js';

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'private_key_jwt';
export type CredentialStoreKind = 'keychain' | 'file';

export interface Profile {
  name: string;
  /** Issuer of the authorization server. */
  auth_url: string;
  /** API base including `/v1`. */
  base_url: string;
  /** RFC 8707 resource: the origin of base_url. */
  resource: string;
  client_id: string;
  client_auth: ClientAuthMethod;
  /** private_key_jwt only: where the key is (a path, never the key itself). */
  private_key_file?: string;
  kid?: string;
  alg?: 'RS256' | 'PS256' | 'ES256';
  dpop: boolean;
  scopes: string[];
  credential_store: CredentialStoreKind;
  // Reconciled from /whoami after every token issue and refresh.
  tenant_id?: string;
  tenant_name?: string;
  client_id_seen?: string;
  granted_scopes?: string[];
  property_scope?: 'all' | string[];
  /** Names of the Properties in scope (when read:units was granted). */
  property_names?: string[];
  last_refresh_at?: string;
  access_expires_at?: string;
}

export interface Preset {
  auth_url?: string;
  base_url?: string;
  client_id?: string;
}

export interface ConfigFile {
  presets?: { sandbox?: Preset; production?: Preset };
  profiles?: Record<string, Profile>;
}

export const DEFAULT_SCOPES = ['read:units', 'read:devices', 'read:readings'];
export const SANDBOX_CLIENT_ID = 'sandbox-demo-client';

export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(dirs(env).config, 'config.json');
}

export async function readConfig(env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  const file = configFile(env);
  const read = readOwnFile(file);
  if (read === null) return {};
  if ('problem' in read) {
    const hint = read.unreadable ? ft.notReadableHint : read.fileInPath === undefined ? ft.configHint : ft.fileInPathHint({ at: read.fileInPath });
    throw new UsageError(ft.configDamaged({ file, problem: read.problem }), hint, 'CONFIG_INVALID');
  }
  const checked = checkJson(ConfigSchema, read.text);
  if (!checked.ok) throw new UsageError(ft.configDamaged({ file, problem: checked.problem }), ft.configHint, 'CONFIG_INVALID');
  return checked.value as ConfigFile;
}

/**
 * Every profile, each checked: one damaged profile is named with its field. Profiles are
 * checked where they are read, not in readConfig, so a damaged one does not stop the others
 * and an update of another profile writes it back unchanged.
 */
export async function loadProfiles(env: NodeJS.ProcessEnv): Promise<Record<string, Profile>> {
  const profiles = (await readConfig(env)).profiles ?? {};
  const spellings = caseSpellings(profiles);
  for (const name of Object.keys(profiles)) {
    const twin = spellings.get(name.toLowerCase())!.find((k) => k !== name);
    if (twin !== undefined) throw new UsageError(ft.caseTwins({ a: name, b: twin, file: configFile(env) }), ft.caseTwinsHint, 'CONFIG_PROFILE_INVALID');
    checkedProfile(env, name, profiles[name]);
  }
  return profiles;
}

/**
 * The profile of that name, if config.json (`read`: as read once for many profiles) has one. A name that differs from
 * another entry only in case is refused, also before a login creates it: the credentials file (`Alpha.json`,
 * `alpha.json`), the keychain entry on Windows and a portfolio's folder ignore case on Windows and macOS, so one
 * profile would use, or a login overwrite, the other's connection.
 */
export async function loadProfile(env: NodeJS.ProcessEnv, name: string, read?: ConfigFile): Promise<Profile | undefined> {
  const profiles = (read ?? (await readConfig(env))).profiles;
  const twin = caseTwin(profiles, name);
  if (twin !== undefined) {
    // both entries there: the file is to be corrected (not replaced by a login, which would write the one sign-in both share)
    const file = configFile(env);
    if (own(profiles, name)) throw new UsageError(ft.caseTwins({ a: name, b: twin, file }), ft.caseTwinsHint, 'PROFILE_NAME_INVALID');
    throw new UsageError(ft.caseTwin({ name, twin, file }), ft.caseTwinHint({ twin }), 'PROFILE_NAME_INVALID');
  }
  const raw = own(profiles, name);
  return raw === undefined ? undefined : checkedProfile(env, name, raw);
}

/**
 * Every profile of config.json that loadProfile would give, the file read once (otherHolder read it once per profile:
 * 1,200 profiles took 14 s, round 37b); one it would refuse is left out.
 */
export async function loadableProfiles(env: NodeJS.ProcessEnv): Promise<Profile[]> {
  const profiles = (await readConfig(env)).profiles ?? {};
  const out: Profile[] = [];
  const spellings = caseSpellings(profiles);
  for (const name of Object.keys(profiles)) {
    if (spellings.get(name.toLowerCase())!.length > 1) continue;
    try {
      out.push(checkedProfile(env, name, profiles[name]));
    } catch {
      // damaged or misnamed: holds nothing a caller could use
    }
  }
  return out;
}

/** Each name's spellings in config.json, by its lower case: found in one pass (caseTwin per name is quadratic, round 39 F5). */
function caseSpellings(profiles: Record<string, unknown>): Map<string, string[]> {
  const spellings = new Map<string, string[]>();
  for (const name of Object.keys(profiles)) {
    const folded = name.toLowerCase();
    const seen = spellings.get(folded);
    if (seen) seen.push(name);
    else spellings.set(folded, [name]);
  }
  return spellings;
}

/** Another entry whose name is `name` in other letter case (the spellings found once per file as read). */
function caseTwin(profiles: Record<string, unknown> | undefined, name: string): string | undefined {
  if (profiles === undefined) return undefined;
  return (spelt.get(profiles) ?? spelt.set(profiles, caseSpellings(profiles)).get(profiles)!).get(name.toLowerCase())?.find((k) => k !== name);
}
const spelt = new WeakMap<object, Map<string, string[]>>();

/**
 * The profile of that name, if the file has one: `--profile constructor` (a valid name) must
 * not find Object.prototype.constructor and call it a damaged profile.
 */
function own(profiles: Record<string, Profile> | undefined, name: string): Profile | undefined {
  return profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

function checkedProfile(env: NodeJS.ProcessEnv, name: string, raw: unknown): Profile {
  const file = configFile(env);
  // The key names the connection everywhere (its credentials, its --out folder in a portfolio):
  // an entry copied under another key would be another profile's connection, and a name such
  // as "../x" would find its tokens outside the credential store.
  if (!PROFILE_NAME.test(name))
    throw new UsageError(ft.profileKeyInvalid({ profile: name, file }), ft.profileKeyHint({ profile: name }), 'CONFIG_PROFILE_INVALID');
  const checked = checkValue(ProfileSchema, raw);
  if (!checked.ok)
    throw new UsageError(ft.profileDamaged({ profile: name, file, problem: checked.problem }), ft.profileHint({ profile: name }), 'CONFIG_PROFILE_INVALID');
  if (checked.value.name !== name) {
    throw new UsageError(
      ft.profileDamaged({ profile: name, file, problem: ft.nameNotKey({ name: checked.value.name }) }),
      ft.nameNotKeyHint({ profile: name }),
      'CONFIG_PROFILE_INVALID',
    );
  }
  return checked.value;
}

/** Read-modify-write of config.json under a lock, written atomically; never one it would refuse to read back. */
/** `signal` (a stop) ends the wait for the file's lock with its reason; nothing is written then. */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (c: ConfigFile) => ConfigFile, signal?: AbortSignal): Promise<void> {
  const file = configFile(env);
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const release = await lockConfig(file, signal);
  try {
    await writeFileAtomic(file, configText(change(await readConfig(env)), file), { mode: 0o600 });
  } finally {
    await release();
  }
}

/**
 * config.json as written: indented where that fits what readConfig reads back, else compact (a file made compact by a
 * person or a tool, or grown near the bound, stays writable: a logout removing fields of a compact file was refused,
 * round 40a F1), and never beyond the bound (round 37c F1: a login past about 2,300 profiles wrote a file every later
 * command refused). `reserve`: bytes kept free for what is yet to come.
 */
function configText(config: ConfigFile, file: string, reserve = 0, refusal = ft.configFull): string {
  const fits = (text: string) => Buffer.byteLength(text) + reserve <= OWN_FILE_MAX;
  const indented = `${JSON.stringify(config, null, 2)}\n`;
  if (fits(indented)) return indented;
  const compact = `${JSON.stringify(config)}\n`;
  if (fits(compact)) return compact;
  throw new UsageError(refusal({ file, mib: OWN_FILE_MAX >> 20 }), ft.configFullHint, 'CONFIG_FULL');
}

/** Room kept for what /whoami adds to a new sign-in's profile (its tenant, scopes and Property names). */
const FACTS_RESERVE = 64 << 10;

/**
 * Refused before a login's browser step where config.json has no room for the profile it writes: refused only after
 * the code was redeemed, the new sign-in would be stored for a profile the file does not name (round 39 F2).
 */
export async function assertRoomFor(env: NodeJS.ProcessEnv, profile: Profile): Promise<void> {
  const c = await readConfig(env);
  const next = { ...c, profiles: { ...c.profiles, [profile.name]: { ...profile, last_refresh_at: new Date().toISOString() } } };
  // "would grow" is not true of a profile signed in again, whose entry is replaced (round 40a F6)
  configText(next, configFile(env), FACTS_RESERVE, ft.configNoRoom);
}

/** A lock not refreshed for this long is a killed writer's (proper-lockfile refreshes a held one every 5 s). */
const CONFIG_LOCK_STALE_MS = 10_000;

/** How long a held lock is waited for: past the stale bound, so a killed writer's lock is taken over. */
const CONFIG_LOCK_WAIT_MS = 17_000;

/**
 * config.json's lock. A held lock is waited for (about 17 s), past the stale bound, so a lock left by a
 * writer killed just before is taken over rather than refused. A lock held longer, or one that is no lock
 * folder (a file or pipe left there), is CONFIG_LOCKED naming the lock to remove (before: "unexpected
 * failure", exit 1). Only a held lock is waited for: a settings folder the disk will not write (read-only,
 * no permission, full) is told at once as such (disk.ts), not after 17 s as a lock to remove.
 */
async function lockConfig(file: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  // proper-lockfile would take a file or pipe there for a held lock until the wait ran out.
  const found = await fsp.lstat(lock).catch(() => undefined);
  if (found && !found.isDirectory())
    throw new ServiceUnavailableError(ft.configLockDamaged({ lock, reason: ft.notLockFolder }), { code: 'CONFIG_LOCKED', hint: ft.configLockHint({ lock }) });
  const until = Date.now() + CONFIG_LOCK_WAIT_MS;
  for (let pause = 25; ; pause = Math.min(250, pause * 2)) {
    // a stop is heard within a pause, not after the whole wait (it was deaf for up to 17 s: session 23's note)
    if (signal?.aborted) throw signal.reason;
    try {
      return await lockfile.lock(file, { realpath: false, stale: CONFIG_LOCK_STALE_MS, retries: 0 });
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === 'ELOCKED' && Date.now() < until) {
        await sleep(pause, undefined, { signal }).catch(() => undefined);
        continue;
      }
      if (diskRefusal(e)) throw e;
      const message = code === 'ELOCKED' ? ft.configLockHeld({ file }) : ft.configLockDamaged({ lock, reason: typeof code === 'string' ? code : String(e) });
      throw new ServiceUnavailableError(message, { code: 'CONFIG_LOCKED', hint: ft.configLockHint({ lock }), cause: e });
    }
  }
}

export async function saveProfile(env: NodeJS.ProcessEnv, profile: Profile, signal?: AbortSignal): Promise<void> {
  await updateConfig(env, (c) => ({ ...c, profiles: { ...c.profiles, [profile.name]: profile } }), signal);
}

/** Sets some fields of an existing profile (no-op when the profile is gone). */
export async function setProfileFields(env: NodeJS.ProcessEnv, name: string, fields: Partial<Omit<Profile, 'name'>>, signal?: AbortSignal): Promise<void> {
  await updateConfig(env, (c) => changedProfile(c, name, (p) => ({ ...p, ...fields })), signal);
}

export async function removeProfileFields(env: NodeJS.ProcessEnv, name: string, fields: (keyof Profile)[], signal?: AbortSignal): Promise<void> {
  const without = (p: Profile) => Object.fromEntries(Object.entries(p).filter(([k]) => !fields.includes(k as keyof Profile))) as unknown as Profile;
  await updateConfig(env, (c) => changedProfile(c, name, without), signal);
}

/** `c` with the profile `name` changed; as it was where there is none. */
function changedProfile(c: ConfigFile, name: string, change: (p: Profile) => Profile): ConfigFile {
  const p = own(c.profiles, name);
  return p ? { ...c, profiles: { ...c.profiles, [name]: change(p) } } : c;
}

// Not ending in a dot: Windows drops it from a folder's name, so a portfolio's <out>/alpha. would be <out>/alpha.
// Not a Windows device name (con, nul, aux, prn, com1-9, lpt1-9, in any case, with or without an extension part):
// <out>\con is the console, and credentials\nul.json a device on Windows 10 and older (round 26).
const PROFILE_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9_-])?$/;
const WINDOWS_DEVICE = /^(con|nul|aux|prn|com[1-9¹²³]|lpt[1-9¹²³])(\.|$)/i;
const PROFILE_NAME = { test: (name: string) => PROFILE_PATTERN.test(name) && !WINDOWS_DEVICE.test(name) };

/**
 * A name a portfolio's root gives its own files and folders (the summary, the manifest, a month's folder): a profile so
 * named is refused by every --all-profiles (its folder would be taken for one), so `login` does not make one (round 32 F2).
 */
export const reservedInPortfolio = (name: string): boolean =>
  ['portfolio-summary.csv', 'meterdata-manifest.json'].includes(name.toLowerCase()) || /^\d{4}-\d{2}$/.test(name);

export function resolveProfileName(opts: { profile?: unknown }, env: NodeJS.ProcessEnv): string {
  const name = (typeof opts.profile === 'string' && opts.profile) || env.METERDATA_PROFILE || 'default';
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(t.profileNameInvalid({ name }), t.profileNameHint, 'PROFILE_NAME_INVALID');
  }
  return name;
}
