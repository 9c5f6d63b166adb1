// The one signed-in fixture of the tests, `signedIn`: a sandbox started (or one already
// running), a fresh METERDATA_HOME with one or several profiles signed in (headless, or with
// `meterdata login` itself where what login saves is part of the test), and the env for
// runCli or the built binary. Beside it the auth tests' set-ups: the file store's record of
// a profile, its access token made to expire, and a sandbox with a scriptable proxy in front
// whose signed-in profiles talk to the proxy.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { setProfileFields } from '../../src/core/config.js';
import { DEMO_REDIRECT_URIS, type ClientRegistration } from '../../src/sandbox/clients.js';
import { TENANT_NAMES } from '../../src/sandbox/data/index.js';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { deliver, followToRedirect, loginLive, proxySandbox, spawnCli, type SandboxProxy } from './browser.js';

/** One profile to sign in: its name (default "default") and the landlord it signs in to. */
export interface ProfileSignIn {
  name?: string;
  /** A tenant's index: its client of tenantClients() (the sandbox needs `clients: tenantClients()`). */
  tenant?: number;
  /** Any other client id of the sandbox (default: the sandbox's demo client). */
  clientId?: string;
}

/** What the tests vary; every SandboxOptions field (units, clock, rate limits, clientsFile, faults…) goes to the sandbox. */
export interface SignedInOptions extends SandboxOptions {
  /** Sign a fresh home in to this running sandbox instead of starting one (the sandbox options are then unused). */
  at?: Sandbox;
  /** The profiles to sign in, in order (default: the default profile). */
  profiles?: (string | ProfileSignIn)[];
  /**
   * Sign in with the `meterdata login --no-browser --auth-url <sandbox>` command itself (in-process), with these
   * further arguments (such as --dpop), where what login saves is part of the test; headless otherwise.
   */
  login?: string[];
  /** With `login`: run it as the built binary in a child process, which reaches the keychain through env (a keyring session's). */
  bin?: boolean;
  /** Sets METERDATA_CREDENTIAL_STORE in env (default unset: a headless sign-in's profile names the file store itself; the keychain needs `login` and `bin`). */
  credentialStore?: 'file' | 'keychain';
  /** More variables for env (SOURCE_DATE_EPOCH, test hooks). */
  env?: NodeJS.ProcessEnv;
  /** The temporary METERDATA_HOME's name prefix (default md-signed-in-). */
  homePrefix?: string;
  /** Bounds each headless sign-in (default 60 s; `meterdata login` bounds its own wait). */
  timeoutMs?: number;
}

export interface SignedIn {
  sandbox: Sandbox;
  /** METERDATA_HOME. */
  home: string;
  /** METERDATA_HOME plus the options' variables: for runCli({ env }) or runBin(args, env). */
  env: NodeJS.ProcessEnv;
  /** The file store's record of the first profile. */
  file: string;
  /** The connection the first profile's sign-in opened at the sandbox (its admin interface). */
  sid: string;
  /** Signs one more profile (or the same one again: a new connection) in to the sandbox in the same home, as the first; `extra` adds variables for this sign-in only (test hooks). The connection's sid. */
  signIn(profile?: string | ProfileSignIn, extra?: NodeJS.ProcessEnv): Promise<string>;
  /** Closes the sandbox if this fixture started it. */
  close(): Promise<void>;
}

/** erp_ client ids, one per sandbox tenant (index = tenant index). */
export const TENANT_CLIENTS = TENANT_NAMES.map((_, i) => `erp_${String(i + 1).padStart(32, 'a')}`);

/** A public test client per tenant whose auto-consent picks that tenant: the sandbox option `clients` for several landlords. */
export function tenantClients(): ClientRegistration[] {
  return TENANT_NAMES.map((name, i) => ({
    client_id: TENANT_CLIENTS[i]!,
    redirect_uris: DEMO_REDIRECT_URIS,
    token_endpoint_auth_method: 'none',
    auto_consent_tenant: name,
  }));
}

const profileOf = (p: string | ProfileSignIn) => {
  const { name, tenant, clientId } = typeof p === 'string' ? { name: p } : p;
  return { name, client: clientId ?? (tenant === undefined ? undefined : TENANT_CLIENTS[tenant]) };
};

/** Signs one profile of `env`'s METERDATA_HOME in to an auto-consent sandbox, headless (the file credential store). */
export async function signInTo(sandbox: Sandbox, env: NodeJS.ProcessEnv, p: string | ProfileSignIn = {}, timeoutMs = 60_000): Promise<void> {
  const { name, client } = profileOf(p);
  await headlessLogin({
    authUrl: sandbox.url,
    baseUrl: sandbox.apiBase,
    env,
    signal: AbortSignal.timeout(timeoutMs),
    ...(name ? { profile: name } : {}),
    ...(client ? { clientId: client } : {}),
  });
}

