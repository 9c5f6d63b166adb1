// `meterdata token`: a valid access token on stdout for scripts (refreshed if needed).
import type { Io } from '../core/io.js';
import { openConnection } from '../auth/connection.js';

export async function run(opts: Record<string, unknown>, io: Io, _args: string[] = []): Promise<number> {
  const conn = await openConnection({ profile: opts.profile as string | undefined, env: io.env, signal: io.signal });
  io.stdout.write(`${await conn.credentials.currentToken()}\n`);
  return 0;
}
