// Before a refresh token is revoked (logout, or a login replacing a connection): is it another
// profile's connection too? A sign-in record copied to a second profile holds that profile's
// refresh token (or one it has since rotated), and revoking it ends the connection the other
// profile still uses: RFC 7009 revocation of a refresh token ends its whole token family.
import { loadProfile, readConfig } from '../core/config.js';
import { openStore } from './credential-store/index.js';
import { spentBy } from './spent-tokens.js';

/**
 * The other profile whose connection `token` belongs to, if any: the one that sent it (the list
 * of refresh tokens already sent), or one whose record holds it now. `?` when that cannot be told
 * (the list is damaged): revoking is then left out, since leaving a connection to expire costs
 * less than ending one in use.
 */
export async function otherHolder(env: NodeJS.ProcessEnv, token: string, profile: string): Promise<string | null> {
  let sender: string | undefined;
  try {
    sender = spentBy(env, token)?.profile;
  } catch {
    return '?';
  }
  if (sender !== undefined && sender !== profile) return sender;
  const names = Object.keys((await readConfig(env).catch(() => ({ profiles: {} }))).profiles ?? {});
  for (const name of names.filter((n) => n !== profile)) {
    // a profile or record that cannot be read holds nothing we can compare
    const other = await loadProfile(env, name).catch(() => undefined);
    const rec =
      other &&
      (await openStore(other.credential_store, env)
        .read(name)
        .catch(() => null));
    if (rec?.refresh_token === token) return name;
  }
  return null;
}
