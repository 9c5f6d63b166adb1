// The one command context (gh's factory): what a command may take from outside, built here
// once per run and lazily, so a command that needs no connection loads no sign-in code and
// `--help` loads none of it. Tests replace parts (a connection without a sandbox, a fixed
// clock) through main()'s third argument.
import type { Connection, ConnectionOptions } from '../auth/connection.js';
import type { CredentialStore } from '../auth/credential-store/types.js';
import type { CredentialStoreKind } from '../core/config.js';
import type { Io } from '../core/io.js';
import { UsageError } from '../core/errors.js';
import { dirs, folderOnKernelFs, type Dirs } from '../core/paths.js';
import { packageVersion } from '../core/resources.js';
import { fileTexts as ft } from '../core/texts.js';

export interface CommandContext {
  /** The process's streams, environment, folder and abort signal. */
  io: Io;
  /** meterdata's version (package.json). */
  version: () => string;
  /** Today, as a command reads it (browse's default range). */
  now: () => Date;
  /** meterdata's folders (config, state, cache): METERDATA_HOME or the platform's. */
  paths: () => Dirs;
  /** Where a profile's refresh token is kept. */
  store: (kind: CredentialStoreKind) => Promise<CredentialStore>;
  /** A profile's connection (its credentials and its one rate budget), on this run's environment and signal. */
  connect: (options: Omit<ConnectionOptions, 'env' | 'signal'> & { profile?: string }) => Promise<Connection>;
}

/** The parts a test may give instead of the real ones. */
export type ContextParts = Partial<Omit<CommandContext, 'io'>>;

export function createContext(io: Io, parts: ContextParts = {}): CommandContext {
  // Before any command makes a folder: on /proc or /sys that mkdir would spin for ever.
  const kernel = folderOnKernelFs(io.env);
  if (kernel) throw new UsageError(ft.kernelFs(kernel), ft.kernelFsHint(kernel), 'HOME_ON_KERNEL_FS');
  let paths: Dirs | undefined;
  return {
    io,
    version: packageVersion,
    now: () => new Date(),
    paths: () => (paths ??= dirs(io.env)),
    store: async (kind) => (await import('../auth/credential-store/index.js')).openStore(kind, io.env),
    connect: async (options) => (await import('../auth/connection.js')).openConnection({ ...options, env: io.env, signal: io.signal }),
    ...parts,
  };
}
