// How meterdata proves the client's identity at /oauth/token and /oauth/revoke.
// Secrets never come from argv: the keychain/file record, stdin or METERDATA_CLIENT_SECRET.
import * as oidc from 'openid-client';
import type { CryptoKey } from 'openid-client';
import { importJWK, importPKCS8, type JWK } from 'jose';
import type { Profile } from '../core/config.js';
import { readOwnFile } from '../core/bounded-read.js';
import { UsageError } from '../core/errors.js';
import { signInTexts as t } from './texts.js';

export async function clientAuthFor(profile: Profile, secret: string | undefined): Promise<oidc.ClientAuth> {
  switch (profile.client_auth) {
    case 'none':
      return oidc.None();
    case 'client_secret_basic':
      if (!secret) {
        throw new UsageError(t.noSecret, t.noSecretHint, 'AUTH_NO_CLIENT_SECRET');
      }
      return oidc.ClientSecretBasic(secret);
    case 'private_key_jwt': {
      const key = await loadPrivateKey(profile);
      return oidc.PrivateKeyJwt({ key, kid: profile.kid });
    }
  }
}

/** The key file's text. A key is a few KB: a FIFO, a device or a huge file named here is refused, never waited on. */
function readKeyFile(file: string): string {
  let read: ReturnType<typeof readOwnFile> = null;
  let why = 'ENOENT';
  try {
    read = readOwnFile(file);
  } catch (e) {
    why = (e as NodeJS.ErrnoException).code ?? 'error';
  }
  if (read && 'text' in read) return read.text;
  throw new UsageError(t.keyUnreadable({ file, code: read ? read.problem : why }), t.keyUnreadableHint, 'AUTH_PRIVATE_KEY_UNREADABLE');
}

async function loadPrivateKey(profile: Profile): Promise<CryptoKey> {
  const file = profile.private_key_file;
  const alg = profile.alg ?? 'RS256';
  if (!file) throw new UsageError(t.noKey, t.noKeyHint, 'AUTH_NO_PRIVATE_KEY');
  const text = readKeyFile(file);
  try {
    const trimmed = text.trim();
    if (trimmed.startsWith('{')) {
      const jwk = JSON.parse(trimmed) as JWK;
      if (!jwk.d) throw new Error(t.keyNotPrivate);
      return (await importJWK(jwk, alg)) as CryptoKey;
    }
    return await importPKCS8(trimmed, alg);
  } catch (e) {
    throw new UsageError(t.keyInvalid({ file, alg, reason: (e as Error).message }), t.keyInvalidHint, 'AUTH_PRIVATE_KEY_INVALID');
  }
}

/** The secret for client_secret_basic: environment first, then what login stored. */
export function clientSecretFrom(env: NodeJS.ProcessEnv, stored: string | undefined): string | undefined {
  return env.METERDATA_CLIENT_SECRET || stored;
}
