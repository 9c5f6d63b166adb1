// Sign-in set-ups the auth tests share: the file store's record of a profile, its access
// token made to expire, and a profile signed in at the sandbox but then pointed at a proxy.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { setProfileFields } from '../../src/core/config.js';
import { loginLive } from './browser.js';

/** The file store's record of `profile` under METERDATA_HOME. */
export const storeFile = (env: NodeJS.ProcessEnv, profile = 'default'): string => path.join(env.METERDATA_HOME!, 'state', 'credentials', `${profile}.json`);

/** Moves the stored access token's expiry to `inMs` from now (default: a second ago) and returns the record. */
export function setAccessExpiry(file: string, inMs = -1000): { access_token: string; refresh_token: string } & Record<string, unknown> {
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  rec.access_expires_at = new Date(Date.now() + inMs).toISOString();
  writeFileSync(file, JSON.stringify(rec), { mode: 0o600 });
  return rec;
}

/** Signs `env`'s default profile in at the sandbox, then points its issuer and API at `proxyUrl`; returns the store file. */
export async function signInBehindProxy(sandboxUrl: string, proxyUrl: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await loginLive(['login', '--no-browser', '--auth-url', sandboxUrl], env);
  expect(r.code, r.stderr).toBe(0);
  await setProfileFields(env, 'default', { auth_url: proxyUrl, base_url: `${proxyUrl}/v1` });
  return storeFile(env);
}
