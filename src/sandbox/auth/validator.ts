// Checks the Authorization (and DPoP) headers of /v1 requests against the provider's
// token store, the connection registry and the sandbox clock.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import type Provider from 'oidc-provider';
import type { Clock, TokenCheck, TokenValidator } from '../contracts.js';
import { ACCESS_TOKEN_TTL_S, type ConnectionRegistry } from './registry.js';

export const DPOP_IAT_TOLERANCE_S = 60;
const DPOP_ALGS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'];

interface StoredAccessToken {
  jti: string;
  grantId?: string;
  clientId: string;
  aud?: string | string[];
  scope?: string;
  jkt?: string;
  extra?: Record<string, unknown>;
}

export interface ValidatorDeps {
  provider: Provider;
  registry: ConnectionRegistry;
  clock: Clock;
  resource: string;
}

const bad = (error: 'invalid_token' | 'invalid_dpop_proof', description: string, scheme: 'Bearer' | 'DPoP' = 'Bearer'): TokenCheck => ({
  ok: false,
  error,
  description,
  scheme,
});

export function createTokenValidator(d: ValidatorDeps): TokenValidator {
  /** DPoP proof jti -> real-time expiry (ms); proofs are single-use within their window. */
  const seenProofs = new Map<string, number>();

  async function checkProof(req: IncomingMessage, publicUrl: string, token: string, jkt: string): Promise<string | undefined> {
    const proof = req.headers.dpop;
    if (typeof proof !== 'string' || !proof) return 'a DPoP header with a proof is required for this DPoP-bound token';
    let payload;
    let header;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: DPOP_ALGS }));
    } catch (e) {
      return `DPoP proof is not valid: ${(e as Error).message}`;
    }
    const jwk = header.jwk as JWK;
    if ('d' in jwk || 'k' in jwk) return 'DPoP proof jwk must be a public key';
    if ('nonce' in payload) return 'DPoP nonces are not used by this server; send a proof without nonce';
    if (payload.htm !== req.method) return 'DPoP proof htm does not match the request method';
    const htu = typeof payload.htu === 'string' ? URL.parse(payload.htu) : null;
    if (!htu) return 'DPoP proof htu is missing';
    htu.search = '';
    htu.hash = '';
    if (htu.href !== new URL(publicUrl).href) return `DPoP proof htu must be ${publicUrl}`;
    // iat is compared with real time: clients sign with their own clock, not the sandbox's.
    const now = Date.now() / 1000;
    if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > DPOP_IAT_TOLERANCE_S) return 'DPoP proof iat is not within 60 seconds';
    if (typeof payload.jti !== 'string' || !payload.jti) return 'DPoP proof jti is missing';
    for (const [k, exp] of seenProofs) if (exp < Date.now()) seenProofs.delete(k);
    if (seenProofs.has(payload.jti)) return 'DPoP proof was already used (jti replay)';
    const ath = createHash('sha256').update(token).digest('base64url');
    if (payload.ath !== ath) return 'DPoP proof ath does not match the access token';
    if ((await calculateJwkThumbprint(jwk)) !== jkt) return 'DPoP proof key is not the key the token is bound to';
    seenProofs.set(payload.jti, Date.now() + 2 * DPOP_IAT_TOLERANCE_S * 1000);
    return undefined;
  }

  return {
    tenantAccessEnabled: (tenantId) => d.registry.tenantAccessEnabled(tenantId),

    async validate(req, publicUrl) {
      const header = req.headers.authorization ?? '';
      const [scheme = '', value = '', ...rest] = header.split(' ');
      const kind = scheme.toLowerCase();
      if (!value || rest.length || (kind !== 'bearer' && kind !== 'dpop')) return bad('invalid_token', 'send Authorization: Bearer <access token>');
      const found = (await d.provider.AccessToken.find(value)) as unknown as StoredAccessToken | undefined;
      if (!found) return bad('invalid_token', 'the access token is unknown, expired or revoked');
      const auds = Array.isArray(found.aud) ? found.aud : [found.aud];
      if (!auds.includes(d.resource)) return bad('invalid_token', 'the access token was issued for another resource (wrong audience)');
      const conn = found.grantId ? d.registry.get(found.grantId) : undefined;
      if (!conn || conn.state === 'revoked') return bad('invalid_token', 'the connection was revoked; sign in again');
      if (!d.registry.tenantAccessEnabled(conn.tenant_id)) return bad('invalid_token', "the landlord's API access has ended");
      const issued = d.registry.issuedAt(found.jti) ?? d.clock.now().getTime();
      const expiresAt = Math.floor(issued / 1000) + ACCESS_TOKEN_TTL_S;
      if (d.clock.now().getTime() / 1000 >= expiresAt) return bad('invalid_token', 'the access token has expired; refresh it');
      if (found.jkt) {
        if (kind !== 'dpop') return bad('invalid_token', 'this token is DPoP-bound; send Authorization: DPoP <token> with a DPoP proof', 'DPoP');
        const problem = await checkProof(req, publicUrl, value, found.jkt);
        if (problem) return bad('invalid_dpop_proof', problem, 'DPoP');
      } else if (kind === 'dpop') {
        return bad('invalid_token', 'this token is not DPoP-bound; send it as Bearer');
      }
      return {
        ok: true,
        token: {
          sid: conn.sid,
          client_id: found.clientId,
          tenant_id: conn.tenant_id,
          scopes: (found.scope ?? '').split(' ').filter(Boolean),
          property_scope: conn.property_scope,
          expires_at: expiresAt,
        },
      };
    },
  };
}
