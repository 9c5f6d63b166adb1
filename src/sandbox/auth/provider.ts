// oidc-provider configured to the Partner API contract (Authentication section).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration } from 'oidc-provider';
import { SCOPES, toProviderMetadata, type ClientRegistration } from '../clients.js';
import type { MemoryStore } from './adapter.js';
import type { ConnectionRegistry } from './registry.js';
import { ACCESS_TOKEN_TTL_S, REFRESH_IDLE_MS } from './registry.js';
import { renderOAuthError } from './pages.js';

export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;
export const CLIENT_AUTH_ALGS = ['RS256', 'PS256', 'ES256'];
const FORBIDDEN_ASSERTION_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit'];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** http loopback URIs match a registered one whatever their port (RFC 8252 section 7.3). */
export function loopbackMatch(value: string, registered: string[]): boolean {
  const u = URL.parse(value);
  if (!u || u.protocol !== 'http:' || !LOOPBACK_HOSTS.has(u.hostname)) return false;
  u.port = '';
  return registered.some((r) => {
    const ru = URL.parse(r);
    if (!ru || ru.protocol !== 'http:') return false;
    ru.port = '';
    return ru.href === u.href;
  });
}

export interface ProviderDeps {
  issuer: string;
  /** The REST API resource (origin) and the AI-assistant server's. */
  resource: string;
  assistantResource: string;
  clients: ClientRegistration[];
  store: MemoryStore;
  registry: ConnectionRegistry;
}

function assertClientAssertion(issuer: string) {
  return async (_ctx: unknown, claims: Record<string, unknown>, header: Record<string, unknown>, client: { clientId: string }) => {
    const bad = FORBIDDEN_ASSERTION_HEADERS.filter((h) => h in header);
    if (bad.length) throw new errors.InvalidClientAuth(`client_assertion header must not contain ${bad.join(', ')}`);
    if (typeof header.kid !== 'string') throw new errors.InvalidClientAuth('client_assertion header must name a registered key (kid)');
    if (claims.sub !== client.clientId) throw new errors.InvalidClientAuth('sub (JWT subject) must be the client_id');
    const { iat, exp } = claims;
    if (typeof iat !== 'number') throw new errors.InvalidClientAuth('iat must be provided in the client_assertion JWT');
    if (typeof exp !== 'number' || exp - iat > 300 || exp < iat) throw new errors.InvalidClientAuth('iat and exp must be at most 5 minutes apart');
    const auds = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const accepted = [`${issuer}${ROUTES.token}`, issuer];
    if (!auds.some((a) => accepted.includes(a as string))) throw new errors.InvalidClientAuth('aud must be the token endpoint URL (or the issuer identifier)');
  };
}

export function createProvider(deps: ProviderDeps): Provider {
  const { issuer, resource, assistantResource, registry } = deps;
  const resourceScope = SCOPES.join(' ');
  const config = {
    adapter: deps.store.adapterClass(),
    clients: deps.clients.map(toProviderMetadata),
    clientAuthMethods: ['none', 'client_secret_basic', 'private_key_jwt'],
    clientAuthSigningAlgValues: CLIENT_AUTH_ALGS,
    dPoPSigningAlgValues: ['ES256', 'PS256', 'RS256', 'EdDSA', 'ES384'],
    responseTypes: ['code'],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], id_token_signed_response_alg: 'ES256' },
    scopes: ['openid', 'offline_access'],
    // Opaque tokens only; this key signs nothing clients rely on but silences the dev-key warning.
    jwks: { keys: [{ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'sandbox', use: 'sig', alg: 'ES256' }] },
    routes: ROUTES,
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // A client may only end its own connections; others still get 200 (RFC 7009).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId,
      },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== resource && indicator !== assistantResource) throw new errors.InvalidTarget(`unknown resource ${indicator}; use ${resource}`);
          return { scope: resourceScope, audience: indicator, accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' };
        },
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_IDLE_MS / 1000,
      Grant: 10 * 365 * 86400,
      Interaction: 3600,
      Session: 14 * 86400,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // Every authorization shows the consent screen and makes a new connection, even in a browser
    // that consented before (changing the selection means consenting again).
    loadExistingGrant: async (ctx: { oidc: { result?: { consent?: { grantId?: string } }; provider: Provider } }) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    revokeGrantPolicy: () => true,
    extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) => {
      const conn = token.grantId ? registry.get(token.grantId) : undefined;
      if (!conn) return undefined;
      return { sid: conn.sid, tenant_id: conn.tenant_id, property_scope: conn.property_scope };
    },
    assertJwtClientAuthClaimsAndHeader: assertClientAssertion(issuer),
    renderError: async (ctx: Parameters<typeof renderOAuthError>[0], out: { error: string; error_description?: string }) => renderOAuthError(ctx, out),
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  };
  // @types/oidc-provider trails v9 (clientAuthSigningAlgValues, async hooks), hence the cast.
  const provider = new Provider(issuer, config as unknown as Configuration);
  const proto = provider.Client.prototype as unknown as { redirectUriAllowed(v: string): boolean; redirectUris: string[] };
  const exact = proto.redirectUriAllowed;
  proto.redirectUriAllowed = function (this: typeof proto, value: string) {
    return exact.call(this, value) || loopbackMatch(value, this.redirectUris);
  };
  return provider;
}

/** RFC 8414 metadata; the issuer is the sandbox origin. */
export function discoveryDocument(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${ROUTES.authorization}`,
    token_endpoint: `${issuer}${ROUTES.token}`,
    revocation_endpoint: `${issuer}${ROUTES.revocation}`,
    jwks_uri: `${issuer}${ROUTES.jwks}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    scopes_supported: [...SCOPES],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: CLIENT_AUTH_ALGS,
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'private_key_jwt'],
    revocation_endpoint_auth_signing_alg_values_supported: CLIENT_AUTH_ALGS,
    dpop_signing_alg_values_supported: ['ES256', 'PS256', 'RS256', 'EdDSA', 'ES384'],
  };
}
