// Two token requests with the same authorization code running at the same time: oidc-provider
// finds the code in both before either consumes it, so both could get tokens. The in-flight
// guard (single-use.ts) makes the second one revoke the connection; the first then answers
// invalid_grant too. A code presented again after the first finished is oidc-provider's
// own reuse rule (also revokes).
import type Provider from 'oidc-provider';
import instance from 'oidc-provider/lib/helpers/weak_cache.js';
import { oauthError, type GrantCtx } from './refresh.js';
import { holdForStorage, InFlight } from './single-use.js';

const CONCURRENT = 'the authorization code was redeemed twice concurrently';

export function guardCodeGrant(provider: Provider, revokeConnection: (sid: string, reason: string) => Promise<boolean>): void {
  const handlers = instance(provider).grantTypeHandlers;
  const original = handlers.get('authorization_code');
  if (!original) throw new Error('oidc-provider has no authorization_code grant handler to wrap');
  const inFlight = new InFlight();

  async function revoke(code: string): Promise<void> {
    const grantId = (await provider.AuthorizationCode.find(code, { ignoreExpiration: true }))?.grantId;
    if (grantId) await revokeConnection(grantId, CONCURRENT);
  }
  const refuse = (ctx: GrantCtx) => oauthError(ctx, 'invalid_grant', `${CONCURRENT}; the connection is revoked, start a new authorization flow`);

  handlers.set('authorization_code', async (raw) => {
    const ctx = raw as GrantCtx;
    const code = ctx.oidc.params?.code;
    if (typeof code !== 'string' || !code) return original(ctx);
    const slot = inFlight.enter(code);
    if (!slot) {
      await revoke(code);
      return refuse(ctx);
    }
    try {
      await holdForStorage();
      await original(ctx);
      if (slot.collided) {
        await revoke(code);
        refuse(ctx);
      }
    } finally {
      slot.leave();
    }
  });
}
