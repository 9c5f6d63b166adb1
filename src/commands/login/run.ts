// `meterdata login`: settles the profile's settings from flags, presets and the existing
// profile, then runs the browser sign-in (src/auth/login-flow.ts) and says who is connected.
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  DEFAULT_SCOPES,
  SANDBOX_CLIENT_ID,
  configFile,
  loadProfile,
  readConfig,
  reservedInPortfolio,
  resolveProfileName,
  type Preset,
  type Profile,
} from '../../core/config.js';
import { MeterdataError, UsageError } from '../../core/errors.js';
import { coreTexts as ct } from '../../core/texts.js';
import { terminalSafe } from '../../core/terminal-text.js';
import type { Io } from '../../core/io.js';
import { chooseStoreKind } from '../../auth/credential-store/index.js';
import { isLoopbackHttp } from '../../auth/discovery.js';
import { login, previousFate, type LoginResult } from '../../auth/login-flow.js';
import { describePropertyScope } from '../../auth/whoami.js';
import { aligned, loginTexts as t } from '../texts-auth.js';
import type { CommandContext } from '../context.js';
import type { LoginFlags } from './index.js';

const KNOWN_SCOPES = new Set(DEFAULT_SCOPES);

export async function run(opts: LoginFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const name = resolveProfileName(opts, io.env);
  if (reservedInPortfolio(name)) throw new UsageError(ct.profileNameReserved({ name }), ct.profileNameReservedHint, 'PROFILE_NAME_INVALID');
  const existing = await loadProfile(io.env, name).catch((e: unknown) => {
    // Signing in again is how a damaged profile is replaced: its settings come from the flags.
    if (!(e instanceof MeterdataError && e.code === 'CONFIG_PROFILE_INVALID')) throw e;
    io.stderr.write(`${terminalSafe(t.damagedReplaced({ problem: e.message }))}\n`);
    return undefined;
  });
  const profile = await settle(name, opts, io, existing);
  let secret: string | undefined;
  let storeSecret = false;
  if (profile.client_auth === 'client_secret_basic') {
    if (opts.clientSecretStdin) {
      secret = await firstLine(io);
      storeSecret = true;
      if (!secret) throw new UsageError(t.secretStdinEmpty, t.secretStdinHint, 'AUTH_NO_CLIENT_SECRET');
    } else if (io.env.METERDATA_CLIENT_SECRET) {
      secret = io.env.METERDATA_CLIENT_SECRET;
    } else {
      const previous = await (await ctx.store(profile.credential_store)).read(name).catch(() => null);
      secret = previous?.client_secret;
      storeSecret = !!secret;
    }
  }
  const result = await login(profile, io, {
    openBrowser: opts.browser !== false,
    acceptPasted: opts.browser === false && !opts.clientSecretStdin,
    timeoutMs: (opts.timeout ?? 300) * 1000,
    clientSecret: secret,
    storeClientSecret: storeSecret,
  }).catch((e: unknown) => {
    const fate = previousFate(e);
    if (fate) io.stderr.write(`${previousText(fate)}\n`);
    throw e;
  });
  const p = result.profile;
  const { row } = aligned([t.scopes, t.propertyScope, t.dpop, t.storedIn]);
  const previous = result.previous && previousText(result.previous);
  io.stdout.write(
    [
      t.connected({ profile: p.name, tenant: `${terminalSafe(p.tenant_name ?? t.theLandlord)}${p.tenant_id ? ` (${terminalSafe(p.tenant_id)})` : ''}` }),
      row(t.scopes, (p.granted_scopes ?? []).join(' ') || t.none),
      row(t.propertyScope, terminalSafe(describePropertyScope(p))),
      row(t.dpop, p.dpop ? t.dpopOn : t.dpopOff),
      row(t.storedIn, result.store.describe(p.name)),
      ...(previous ? [`  ${previous}`] : []),
      '',
    ].join('\n'),
  );
  return 0;
}

