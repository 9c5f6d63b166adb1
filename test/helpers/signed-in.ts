// Sign-in set-ups the auth tests share: the file store's record of a profile, its access
// token made to expire, and a profile signed in at the sandbox but then pointed at a proxy.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { setProfileFields } from '../../src/core/config.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { loginLive, proxySandbox, type SandboxProxy } from './browser.js';

/** The file store's record of `profile` under METERDATA_HOME. */
export const storeFile = (env: NodeJS.ProcessEnv, profile = 'default'): string => path.join(env.METERDATA_HOME!, 'state', 'credentials', `${profile}.json`);

/** Moves the stored access token's expiry to `inMs` from now (default: a second ago) and returns the record. */
export function setAccessExpiry(file: string, inMs = -1000): { access_token: string; refresh_token: string } & Record<string, unknown> {
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  rec.access_expires_at = new Date(Date.now() + inMs).toISOString();
  writeFileSync(file, JSON.stringify(rec), { mode: 0o600 });
  return rec;
}

/** Signs `env`'s default profile in at the sandbox (with `args`, such as --dpop), then points its issuer and API at `proxyUrl`; returns the store file. */
export async function signInBehindProxy(sandboxUrl: string, proxyUrl: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<string> {
  const r = await loginLive(['login', '--no-browser', '--auth-url', sandboxUrl, ...args], env);
  expect(r.code, r.stderr).toBe(0);
  await setProfileFields(env, 'default', { auth_url: proxyUrl, base_url: `${proxyUrl}/v1` });
  return storeFile(env);
}

export interface BehindProxy {
  /** Set once the file's tests start. */
  readonly sb: Sandbox;
  readonly proxy: SandboxProxy;
  /** A fresh METERDATA_HOME (file store) whose default profile signed in at the sandbox and now talks to the proxy; `sid` names its connection at the sandbox. */
  signedIn(extra?: NodeJS.ProcessEnv, loginArgs?: string[]): Promise<{ env: NodeJS.ProcessEnv; file: string; sid: string }>;
  /** Token requests that reached the proxy so far. */
  tokenPosts(): number;
  /** The connection's state at the sandbox (its admin interface): "connected", or "revoked" after a re-sent rotated token. */
  stateOf(sid: string): string | undefined;
}

/**
 * One sandbox with a scriptable proxy in front for a test file: started before its tests,
 * closed after them, the proxy's scripted answers (intercept, lose, rewrite) cleared after each test.
 */
export function sandboxBehindProxy(options: SandboxOptions, homePrefix: string): BehindProxy {
  let sb: Sandbox | undefined;
  let proxy: SandboxProxy | undefined;
  beforeAll(async () => {
    sb = await startSandbox(options);
    proxy = await proxySandbox(sb.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await sb?.close();
  });
  afterEach(() => {
    if (!proxy) return;
    proxy.intercept = undefined;
    proxy.lose = undefined;
    proxy.rewrite = undefined;
  });
  return {
    get sb() {
      return sb!;
    },
    get proxy() {
      return proxy!;
    },
    async signedIn(extra = {}, loginArgs = []) {
      const before = new Set(sb!.admin.connections().map((c) => c.sid));
      const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), homePrefix)), METERDATA_CREDENTIAL_STORE: 'file', ...extra };
      const file = await signInBehindProxy(sb!.url, proxy!.url, env, loginArgs);
      return { env, file, sid: sb!.admin.connections().find((c) => !before.has(c.sid))!.sid };
    },
    tokenPosts: () => proxy!.count('POST', '/oauth/token'),
    stateOf: (sid) => sb!.admin.connections().find((c) => c.sid === sid)?.state,
  };
}
