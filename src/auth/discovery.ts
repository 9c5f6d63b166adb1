// RFC 8414 discovery, and the server properties meterdata insists on before sign-in.
import * as oidc from 'openid-client';
import type { Profile } from '../core/config.js';
import { MeterdataError, ExitCode, ServiceUnavailableError, UsageError } from '../core/errors.js';
import { isLoopbackHost, isLoopbackHttp } from '../core/secure-url.js';

export { isLoopbackHttp };

const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'revocation_endpoint'] as const;

/**
 * The endpoints the metadata names get the sign-in page, the code, the refresh token:
 * each must be https, or plain http on the loopback issuer's own host (the sandbox). A
 * loopback issuer's endpoints stay on its host: a page on this machine must not send
 * the user, or a token, to another one.
 */
export function assertEndpointsSafe(issuer: URL, md: Record<string, unknown>): void {
  for (const name of ENDPOINTS) {
    const raw = md[name];
    if (raw === undefined) continue;
    let u: URL | null = null;
    try {
      u = new URL(String(raw));
    } catch {
      // reported below
    }
    const local = isLoopbackHost(issuer);
    const ok = u !== null && (u.protocol === 'https:' || (local && isLoopbackHttp(u))) && (!local || u.hostname === issuer.hostname);
    if (!ok) {
      throw new UsageError(
        `The sign-in server ${issuer.origin} names ${JSON.stringify(String(raw))} as its ${name}; meterdata only uses https endpoints${local ? `, on ${issuer.hostname} for a local server` : ''}.`,
        'Check that --auth-url (or the profile\'s auth_url) points at the Metering Data Partner API authorization server.',
        'AUTH_ENDPOINT_UNSAFE',
      );
    }
  }
}

/** Discovers the server; http is allowed only for loopback servers (the local sandbox). */
export async function discover(profile: Profile, clientAuth: oidc.ClientAuth): Promise<oidc.Configuration> {
  const issuer = new URL(profile.auth_url);
  const execute = isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [];
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, profile.client_id, undefined, clientAuth, { algorithm: 'oauth2', execute, timeout: 30 });
  } catch (e) {
    throw new ServiceUnavailableError(`Cannot read the sign-in server's metadata at ${issuer.origin}/.well-known/oauth-authorization-server (${describeError(e)}).`, {
      code: 'AUTH_DISCOVERY_FAILED',
      hint: 'Check --auth-url (or the profile\'s auth_url) and that the server is reachable, then try again.',
      cause: e,
    });
  }
  assertEndpointsSafe(issuer, config.serverMetadata() as Record<string, unknown>);
  return config;
}

/** Login refuses servers that cannot give the protections the contract promises. */
export function assertServerCapabilities(config: oidc.Configuration): void {
  const md = config.serverMetadata();
  const missing: string[] = [];
  if (!md.code_challenge_methods_supported?.includes('S256')) missing.push('PKCE with S256');
  if (md.authorization_response_iss_parameter_supported !== true) missing.push('the iss parameter in authorization responses (RFC 9207)');
  if (!md.token_endpoint) missing.push('a token endpoint');
  if (missing.length) {
    throw new MeterdataError(`The sign-in server ${md.issuer} does not advertise ${missing.join(' and ')}; meterdata will not sign in there.`, {
      code: 'AUTH_SERVER_UNSUPPORTED',
      exitCode: ExitCode.USAGE,
      hint: 'Check that --auth-url points at the Metering Data Partner API authorization server.',
    });
  }
}

/** A short description of a failure that never includes request bodies or tokens. */
export function describeError(e: unknown): string {
  if (e instanceof oidc.ResponseBodyError) return `${e.error}${e.error_description ? `: ${e.error_description}` : ''} (HTTP ${e.status})`;
  if (e instanceof oidc.WWWAuthenticateChallengeError) {
    const p = e.cause[0]?.parameters;
    return `${p?.error ?? 'refused'}${p?.error_description ? `: ${p.error_description}` : ''} (HTTP ${e.status})`;
  }
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  const base = err.code && err.code !== 'OAUTH_RESPONSE_IS_NOT_CONFORM' ? err.code : (err.message ?? String(e));
  return cause ? `${base}: ${cause}` : base;
}
