// The sandbox authorization server: oidc-provider plus the guard, consent pages,
// connection registry and the token validator the /v1 API uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { SCOPES, type ClientRegistration } from '../clients.js';
import type { Clock, Directory, TokenValidator } from '../contracts.js';
import { MemoryStore } from './adapter.js';
import { createConsentHandler } from './consent.js';
import { guardCodeGrant } from './code-grant.js';
import { DpopReplayCache } from './dpop.js';
import { createGuard } from './guard.js';
import { guardRefreshGrant } from './refresh.js';
import { createProvider, discoveryDocument, ROUTES } from './provider.js';
import { ConnectionRegistry, type Connection } from './registry.js';
import { createTokenValidator } from './validator.js';
import { setupTexts } from '../texts-setup.js';

export type { Connection } from './registry.js';

export interface AuthServerOptions {
  /** Origin of the sandbox: issuer and REST API resource. */
  origin: string;
  clock: Clock;
  directory: Directory;
  clients: ClientRegistration[];
  autoConsent?: boolean;
  /** With autoConsent: the tenant (id or name) consents are approved for where the client names none (default: the first enabled one). */
  autoConsentTenant?: string;
  /** /oauth/* requests per minute per client and per caller address (0: off). */
  oauthRateLimitPerMinute?: number;
}

export interface AuthServer {
  provider: Provider;
  issuer: string;
  resource: string;
  assistantResource: string;
  registry: ConnectionRegistry;
  validator: TokenValidator;
  /** Handles everything outside /v1 and /admin. */
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  revokeConnection(sid: string, reason: string): Promise<boolean>;
  endAccess(tenantId: string): Promise<Connection[]>;
  enableAccess(tenantId: string): void;
  /** Revokes connections idle for 90 days (otherwise noticed at their next refresh); returns them. */
  expireIdle(): Connection[];
}

/**
 * Each client's auto-consent tenant (id or name) as a tenant id, else the sandbox's own
 * (--auto-consent-tenant); an unknown one is a mistake in the clients file or the flag.
 */
function autoConsentTenants(clients: ClientRegistration[], directory: Directory, fallback?: string): (clientId: string) => string | undefined {
  const known = () =>
    directory
      .tenants()
      .map((x) => `${x.id} "${x.name}"`)
      .join(', ');
  const own = fallback === undefined ? undefined : directory.tenants().find((x) => x.id === fallback || x.name === fallback);
  if (fallback !== undefined && !own)
    throw Object.assign(new Error(setupTexts.flagTenantUnknown({ tenant: fallback, known: known() })), { code: 'SANDBOX_TENANT_UNKNOWN' });
  const chosen = new Map<string, string>();
  for (const c of clients) {
    if (c.auto_consent_tenant === undefined) continue;
    const t = directory.tenants().find((x) => x.id === c.auto_consent_tenant || x.name === c.auto_consent_tenant);
    if (!t)
      throw Object.assign(new Error(setupTexts.client({ id: c.client_id, why: setupTexts.tenantUnknown({ tenant: c.auto_consent_tenant, known: known() }) })), {
        code: 'SANDBOX_CLIENTS_INVALID',
      });
    chosen.set(c.client_id, t.id);
  }
  return (clientId) => chosen.get(clientId) ?? own?.id;
}

/** A request without `scope` asks for everything the client is registered for. */
function withDefaultScope(url: string, scopesOf: Map<string, string[]>): string {
  const u = new URL(url, 'http://x');
  const registered = scopesOf.get(u.searchParams.get('client_id') ?? '');
  if (u.searchParams.has('scope') || !registered) return url;
  u.searchParams.set('scope', registered.join(' '));
  return `${u.pathname}${u.search}`;
}

const ROUTE_REASON: Record<string, string> = {
  token: 'an authorization code or refresh token was presented again',
  revocation: 'the client revoked a token',
};

export function createAuthServer(o: AuthServerOptions): AuthServer {
  const issuer = o.origin;
  const resource = o.origin;
  const assistantResource = `${o.origin}/assistant`;
  const registry = new ConnectionRegistry(o.clock, o.directory);
  const store = new MemoryStore({
    saved(model, id, payload) {
      if (model === 'AccessToken' || model === 'RefreshToken') registry.tokenIssued(id, payload.grantId, model);
    },
  });
  const replay = new DpopReplayCache();
  const provider = createProvider({ issuer, resource, assistantResource, clients: o.clients, store, registry });

  function revokeNow(sid: string, reason: string): boolean {
    const changed = registry.markRevoked(sid, reason);
    store.revokeByGrantId(sid);
    return changed;
  }
  const revokeConnection = async (sid: string, reason: string) => revokeNow(sid, reason);

  provider.on('grant.revoked', (ctx: { oidc?: { route?: string } }, grantId: string) => {
    registry.markRevoked(grantId, ROUTE_REASON[ctx.oidc?.route ?? ''] ?? 'revoked by the authorization server');
  });
  provider.use(
    createGuard({
      clock: o.clock,
      perMinute: o.oauthRateLimitPerMinute ?? 60,
      dpopBound: new Set(o.clients.filter((c) => c.dpop_bound_access_tokens).map((c) => c.client_id)),
      tokenUrl: `${issuer}${ROUTES.token}`,
      replay,
    }) as Parameters<Provider['use']>[0],
  );
  guardRefreshGrant(provider, { registry, clock: o.clock, revokeConnection });
  guardCodeGrant(provider, revokeConnection);

  const scopesOf = new Map(o.clients.map((c) => [c.client_id, (c.scope ?? SCOPES.join(' ')).split(' ')]));
  const consent = createConsentHandler({
    provider,
    directory: o.directory,
    registry,
    resource,
    autoConsent: o.autoConsent ?? false,
    autoConsentTenant: autoConsentTenants(o.clients, o.directory, o.autoConsentTenant),
    allowedScopes: (clientId) => scopesOf.get(clientId) ?? [],
  });
  const callback = provider.callback();
  const discovery = JSON.stringify(discoveryDocument(issuer));

  return {
    provider,
    issuer,
    resource,
    assistantResource,
    registry,
    validator: createTokenValidator({ provider, registry, clock: o.clock, resource, replay }),
    revokeConnection,
    async endAccess(tenantId) {
      registry.setTenantAccess(tenantId, false);
      const ended = registry.connectionsOfTenant(tenantId);
      for (const c of ended) await revokeConnection(c.sid, "the landlord's API access ended");
      return ended;
    },
    enableAccess: (tenantId) => registry.setTenantAccess(tenantId, true),
    expireIdle() {
      const idle = registry.idle();
      for (const c of idle) revokeNow(c.sid, 'refresh token unused for 90 days');
      return idle;
    },
    handle(req, res) {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/.well-known/oauth-authorization-server' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.end(discovery);
        return;
      }
      if (/^\/interaction\/[^/]+$/.test(path)) return consent(req, res);
      if (path === ROUTES.authorization) req.url = withDefaultScope(req.url ?? '/', scopesOf);
      return callback(req, res);
    },
  };
}
