// Registered test clients: the public demo client plus whatever a clients file or the
// `clients` option adds. Secrets are only ever held as SHA-256 hashes.
import { createHash } from 'node:crypto';
import { readOwnFile } from '../core/bounded-read.js';
import type { JWK } from 'jose';
import { setupTexts as t } from './texts-setup.js';

export const DEMO_CLIENT_ID = 'sandbox-demo-client';
/** Loopback redirect URIs of the demo client; any port matches (RFC 8252). */
export const DEMO_REDIRECT_URIS = ['http://127.0.0.1/callback', 'http://localhost/callback', 'http://[::1]/callback'];
export const ERP_CLIENT_ID = /^erp_[0-9a-f]{32}$/;
export const SCOPES = ['read:units', 'read:devices', 'read:readings'] as const;

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'private_key_jwt';

export interface ClientRegistration {
  client_id: string;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  /** Hex SHA-256 of the secret (client_secret_basic). The secret itself is never stored. */
  client_secret_sha256?: string;
  /** Public keys inline (private_key_jwt); a sandbox cannot fetch an https JWKS from a public DNS name. */
  jwks?: { keys: JWK[] };
  /** Token endpoint refuses to issue tokens without a DPoP proof. */
  dpop_bound_access_tokens?: boolean;
  /** Scopes the client may ask for (default: all three). */
  scope?: string;
  /** With auto-consent: the customer organisation (tenant id or name) this client's consents are approved for, instead of the first one. */
  auto_consent_tenant?: string;
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export const demoClient: ClientRegistration = {
  client_id: DEMO_CLIENT_ID,
  client_name: 'Sandbox demo client',
  redirect_uris: DEMO_REDIRECT_URIS,
  token_endpoint_auth_method: 'none',
};

function fail(id: string, why: string): never {
  throw new Error(t.client({ id: id || t.noClientId, why }));
}

function checkKey(id: string, key: JWK): void {
  if (!key.kid) fail(id, t.keyKid);
  if ('d' in key || 'p' in key || 'k' in key) fail(id, t.keyPrivate({ kid: key.kid }));
  if (key.kty === 'RSA') {
    const bits = Buffer.from(key.n ?? '', 'base64url').length * 8;
    if (bits < 2048) fail(id, t.keyBits({ kid: key.kid, bits }));
  } else if (key.kty !== 'EC' || key.crv !== 'P-256') {
    fail(id, t.keyType({ kid: key.kid }));
  }
}

/** Checks one registration and returns it normalised; throws an Error naming the fix. */
export function validateClient(c: ClientRegistration): ClientRegistration {
  const id = String(c?.client_id ?? '');
  if (id !== DEMO_CLIENT_ID && !ERP_CLIENT_ID.test(id)) fail(id, t.clientId);
  if (!Array.isArray(c.redirect_uris) || c.redirect_uris.length === 0) fail(id, t.redirectNone);
  for (const uri of c.redirect_uris) {
    const u = URL.parse(uri);
    if (!u || u.hash || (u.protocol !== 'https:' && !(u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname))))
      fail(id, t.redirectBad({ uri }));
  }
  switch (c.token_endpoint_auth_method) {
    case 'none':
      break;
    case 'client_secret_basic':
      if (!/^[0-9a-f]{64}$/.test(c.client_secret_sha256 ?? '')) fail(id, t.secretHash);
      break;
    case 'private_key_jwt':
      if (!Array.isArray(c.jwks?.keys) || c.jwks.keys.length === 0) fail(id, t.jwksNone);
      c.jwks.keys.forEach((k) => checkKey(id, k));
      if (JSON.stringify(c.jwks).length > 64 * 1024) fail(id, t.jwksLarge);
      break;
    default:
      fail(id, t.authMethod);
  }
  if (c.auto_consent_tenant !== undefined && (typeof c.auto_consent_tenant !== 'string' || c.auto_consent_tenant === '')) fail(id, t.tenantEmpty);
  const scope = c.scope ?? SCOPES.join(' ');
  for (const s of scope.split(' ')) if (!(SCOPES as readonly string[]).includes(s)) fail(id, t.scopeUnknown({ scope: s }));
  return { ...c, scope };
}

/** Reads a clients file: `{ "clients": [ClientRegistration...] }` or a bare array. */
export async function loadClientsFile(path: string): Promise<ClientRegistration[]> {
  // The error code (ENOENT, EACCES), not Node's English sentence; a JSON error in the run's language.
  // Only a plain file within 1 MiB (a few registrations take a few KB): a FIFO would block, /dev/zero fill the memory.
  let read: ReturnType<typeof readOwnFile>;
  try {
    read = readOwnFile(path);
  } catch (e) {
    throw new Error(t.fileUnreadable({ path, why: (e as NodeJS.ErrnoException).code ?? (e as Error).message }));
  }
  if (read === null) throw new Error(t.fileUnreadable({ path, why: 'ENOENT' }));
  if ('problem' in read) throw new Error(t.fileUnreadable({ path, why: read.problem }));
  const text = read.text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(t.fileUnreadable({ path, why: t.notJson }));
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { clients?: unknown })?.clients;
  if (!Array.isArray(list)) throw new Error(t.fileShape({ path }));
  return list.map((c) => validateClient(c as ClientRegistration));
}

/** oidc-provider client metadata (scopes are resource-server scopes, checked at consent). The stored "secret" is the hash; the guard hashes what callers send. */
export function toProviderMetadata(c: ClientRegistration): Record<string, unknown> {
  return {
    client_id: c.client_id,
    client_name: c.client_name ?? c.client_id,
    redirect_uris: c.redirect_uris,
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: c.token_endpoint_auth_method,
    ...(c.client_secret_sha256 ? { client_secret: c.client_secret_sha256 } : {}),
    ...(c.jwks ? { jwks: c.jwks } : {}),
    ...(c.dpop_bound_access_tokens ? { dpop_bound_access_tokens: true } : {}),
  };
}
