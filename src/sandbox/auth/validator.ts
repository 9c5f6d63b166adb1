// Checks the Authorization (and DPoP) headers of /v1 requests against the provider's
// token store, the connection registry and the sandbox clock.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { calculateJwkThumbprint } from 'jose';
import type Provider from 'oidc-provider';
import type { Clock, TokenCheck, TokenValidator } from '../contracts.js';
import { checkDpopProof, type DpopReplayCache } from './dpop.js';
import { ACCESS_TOKEN_TTL_S, type ConnectionRegistry } from './registry.js';

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
  /** Shared with the token endpoint: a proof is single-use across both. */
  replay: DpopReplayCache;
}

const bad = (error: 'invalid_token' | 'invalid_dpop_proof', description: string, scheme: 'Bearer' | 'DPoP' = 'Bearer'): TokenCheck => ({
  ok: false,
  error,
  description,
  scheme,
});

export function createTokenValidator(d: ValidatorDeps): TokenValidator {
  async function checkProof(req: IncomingMessage, publicUrl: string, token: string, jkt: string): Promise<string | undefined> {
    const proof = req.headers.dpop;
    if (typeof proof !== 'string' || !proof) return 'a DPoP header with a proof is required for this DPoP-bound token';
    const checked = await checkDpopProof(proof, req.method ?? 'GET', publicUrl, d.replay);
    if (!checked.ok) return checked.problem;
    const ath = createHash('sha256').update(token).digest('base64url');
    if (checked.payload.ath !== ath) return 'DPoP proof ath does not match the access token';
    if ((await calculateJwkThumbprint(checked.jwk)) !== jkt) return 'DPoP proof key is not the key the token is bound to';
    d.replay.remember(checked.payload.jti!, checked.payload.iat!);
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
