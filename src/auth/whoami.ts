// After every token issue and refresh the contract asks for GET /whoami, so the local
// record (tenant, scopes, property scope) always matches what the token really grants.
// The request itself is the connection's (src/auth/connection.ts): one /whoami per token.
import type { ApiClient } from '../api/contracts.js';
import type { WhoAmI } from '../api/types.js';
import type { Profile } from '../core/config.js';
import { words } from '../i18n/common.js';
import { count } from '../i18n/index.js';
import { ts } from './texts-session.js';

/** At most this many Properties' names are kept for `status`, so a huge landlord cannot stall sign-in. */
const MAX_PROPERTY_NAMES = 10_000;

async function propertyNames(api: ApiClient): Promise<string[]> {
  const names: string[] = [];
  for await (const p of api.listProperties()) {
    names.push(p.name);
    if (names.length >= MAX_PROPERTY_NAMES) break;
  }
  return names;
}

/**
 * What /whoami said, copied into the profile (nothing secret); the names of a listed
 * property scope are read with `api` (the connection's pacer). `last_refresh_at` is the
 * session's business: a /whoami is not a refresh.
 */
export async function profileFrom(profile: Profile, who: WhoAmI, api: ApiClient): Promise<Profile> {
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
  if (p.property_scope === undefined) return ts.scopeUnknown;
  if (p.property_scope === 'all') return ts.scopeAll;
  const names = p.property_names?.length ? `: ${p.property_names.join(', ')}` : '';
  return `${count(p.property_scope.length, words.property, words.properties)}${names}`;
}
