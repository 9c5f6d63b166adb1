// `meterdata token`: a valid access token on stdout for scripts (refreshed if needed).
import { loginIncomplete } from '../../auth/connection.js';
import { ts } from '../../auth/texts-session.js';
import { ServiceUnavailableError } from '../../core/errors.js';
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
  // it asks no /whoami: a sign-in whose login never learnt its tenant is refused here, before any refresh (round 28)
  if (conn.session && conn.profile.tenant_id === undefined) throw loginIncomplete(conn.profile.name);
  const token = await conn.credentials.currentToken();
  // refreshed now, its landlord unchecked (the refresh's /whoami failed): another landlord's token must not reach a script (round 29)
  if (conn.unchecked)
    throw new ServiceUnavailableError(ts.tokenUnchecked({ reason: conn.unchecked.message }), { code: 'AUTH_TOKEN_UNCHECKED', hint: ts.tokenUncheckedHint });
  io.stdout.write(`${token}\n`);
  return 0;
}
