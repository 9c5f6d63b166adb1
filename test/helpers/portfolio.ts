// Several landlord connections signed in to one sandbox: a public test client per
// tenant whose auto-consent picks that tenant (clients file `auto_consent_tenant`).
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedIn, signInTo, tenantClients, TENANT_CLIENTS } from './signed-in.js';

export { TENANT_CLIENTS, tenantClients } from './signed-in.js';

/** Signs `profile` in to the tenant with index `tenant` (headless, file credential store). */
export async function signIn(sandbox: Sandbox, env: NodeJS.ProcessEnv, profile: string, tenant: number): Promise<void> {
  await signInTo(sandbox, env, { name: profile, tenant });
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

/** The profile "nord" signed in to the first tenant of a 10-unit sandbox (admin, no rate limits, a fixed export time). */
export async function signedInNord(homePrefix: string): Promise<{ sandbox: Sandbox; home: string; env: NodeJS.ProcessEnv }> {
  return signedIn({
    units: 10,
    admin: true,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [{ name: 'nord', tenant: 0 }],
    homePrefix,
    env: { SOURCE_DATE_EPOCH: '1795000000' },
  });
}

/** The built binary run from `home` with `env` added, to exit: its code and stderr (a second process beside an in-process run). */
export async function binaryIn(home: string, env: NodeJS.ProcessEnv, argv: string[]): Promise<{ code: number; stderr: string }> {
  const run = promisify(execFile)(process.execPath, [path.resolve('bin/meterdata.js'), ...argv], { env: { ...process.env, ...env }, cwd: home });
  return run.then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}