async function settle(name: string, opts: LoginFlags, io: Io, existing: Profile | undefined): Promise<Profile> {
  // An empty value (--client-id "") counts as not given, as it always has.
  const str = <K extends keyof LoginFlags>(k: K) => (typeof opts[k] === 'string' && opts[k] ? (opts[k] as Extract<LoginFlags[K], string>) : undefined);
  let preset: Preset = {};
  const envName = str('env');
  if (envName) {
    const config = await readConfig(io.env);
    preset = config.presets?.[envName] ?? {};
    if (!preset.auth_url && !preset.base_url) {
      throw new UsageError(t.presetMissing({ env: envName }), t.presetHint({ env: envName, file: configFile(io.env) }), 'USAGE_PRESET_MISSING');
    }
  }
  const explicit = str('authUrl') ?? str('baseUrl') ?? envName;
  let authUrl = str('authUrl') ?? preset.auth_url ?? (explicit ? undefined : existing?.auth_url);
  let baseUrl = str('baseUrl') ?? preset.base_url ?? (explicit ? undefined : existing?.base_url);
  if (!authUrl && !baseUrl) {
    throw new UsageError(t.noServer, t.noServerHint, 'USAGE_NO_SERVER');
  }
  authUrl ??= new URL(checkUrl(baseUrl!, '--base-url')).origin;
  baseUrl ??= `${new URL(checkUrl(authUrl, '--auth-url')).origin}/v1`;
  const auth = new URL(checkUrl(authUrl, '--auth-url'));
  const base = new URL(checkUrl(baseUrl, '--base-url'));
  const sameServer = existing && existing.auth_url === authUrl.replace(/\/$/, '');
  const clientId =
    str('clientId') ??
    preset.client_id ??
    (sameServer ? existing.client_id : undefined) ??
    (envName === 'sandbox' || isLoopbackHttp(auth) ? SANDBOX_CLIENT_ID : undefined);
  if (!clientId) throw new UsageError(t.noClientId, t.noClientIdHint, 'USAGE_NO_CLIENT_ID');
  const privateKey = str('privateKey');
  const clientAuth =
    str('clientAuth') ??
    (privateKey ? 'private_key_jwt' : opts.clientSecretStdin || io.env.METERDATA_CLIENT_SECRET ? 'client_secret_basic' : undefined) ??
    (sameServer && existing.client_id === clientId ? existing.client_auth : 'none');
  const scopes = str('scope')
    ? str('scope')!
        .split(/[\s,]+/)
        .filter(Boolean)
    : sameServer
      ? existing.scopes
      : DEFAULT_SCOPES;
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (!scopes.length || unknown.length) {
    throw new UsageError(t.unknownScope({ scopes: unknown.join(', ') || t.noneGiven }), t.scopeHint({ known: DEFAULT_SCOPES.join(' ') }), 'USAGE_SCOPE');
  }
  const profile: Profile = {
    name,
    auth_url: auth.href.replace(/\/$/, ''),
    base_url: base.href.replace(/\/$/, ''),
    resource: base.origin,
    client_id: clientId,
    client_auth: clientAuth,
    dpop: opts.dpop === true || (opts.dpop === undefined && !!sameServer && existing.dpop),
    scopes,
    credential_store: chooseStoreKind(opts.credentialStore, io.env, existing?.credential_store),
  };
  if (clientAuth === 'private_key_jwt') {
    const file = privateKey ? path.resolve(io.cwd, privateKey) : existing?.private_key_file;
    if (!file) throw new UsageError(t.keyNeeded, t.keyNeededHint, 'AUTH_NO_PRIVATE_KEY');
    profile.private_key_file = file;
    const kid = str('kid') ?? existing?.kid;
    if (kid) profile.kid = kid;
    profile.alg = str('alg') ?? existing?.alg ?? 'RS256';
  } else if (privateKey) {
    throw new UsageError(t.keyOnlyWithJwt);
  }
  return profile;
}

function checkUrl(value: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(t.notAUrl({ flag, value }), t.notAUrlHint, 'USAGE_URL');
  }
  if (u.protocol !== 'https:' && !isLoopbackHttp(u)) {
    throw new UsageError(t.notHttps({ flag, origin: u.origin }), undefined, 'USAGE_URL');
  }
  if (u.search || u.hash) throw new UsageError(t.noQuery({ flag }), undefined, 'USAGE_URL');
  return value;
}

async function firstLine(io: Io): Promise<string | undefined> {
  const rl = createInterface({ input: io.stdin, crlfDelay: Infinity });
  try {
    for await (const line of rl) return line.trim() || undefined;
    return undefined;
  } finally {
    rl.close();
  }
}

/** What became of the profile's previous connection, in a line. */
function previousText(p: NonNullable<LoginResult['previous']>): string {
  return p.revoked ? t.previousRevoked : (p.unsure ? t.previousPerhapsRevoked : t.previousNotRevoked)({ reason: p.reason });
}
