// Refresh-token rules oidc-provider does not have, run after client authentication:
// revoked connections, the 90-day idle expiry on the sandbox clock, and two concurrent
// refreshes with the same token (oidc-provider's find-then-consume is not atomic).
import type Provider from 'oidc-provider';
import instance from 'oidc-provider/lib/helpers/weak_cache.js';
import type { Clock } from '../contracts.js';
import { REFRESH_IDLE_MS, type ConnectionRegistry } from './registry.js';
import { holdForStorage, InFlight } from './single-use.js';
const CONCURRENT = 'two refreshes with the same refresh token ran concurrently';

export interface GrantCtx {
  status: number;
  body: unknown;
  set(h: string, v: string): void;
  oidc: { params?: { refresh_token?: unknown; code?: unknown; scope?: unknown } };
}

export interface RefreshDeps {
  registry: ConnectionRegistry;
  clock: Clock;
  revokeConnection(sid: string, reason: string): Promise<boolean>;
}

export function oauthError(ctx: GrantCtx, error: string, description: string): void {
  ctx.status = 400;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

const invalidGrant = (ctx: GrantCtx, description: string) => oauthError(ctx, 'invalid_grant', description);

export function guardRefreshGrant(provider: Provider, d: RefreshDeps): void {
  const handlers = instance(provider).grantTypeHandlers;
  const original = handlers.get('refresh_token');
  if (!original) throw new Error('oidc-provider has no refresh_token grant handler to wrap');
  /** Refresh tokens being redeemed right now; `collided` is set when a second request uses one. */
  const inFlight = new InFlight();
  /**
   * Scope of refresh tokens issued by a refresh that asked for `scope`. oidc-provider checks a
   * requested scope against the grant, so a narrowed connection could widen back; the contract
   * says never widened, so the presented token's own scope is the ceiling.
   */
  const narrowedScope = new Map<string, string>();

  /** invalid_scope when `scope` asks for more than the token's (narrowed) scope; inherits it when absent. */
  function applyNarrowed(ctx: GrantCtx, rt: string): boolean {
    const ceiling = narrowedScope.get(rt);
    const params = ctx.oidc.params!;
    if (ceiling === undefined) return true;
    if (typeof params.scope !== 'string' || !params.scope) {
      params.scope = ceiling;
      return true;
    }
    const allowed = new Set(ceiling.split(' '));
    const wider = params.scope.split(' ').filter((s) => s && !allowed.has(s));
    if (!wider.length) return true;
    oauthError(
      ctx,
      'invalid_scope',
      `this connection was narrowed to "${ceiling}"; ${wider.join(' ')} cannot be requested again (scope may be narrowed, never widened). Sign in again to grant more.`,
    );
    return false;
  }

  async function sidOf(rt: string): Promise<{ sid?: string; jti?: string }> {
    const found = await provider.RefreshToken.find(rt, { ignoreExpiration: true });
    return { sid: found?.grantId, jti: found?.jti };
  }

  handlers.set('refresh_token', async (raw) => {
    const ctx = raw as GrantCtx;
    const rt = ctx.oidc.params?.refresh_token;
    if (typeof rt !== 'string' || !rt) return original(ctx);
    const slot = inFlight.enter(rt);
    if (!slot) {
      const { sid } = await sidOf(rt);
      if (sid) await d.revokeConnection(sid, CONCURRENT);
      return invalidGrant(ctx, `${CONCURRENT}; the connection is revoked, start a new authorization flow`);
    }
    try {
      const { sid, jti } = await sidOf(rt);
      if (sid && d.registry.isRevoked(sid)) return invalidGrant(ctx, 'the connection was revoked; start a new authorization flow');
      const issued = jti ? d.registry.issuedAt(jti) : undefined;
      if (sid && issued !== undefined && d.clock.now().getTime() - issued > REFRESH_IDLE_MS) {
        await d.revokeConnection(sid, 'refresh token unused for 90 days');
        return invalidGrant(ctx, 'the refresh token was unused for 90 days and the connection is revoked; start a new authorization flow');
      }
      if (!applyNarrowed(ctx, rt)) return;
      await holdForStorage();
      try {
        await original(ctx);
      } catch (e) {
        // oidc-provider says invalid_grant when the proof is missing or signed with another key,
        // but the refresh token is still good: a spec client would wrongly drop the connection.
        if ((e as { error_detail?: string }).error_detail !== 'failed jkt verification') throw e;
        return oauthError(ctx, 'invalid_dpop_proof', 'this refresh token is DPoP-bound: send a proof signed with the key the tokens are bound to');
      }
      const answer = ctx.body as { refresh_token?: unknown; scope?: unknown } | undefined;
      if (ctx.oidc.params?.scope && typeof answer?.refresh_token === 'string' && typeof answer.scope === 'string') {
        narrowedScope.delete(rt);
        narrowedScope.set(answer.refresh_token, answer.scope);
      }
      if (sid && slot.collided) await d.revokeConnection(sid, CONCURRENT);
      if (sid && d.registry.isRevoked(sid)) invalidGrant(ctx, 'the connection was revoked while refreshing; start a new authorization flow');
    } finally {
      slot.leave();
    }
  });
}
