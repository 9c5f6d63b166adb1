// Several landlord connections signed in to one sandbox: a public test client per
// tenant whose auto-consent picks that tenant (clients file `auto_consent_tenant`).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_REDIRECT_URIS, type ClientRegistration } from '../../src/sandbox/clients.js';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { TENANT_NAMES } from '../../src/sandbox/data/index.js';

/** erp_ client ids, one per sandbox tenant (index = tenant index). */
export const TENANT_CLIENTS = TENANT_NAMES.map((_, i) => `erp_${String(i + 1).padStart(32, 'a')}`);

export function tenantClients(): ClientRegistration[] {
  return TENANT_NAMES.map((name, i) => ({ client_id: TENANT_CLIENTS[i]!, redirect_uris: DEMO_REDIRECT_URIS, token_endpoint_auth_method: 'none', auto_consent_tenant: name }));
}

/** Signs `profile` in to the tenant with index `tenant` (headless, file credential store). */
export async function signIn(sandbox: Sandbox, env: NodeJS.ProcessEnv, profile: string, tenant: number): Promise<void> {
  await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: new AbortController().signal, profile, clientId: TENANT_CLIENTS[tenant]! });
}

/** The sid of the profile's newest live connection, found by the client it signed in with. */
export function liveSid(sandbox: Sandbox, tenant: number, nth = 0): string {
  const live = sandbox.admin.connections().filter((c) => c.client_id === TENANT_CLIENTS[tenant] && c.state !== 'revoked');
  return live[nth]!.sid;
}

/** Every file of a folder with its bytes, sorted by name. */
export async function folderBytes(dir: string): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  for (const n of (await readdir(dir)).sort()) out[n] = await readFile(path.join(dir, n));
  return out;
}
