// PKCE (S256), state, and the checks on the answer that must pass before the code is
// redeemed: iss equals the discovered issuer, state equals what was sent, no error.
import * as oidc from 'openid-client';
import { ExitCode, MeterdataError, NotSignedInError, ServiceUnavailableError, UsageError } from '../core/errors.js';

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

/** Judges the redirect's query. Nothing here contacts the server. `relogin`: "Run `meterdata login …` again", no full stop. */
export function checkCallback(params: URLSearchParams, expected: { issuer: string; state: string }, relogin: string): CallbackVerdict {
  const iss = params.get('iss');
  if (iss !== expected.issuer) {
    return {
      ok: false,
      error: new MeterdataError(
        iss === null
          ? 'The sign-in answer carries no issuer (iss); its code was not used.'
          : `The sign-in answer names a different server (${clean(iss)}) than the one meterdata asked (${expected.issuer}); its code was not used.`,
        { code: 'AUTH_ISSUER_MISMATCH', exitCode: ExitCode.NOT_SIGNED_IN, hint: `${relogin}. If this repeats, something between the browser and meterdata is interfering.` },
      ),
    };
  }
  if (params.get('state') !== expected.state) {
    return {
      ok: false,
      error: new MeterdataError('The sign-in answer does not belong to this sign-in (state mismatch); its code was not used.', {
        code: 'AUTH_STATE_MISMATCH',
        exitCode: ExitCode.NOT_SIGNED_IN,
        hint: `${relogin}. Use the address printed by this run of meterdata, not an older one.`,
      }),
    };
  }
  const error = params.get('error');
  if (error) return { ok: false, error: redirectError(error, clean(params.get('error_description')), relogin) };
  const code = params.get('code');
  if (!code) {
    return { ok: false, error: new MeterdataError('The sign-in answer carries neither a code nor an error.', { code: 'AUTH_NO_CODE', exitCode: ExitCode.NOT_SIGNED_IN, hint: `${relogin}.` }) };
  }
  return { ok: true, code };
}

function redirectError(error: string, description: string, relogin: string): MeterdataError {
  const said = description ? ` (${description})` : '';
  switch (error) {
    case 'access_denied':
      return new NotSignedInError(`The landlord declined the connection on the consent page${said}.`, {
        code: 'AUTH_ACCESS_DENIED',
        hint: `${relogin} and choose "Allow" on the consent page to connect.`,
      });
    case 'invalid_scope':
      return new UsageError(`The server refused the requested scopes${said}.`, 'Pass --scope with some of: read:units read:devices read:readings.', 'AUTH_INVALID_SCOPE');
    case 'invalid_target':
      return new UsageError(`The server does not know the API this sign-in is for${said}.`, 'Check --base-url (the API origin is sent as the resource).', 'AUTH_INVALID_TARGET');
    case 'temporarily_unavailable':
    case 'server_error':
      return new ServiceUnavailableError(`The sign-in server had a problem (${error})${said}.`, { code: 'AUTH_SERVER_ERROR', hint: `Try again later: ${relogin}.` });
    default:
      return new NotSignedInError(`The sign-in server ended the sign-in with "${clean(error)}"${said}.`, { code: 'AUTH_REDIRECT_ERROR', hint: `${relogin}.` });
  }
}
