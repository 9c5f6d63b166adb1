// RFC 8414 discovery, and the server properties meterdata insists on before sign-in.
import * as oidc from 'openid-client';
import type { Profile } from '../core/config.js';
import { MeterdataError, ExitCode, ServiceUnavailableError, UsageError } from '../core/errors.js';
import { isLoopbackHost, isLoopbackHttp } from '../core/secure-url.js';
import { cappedFetch, tooLargeIn } from './capped-fetch.js';
import { signInTexts as t } from './texts.js';

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
      const said = { issuer: issuer.origin, value: JSON.stringify(String(raw)), name };
      throw new UsageError(local ? t.endpointUnsafeLocal({ ...said, host: issuer.hostname }) : t.endpointUnsafe(said), t.endpointHint, 'AUTH_ENDPOINT_UNSAFE');
    }
  }
}

/** Discovers the server; http is allowed only for loopback servers (the local sandbox). */
export async function discover(profile: Profile, clientAuth: oidc.ClientAuth): Promise<oidc.Configuration> {
  const issuer = new URL(profile.auth_url);
  const execute = isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [];
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, profile.client_id, undefined, clientAuth, {
      algorithm: 'oauth2',
      execute,
      timeout: 30,
      // kept by the configuration: every later call to the server (code, refresh, revocation) reads through the cap too
      [oidc.customFetch]: cappedFetch,
    });
  } catch (e) {
    throw new ServiceUnavailableError(t.discoveryFailed({ url: `${issuer.origin}/.well-known/oauth-authorization-server`, reason: describeError(e) }), {
      code: 'AUTH_DISCOVERY_FAILED',
      hint: t.discoveryHint,
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
  if (!md.code_challenge_methods_supported?.includes('S256')) missing.push(t.needsPkce);
  if (md.authorization_response_iss_parameter_supported !== true) missing.push(t.needsIss);
  if (!md.token_endpoint) missing.push(t.needsTokenEndpoint);
  if (missing.length) {
    throw new MeterdataError(t.unsupported({ issuer: md.issuer, missing: missing.join(t.and) }), {
      code: 'AUTH_SERVER_UNSUPPORTED',
      exitCode: ExitCode.USAGE,
      hint: t.unsupportedHint,
    });
  }
}

/** A short description of a failure that never includes request bodies or tokens. */
export function describeError(e: unknown): string {
  const tooLarge = tooLargeIn(e);
  if (tooLarge) return tooLarge.message;
  if (e instanceof oidc.ResponseBodyError) return `${e.error}${e.error_description ? `: ${e.error_description}` : ''} (HTTP ${e.status})`;
  if (e instanceof oidc.WWWAuthenticateChallengeError) {
    const p = e.cause[0]?.parameters;
    return `${p?.error ?? 'refused'}${p?.error_description ? `: ${p.error_description}` : ''} (HTTP ${e.status})`;
  }
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const base = err.code && err.code !== 'OAUTH_RESPONSE_IS_NOT_CONFORM' ? err.code : (err.message ?? String(e));
  // A cause whose code is the error's own (OAUTH_INVALID_RESPONSE twice) says what was wrong in its message.
  const cause = [err.cause?.code, err.cause?.message].find((x) => typeof x === 'string' && x !== base);
  return cause ? `${base}: ${cause}` : base;
}