/** Signs one profile in with `meterdata login --no-browser` (in-process, or the built binary) and `args`; fails the test with login's stderr unless it exits 0. */
async function loginTo(authUrl: string, env: NodeJS.ProcessEnv, p: string | ProfileSignIn, args: string[], bin = false): Promise<void> {
  const { name, client } = profileOf(p);
  const argv = ['login', '--no-browser', ...(name ? ['--profile', name] : []), '--auth-url', authUrl, ...(client ? ['--client-id', client] : []), ...args];
  const run = bin ? spawnCli(argv, env) : undefined;
  if (run) await deliver(await followToRedirect(await run.url));
  const r = run ? await run.done : await loginLive(argv, env);
  expect(r.code, r.stderr).toBe(0);
}

/** A sandbox (port 0, auto-consent, clock 2026-11-22 unless the options say otherwise) and a home signed in to it. */
export async function signedIn(opts: SignedInOptions = {}): Promise<SignedIn> {
  const { at, profiles, login, bin, credentialStore, env: extra, homePrefix, timeoutMs, ...sandboxOptions } = opts;
  const sandbox = at ?? (await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', ...sandboxOptions }));
  try {
    const home = await mkdtemp(path.join(os.tmpdir(), homePrefix ?? 'md-signed-in-'));
    // The home is always the fixture's own, even where `env` comes from a keyring session's.
    const env: NodeJS.ProcessEnv = { ...(credentialStore ? { METERDATA_CREDENTIAL_STORE: credentialStore } : {}), ...extra, METERDATA_HOME: home };
    const signIn = async (p: string | ProfileSignIn = {}, more: NodeJS.ProcessEnv = {}) => {
      const before = new Set(sandbox.admin.connections().map((c) => c.sid));
      const e = { ...env, ...more };
      await (login ? loginTo(sandbox.url, e, p, login, bin) : signInTo(sandbox, e, p, timeoutMs));
      return sandbox.admin.connections().find((c) => !before.has(c.sid))?.sid ?? '';
    };
    const [first = {}, ...others] = profiles ?? [];
    const sid = await signIn(first);
    for (const p of others) await signIn(p);
    const file = storeFile(env, profileOf(first).name);
    return { sandbox, home, env, file, sid, signIn, close: async () => void (at ? undefined : await sandbox.close()) };
  } catch (e) {
    if (!at) await sandbox.close();
    throw e;
  }
}

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
  await loginTo(sandboxUrl, env, {}, args);
  await pointAt(env, proxyUrl);
  return storeFile(env);
}

/** Points the default profile's issuer and API at a proxy in front of the sandbox it signed in to. */
const pointAt = (env: NodeJS.ProcessEnv, proxyUrl: string) => setProfileFields(env, 'default', { auth_url: proxyUrl, base_url: `${proxyUrl}/v1` });

export interface BehindProxy {
  /** Set once the file's tests start. */
  readonly sb: Sandbox;
  readonly proxy: SandboxProxy;
  /** A fresh METERDATA_HOME (file store) whose default profile signed in at the sandbox and now talks to the proxy; `sid` names its connection at the sandbox. */
  signedIn(extra?: NodeJS.ProcessEnv, loginArgs?: string[]): Promise<{ env: NodeJS.ProcessEnv; file: string; sid: string }>;
  /**
   * As `signedIn` with the test hooks on, the token timeout `tokenTimeoutMs` and the access token expired
   * locally, so the next command refreshes through the proxy; `stored` reads the record again.
   */
  refreshDue(tokenTimeoutMs: number): Promise<RefreshDue>;
  /** Token requests that reached the proxy so far. */
  tokenPosts(): number;
  /** The connection's state at the sandbox (its admin interface): "connected", or "revoked" after a re-sent rotated token. */
  stateOf(sid: string): string | undefined;
}

export interface RefreshDue {
  env: NodeJS.ProcessEnv;
  file: string;
  sid: string;
  /** The record as signed in, before the command refreshes. */
  rec: ReturnType<typeof setAccessExpiry>;
  stored(): Record<string, unknown>;
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
      const { env, file, sid } = await signedIn({ at: sb!, login: loginArgs, credentialStore: 'file', env: extra, homePrefix });
      await pointAt(env, proxy!.url);
      return { env, file, sid };
    },
    async refreshDue(tokenTimeoutMs) {
      const { env, file, sid } = await this.signedIn({ METERDATA_TEST_HOOKS: '1', METERDATA_TEST_TOKEN_TIMEOUT_MS: String(tokenTimeoutMs) });
      const rec = setAccessExpiry(file);
      return { env, file, sid, rec, stored: () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> };
    },
    tokenPosts: () => proxy!.count('POST', '/oauth/token'),
    stateOf: (sid) => sb!.admin.connections().find((c) => c.sid === sid)?.state,
  };
}
