// DPoP (RFC 9449): one ES256 key pair per connection, created at login and kept with
// its tokens in the credential store. Proofs for API calls are made here; proofs for
// the token endpoint come from openid-client's DPoP handle over the same key pair.
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, importJWK, SignJWT, type JWK } from 'jose';
import type { CryptoKey, CryptoKeyPair } from 'openid-client';

export interface DpopKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export async function generateDpopKey(): Promise<{ key: DpopKey; privateJwk: JWK }> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJwk = await exportJWK(pair.privateKey);
  return { key: await importDpopKey(privateJwk), privateJwk };
}

export async function importDpopKey(privateJwk: JWK): Promise<DpopKey> {
  const { d: _d, key_ops: _ops, ext: _ext, ...pub } = privateJwk;
  const privateKey = (await importJWK({ ...privateJwk, key_ops: undefined, ext: undefined }, 'ES256', { extractable: false })) as CryptoKey;
  const publicKey = (await importJWK(pub, 'ES256', { extractable: true })) as CryptoKey;
  const publicJwk: JWK = { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y };
  return { privateKey, publicKey, publicJwk };
}

/** A fresh proof for one request: htm, htu (without query and fragment), iat, jti, ath. */
export async function dpopProof(key: DpopKey, method: string, url: string, accessToken?: string, now = Date.now()): Promise<string> {
  const u = new URL(url);
  const htu = `${u.origin}${u.pathname}`;
  const claims: Record<string, unknown> = { htm: method.toUpperCase(), htu, iat: Math.floor(now / 1000), jti: randomUUID() };
  if (accessToken) claims.ath = createHash('sha256').update(accessToken).digest('base64url');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.publicJwk }).sign(key.privateKey);
}
