// PKCE (S256), state, and the checks on the answer that must pass before the code is
// redeemed: iss equals the discovered issuer, state equals what was sent, no error.
import * as oidc from 'openid-client';
import { ExitCode, MeterdataError, NotSignedInError, ServiceUnavailableError, UsageError } from '../core/errors.js';
import { signInTexts as t } from './texts.js';

export interface AuthorizationRequest {
  url: URL;
  state: string;
  verifier: string;
}

export async function buildAuthorizationRequest(
  config: oidc.Configuration,
  p: { redirectUri: string; scopes: string[]; resource: string },
): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    response_type: 'code',
    redirect_uri: p.redirectUri,
    scope: p.scopes.join(' '),
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: p.resource,
  });
  return { url, state, verifier };
}

export type CallbackVerdict = { ok: true; code: string } | { ok: false; error: MeterdataError };

const clean = (s: string | null) => (s ?? '').replace(/[\u0000-\u001f]+/g, ' ').slice(0, 300);

/** Judges the redirect's query. Nothing here contacts the server. `relogin`: "Run `meterdata login …` again" (in the run's language), no full stop. */
export function checkCallback(params: URLSearchParams, expected: { issuer: string; state: string }, relogin: string): CallbackVerdict {
  const iss = params.get('iss');
  if (iss !== expected.issuer) {
    return {
      ok: false,
      error: new MeterdataError(iss === null ? t.noIssuer : t.otherIssuer({ iss: clean(iss), expected: expected.issuer }), {
        code: 'AUTH_ISSUER_MISMATCH',
        exitCode: ExitCode.NOT_SIGNED_IN,
        hint: t.issuerHint({ relogin }),
      }),
    };
  }
  if (params.get('state') !== expected.state) {
    return {
      ok: false,
      error: new MeterdataError(t.stateMismatch, {
        code: 'AUTH_STATE_MISMATCH',
        exitCode: ExitCode.NOT_SIGNED_IN,
        hint: t.stateHint({ relogin }),
      }),
    };
  }
  const error = params.get('error');
  if (error) return { ok: false, error: redirectError(error, clean(params.get('error_description')), relogin) };
  const code = params.get('code');
  if (!code) {
    return { ok: false, error: new MeterdataError(t.noCode, { code: 'AUTH_NO_CODE', exitCode: ExitCode.NOT_SIGNED_IN, hint: `${relogin}.` }) };
  }
  return { ok: true, code };
}

function redirectError(error: string, description: string, relogin: string): MeterdataError {
  const said = description ? ` (${description})` : '';
  switch (error) {
    case 'access_denied':
      return new NotSignedInError(t.accessDenied({ said }), {
        code: 'AUTH_ACCESS_DENIED',
        hint: t.accessDeniedHint({ relogin }),
      });
    case 'invalid_scope':
      return new UsageError(t.invalidScope({ said }), t.invalidScopeHint, 'AUTH_INVALID_SCOPE');
    case 'invalid_target':
      return new UsageError(t.invalidTarget({ said }), t.invalidTargetHint, 'AUTH_INVALID_TARGET');
    case 'temporarily_unavailable':
    case 'server_error':
      return new ServiceUnavailableError(t.serverError({ error, said }), { code: 'AUTH_SERVER_ERROR', hint: t.serverErrorHint({ relogin }) });
    default:
      return new NotSignedInError(t.redirectError({ error: clean(error), said }), { code: 'AUTH_REDIRECT_ERROR', hint: `${relogin}.` });
  }
}
