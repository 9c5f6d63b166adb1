// After every token issue and refresh the contract asks for GET /whoami, so the local
// record (tenant, scopes, property scope) always matches what the token really grants.
import type { Page, Property, WhoAmI } from '../api/types.js';
import type { Profile } from '../core/config.js';
import { NotSignedInError, ServiceUnavailableError } from '../core/errors.js';

export type HeadersFor = (method: string, url: string) => Promise<Record<string, string>>;
/** Called once after a 401 with the rejected headers; refreshes so the request can be retried. */
export type OnRejected = (rejected: Record<string, string>) => Promise<void>;

async function getJson<T>(url: string, headersFor: HeadersFor, profile: Profile, onRejected?: OnRejected): Promise<T> {
  const first = await getOnce(url, headersFor, profile);
  if (first.status === 401 && onRejected) {
    await first.res.body?.cancel();
    await onRejected(first.headers);
    return handle<T>((await getOnce(url, headersFor, profile)).res, url, profile);
  }
  return handle<T>(first.res, url, profile);
}

async function getOnce(url: string, headersFor: HeadersFor, profile: Profile): Promise<{ res: Response; status: number; headers: Record<string, string> }> {
  let res: Response;
  const headers = await headersFor('GET', url);
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new ServiceUnavailableError(`Cannot reach the API at ${new URL(url).origin} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name}).`, {
      code: 'API_UNREACHABLE',
      cause: e,
    });
  }
  return { res, status: res.status, headers };
}

async function handle<T>(res: Response, url: string, profile: Profile): Promise<T> {
  if (res.status === 401) {
    await res.body?.cancel();
    throw new NotSignedInError('The API no longer accepts this connection (the landlord disconnected it or their API access ended).', {
      code: 'AUTH_CONNECTION_ENDED',
      hint: `Run \`meterdata login${profile.name !== 'default' ? ` --profile ${profile.name}` : ''}\` to connect again.`,
    });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ServiceUnavailableError(`The API answered ${res.status} to ${new URL(url).pathname}.`, { code: 'API_UNAVAILABLE' });
  }
  return (await res.json()) as T;
}

export function fetchWhoami(profile: Profile, headersFor: HeadersFor, onRejected?: OnRejected): Promise<WhoAmI> {
  return getJson<WhoAmI>(`${profile.base_url.replace(/\/$/, '')}/whoami`, headersFor, profile, onRejected);
}

/** Names of the Properties in scope; bounded to 50 pages so a huge landlord cannot stall login. */
export async function fetchPropertyNames(profile: Profile, headersFor: HeadersFor): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const url = new URL(`${profile.base_url.replace(/\/$/, '')}/properties`);
    url.searchParams.set('limit', '200');
    if (cursor) url.searchParams.set('page_cursor', cursor);
    const body: Page<Property> = await getJson<Page<Property>>(url.toString(), headersFor, profile);
    names.push(...body.data.map((p) => p.name));
    cursor = body.next_cursor;
    if (!cursor) break;
  }
  return names;
}

/** Copies what /whoami says into the profile (nothing secret). */
export async function reconcile(profile: Profile, headersFor: HeadersFor, onRejected?: OnRejected, now = new Date()): Promise<Profile> {
  const who = await fetchWhoami(profile, headersFor, onRejected);
  const next: Profile = {
    ...profile,
    tenant_id: who.tenant_id,
    tenant_name: who.tenant_name,
    client_id_seen: who.client_id,
    granted_scopes: who.granted_scopes,
    property_scope: who.property_scope,
    last_refresh_at: now.toISOString(),
  };
  if (who.token_expires_at) next.access_expires_at = who.token_expires_at;
  if (who.property_scope !== 'all' && who.granted_scopes.includes('read:units')) {
    next.property_names = await fetchPropertyNames(profile, headersFor);
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
  return `${n} ${n === 1 ? 'Property' : 'Properties'}${names}`;
}
