// `meterdata token`: a valid access token on stdout for scripts (refreshed if needed).
import type { Io } from '../../core/io.js';
import { openConnection } from '../../auth/connection.js';
import type { TokenFlags } from './index.js';

export async function run(opts: TokenFlags, io: Io, _args: string[] = []): Promise<number> {
  // The override needs no API, profile or base URL: print it as it is (never refreshed).
  if (io.env.METERDATA_ACCESS_TOKEN) {
    io.stdout.write(`${io.env.METERDATA_ACCESS_TOKEN}\n`);
    return 0;
  }
  const conn = await openConnection({ profile: opts.profile, env: io.env, signal: io.signal, warn: (l) => io.stderr.write(l) });
  io.stdout.write(`${await conn.credentials.currentToken()}\n`);
  return 0;
}
