// Two token requests with the same authorization code running at the same time: oidc-provider
// finds the code in both before either consumes it, so both could get tokens. An in-flight set
// (checked and marked synchronously) makes the second one revoke the connection; the first then
// answers invalid_grant too. A code presented again after the first finished is oidc-provider's
// own reuse rule (also revokes).
import type Provider from 'oidc-provider';
import instance from 'oidc-provider/lib/helpers/weak_cache.js';
import { oauthError, REFRESH_HOLD_MS, type GrantCtx } from './refresh.js';

const CONCURRENT = 'the authorization code was redeemed twice concurrently';

export function guardCodeGrant(provider: Provider, revokeConnection: (sid: string, reason: string) => Promise<boolean>): void {
  const handlers = instance(provider).grantTypeHandlers;
  const original = handlers.get('authorization_code');
  if (!original) throw new Error('oidc-provider has no authorization_code grant handler to wrap');
  const inFlight = new Map<string, { collided: boolean }>();

  async function revoke(code: string): Promise<void> {
    const grantId = (await provider.AuthorizationCode.find(code, { ignoreExpiration: true }))?.grantId;
    if (grantId) await revokeConnection(grantId, CONCURRENT);
  }
  const refuse = (ctx: GrantCtx) => oauthError(ctx, 'invalid_grant', `${CONCURRENT}; the connection is revoked, start a new authorization flow`);

  handlers.set('authorization_code', async (raw) => {
    const ctx = raw as GrantCtx;
    const code = ctx.oidc.params?.code;
    if (typeof code !== 'string' || !code) return original(ctx);
    const running = inFlight.get(code);
    if (running) {
      running.collided = true;
      await revoke(code);
      return refuse(ctx);
    }
    const mine = { collided: false };
    inFlight.set(code, mine);
    try {
      // Emulated storage latency, as for refreshes: concurrent redemptions overlap as in production.
      await new Promise((resolve) => setTimeout(resolve, REFRESH_HOLD_MS));
      await original(ctx);
      if (mine.collided) {
        await revoke(code);
        refuse(ctx);
      }
    } finally {
      inFlight.delete(code);
    }
  });
}
