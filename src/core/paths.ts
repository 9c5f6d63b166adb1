import { statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Dirs {
  /** Profiles (config.json). */
  config: string;
  /** Credentials file store, locks, export journals. */
  state: string;
  cache: string;
}

/**
 * Where meterdata keeps its files. METERDATA_HOME overrides everything (tests
 * and portable installs); otherwise XDG on Linux and the platform's own elsewhere.
 */
export function dirs(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Dirs {
  const home = env.METERDATA_HOME;
  if (home) {
    // relative, it put config.json and the refresh token under whichever folder a command ran in (round 34 F3)
    if (!path.isAbsolute(home)) throw new HomeUnknownError(home);
    return { config: path.join(home, 'config'), state: path.join(home, 'state'), cache: path.join(home, 'cache') };
  }
  // An empty or relative HOME counts as unset, as XDG's variables below: it put config.json and the refresh token in the
  // working folder, and the next command from another folder was "not signed in" (round 32 F8).
  // Without either (a container's user with no account entry and such a HOME: round 33 F1) nothing is guessed, where a
  // folder needs it (not where XDG's variables name all three: round 34 F4).
  const absolute = (h: string | undefined) => (h && path.isAbsolute(h) ? h : undefined);
  let known: string | undefined;
  const userHome = (): string => {
    // once per dirs(): without HOME each folder read the account database again
    known ??= absolute(env.HOME) ?? absolute(accountHome());
    if (known === undefined) throw new HomeUnknownError();
    return known;
  };
  if (platform === 'darwin') {
    const base = path.join(userHome(), 'Library', 'Application Support', 'meterdata');
    return { config: base, state: path.join(base, 'state'), cache: path.join(userHome(), 'Library', 'Caches', 'meterdata') };
  }
  if (platform === 'win32') {
    // An empty variable counts as unset (as XDG's do below): '' would put the files in the working folder.
    const appData = env.APPDATA || path.join(userHome(), 'AppData', 'Roaming');
    const local = env.LOCALAPPDATA || path.join(userHome(), 'AppData', 'Local');
    return { config: path.join(appData, 'meterdata'), state: path.join(local, 'meterdata', 'state'), cache: path.join(local, 'meterdata', 'cache') };
  }
  // The XDG Base Directory spec: a relative path in these variables is invalid and must be ignored
  // (it would put meterdata's folders, the compile cache on every start, in the working folder).
  const xdg = (name: string, ...below: string[]) => {
    const value = env[name];
    return path.join(value && path.isAbsolute(value) ? value : path.join(userHome(), ...below), 'meterdata');
  };
  return { config: xdg('XDG_CONFIG_HOME', '.config'), state: xdg('XDG_STATE_HOME', '.local', 'state'), cache: xdg('XDG_CACHE_HOME', '.cache') };
}

/** statfs types of Linux's kernel file systems: procfs and sysfs. */
const KERNEL_FS = new Set([0x9fa0, 0x62656572]);

/**
 * Whether `dir` (or its nearest existing folder) lies on /proc or /sys, where Node's recursive mkdir
 * never returns (ENOENT there makes it try the parent again and again, at full CPU).
 */
export function onKernelFs(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      return KERNEL_FS.has(statfsSync(at).type);
    } catch {
      // not there (yet): its parent decides
    }
    if (path.dirname(at) === at) return false;
  }
}

/** The first of meterdata's folders on /proc or /sys, and the variable that put it there; undefined when none is. */
export function folderOnKernelFs(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): { variable: string; dir: string } | undefined {
  const d = dirs(env, platform);
  const xdg = { config: 'XDG_CONFIG_HOME', state: 'XDG_STATE_HOME', cache: 'XDG_CACHE_HOME' } as const;
  for (const key of ['config', 'state', 'cache'] as const) {
    if (!onKernelFs(d[key], platform)) continue;
    const own = env[xdg[key]];
    const variable = env.METERDATA_HOME ? 'METERDATA_HOME' : own && path.isAbsolute(own) ? xdg[key] : 'HOME';
    return { variable, dir: d[key] };
  }
  return undefined;
}

/** The home folder of the user's account (its passwd entry), not $HOME (which os.homedir() would give back); none where the system has no entry. */
function accountHome(): string | undefined {
  try {
    return os.userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** Neither HOME nor the user's account gives an absolute home folder: where meterdata keeps its files cannot be told (cli.ts says so). */
export class HomeUnknownError extends Error {
  readonly code = 'HOME_UNKNOWN';
  /** `relative`: METERDATA_HOME as given, not a full path. */
  constructor(readonly relative?: string) {
    super(
      relative === undefined
        ? 'no absolute home folder: HOME is empty or relative, and the user has no account entry'
        : `METERDATA_HOME is relative: ${relative}`,
    );
  }
}
