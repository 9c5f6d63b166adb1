// After every token issue and refresh the contract asks for GET /whoami, so the local
// record (tenant, scopes, property scope) always matches what the token really grants.
import { createApiClient } from '../api/client.js';
import type { ApiClient } from '../api/contracts.js';
import type { Profile } from '../core/config.js';
import type { Credentials } from '../core/credentials.js';
import { NotSignedInError } from '../core/errors.js';
import { plural } from '../core/plural.js';

export type HeadersFor = (method: string, url: string) => Promise<Record<string, string>>;
/** Called once after a 401 with the rejected headers; refreshes so the request can be retried. */
export type OnRejected = (rejected: Record<string, string>) => Promise<void>;

/** At most this many Properties' names are kept for `status`, so a huge landlord cannot stall sign-in. */
const MAX_PROPERTY_NAMES = 10_000;

/**
 * The one API helper, driven by the session's headers: sign-in and status get the same
 * retries, pacing and answer checks as an export. Without `onRejected` (inside a refresh,
 * which already holds the lock) a 401 means the connection itself has ended.
 */
function apiFor(profile: Profile, headersFor: HeadersFor, onRejected: OnRejected | undefined, signal: AbortSignal | undefined): ApiClient {
  const relogin = `Run \`meterdata login${profile.name !== 'default' ? ` --profile ${profile.name}` : ''}\` to connect again.`;
  const credentials: Credentials = {
    headersFor,
    async refreshAfterRejection(rejectedToken) {
      if (!onRejected) {
        throw new NotSignedInError('The API no longer accepts this connection (the landlord disconnected it or their API access ended).', {
          code: 'AUTH_CONNECTION_ENDED',
          hint: relogin,
        });
      }
      await onRejected({ authorization: `Bearer ${rejectedToken}` });
    },
    async currentToken() {
      const h = await headersFor('GET', `${profile.base_url.replace(/\/$/, '')}/whoami`);
      return (h.authorization ?? '').replace(/^\S+ /, '');
    },
  };
  return createApiClient({ baseUrl: profile.base_url.replace(/\/$/, ''), credentials, ...(signal ? { signal } : {}) });
}

async function propertyNames(api: ApiClient): Promise<string[]> {
  const names: string[] = [];
  for await (const p of api.listProperties()) {
    names.push(p.name);
    if (names.length >= MAX_PROPERTY_NAMES) break;
  }
  return names;
}

/** Copies what /whoami says into the profile (nothing secret). `last_refresh_at` is the session's business: a /whoami is not a refresh. */
export async function reconcile(profile: Profile, headersFor: HeadersFor, onRejected?: OnRejected, signal?: AbortSignal): Promise<Profile> {
  const api = apiFor(profile, headersFor, onRejected, signal);
  try {
    return await reconcileWith(api, profile);
  } finally {
    await api.close();
  }
}

async function reconcileWith(api: ApiClient, profile: Profile): Promise<Profile> {
  const who = await api.whoami();
  const next: Profile = {
    ...profile,
    tenant_id: who.tenant_id,
    tenant_name: who.tenant_name,
    client_id_seen: who.client_id,
    granted_scopes: who.granted_scopes,
    property_scope: who.property_scope,
  };
  if (who.token_expires_at) next.access_expires_at = who.token_expires_at;
  if (who.property_scope !== 'all' && who.granted_scopes.includes('read:units')) {
    next.property_names = await propertyNames(api);
  } else {
    delete next.property_names;
  }
  return next;
}

export function describePropertyScope(p: Pick<Profile, 'property_scope' | 'property_names'>): string {
  if (p.property_scope === undefined) return 'unknown';
  if (p.property_scope === 'all') return 'all Properties (including future ones)';
  const n = p.property_scope.length;
  const names = p.property_names?.length ? `: ${p.property_names.join(', ')}` : '';
  return `${plural(n, 'Property')}${names}`;
}
