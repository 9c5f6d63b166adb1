// The stored record a token answer makes (a login's or a refresh's).
import type * as oidc from 'openid-client';
import { ExitCode, MeterdataError } from '../core/errors.js';
import type { StoredRecord } from './credential-store/types.js';
import { lifetimeOf } from './lifetime.js';
import { tokenTexts as t } from './texts-tokens.js';

/** The stored record after a token answer; the refresh token is kept if the server sent none. */
export function recordFromTokens(tokens: oidc.TokenEndpointResponse, prev: Partial<StoredRecord>, now = Date.now()): StoredRecord {
  const refresh = tokens.refresh_token ?? prev.refresh_token;
  if (!refresh) {
    throw new MeterdataError(t.noRefreshToken, {
      code: 'AUTH_NO_REFRESH_TOKEN',
      exitCode: ExitCode.NOT_SIGNED_IN,
      hint: t.noRefreshTokenHint,
    });
  }
  const expiresIn = lifetimeOf(tokens.expires_in);
  // Checked where the answer arrives (unusableAnswer); here only so no invalid date is ever stored.
  if (typeof expiresIn !== 'number') throw new Error(t.badLifetime({ value: expiresIn.bad }));
  const rec: StoredRecord = {
    v: 1,
    refresh_token: refresh,
    access_token: tokens.access_token,
    access_expires_at: new Date(now + expiresIn * 1000).toISOString(),
    token_type: String(tokens.token_type).toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    updated_at: new Date(now).toISOString(),
  };
  if (prev.dpop_jwk) rec.dpop_jwk = prev.dpop_jwk;
  if (prev.client_secret) rec.client_secret = prev.client_secret;
  // the profile's count of refreshes goes on with the new tokens (a login starts it afresh)
  if (prev.refreshes_sent !== undefined) rec.refreshes_sent = prev.refreshes_sent;
  if (tokens.scope) rec.scope = tokens.scope;
  return rec;
}
