// `meterdata token`: a valid access token on stdout for scripts (refreshed if needed).
import type { CommandContext } from '../context.js';
import type { TokenFlags } from './index.js';

export async function run(opts: TokenFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  // The override needs no API, profile or base URL: print it as it is (never refreshed).
  if (io.env.METERDATA_ACCESS_TOKEN) {
    io.stdout.write(`${io.env.METERDATA_ACCESS_TOKEN}\n`);
    return 0;
  }
  const conn = await ctx.connect({ profile: opts.profile, warn: (l) => io.stderr.write(l) });
  io.stdout.write(`${await conn.credentials.currentToken()}\n`);
  return 0;
}
