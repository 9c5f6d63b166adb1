// `meterdata status`: what a profile is connected to and whether the connection works
// right now (a live /whoami). Exit 0 when it does, 3 otherwise.
import { setImmediate } from 'node:timers/promises';
import { statSync } from 'node:fs';
import { configFile, loadProfile, readConfig, resolveProfileName, type ConfigFile, type Profile } from '../../core/config.js';
import { ExitCode, MeterdataError, NotSignedInError } from '../../core/errors.js';
import { terminalSafe, terminalSafeJson } from '../../core/terminal-text.js';
import { describePropertyScope } from '../../auth/whoami.js';
import { aligned, statusTexts as t } from '../texts-auth.js';
import type { CommandContext } from '../context.js';
import type { StatusFlags } from './index.js';

interface StatusReport {
  profile: string;
  auth_url?: string;
  base_url?: string;
  client_id?: string;
  client_auth?: string;
  dpop?: boolean;
  tenant_id?: string;
  tenant_name?: string;
  granted_scopes?: string[];
  property_scope?: 'all' | string[];
  property_names?: string[];
  access_expires_at?: string;
  last_refresh_at?: string;
  storage?: string;
  signed_in: boolean;
  working: boolean;
  problem?: { code: string; message: string; hint?: string };
}

export async function run(opts: StatusFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  // --all lists a damaged profile as one with a problem; the others are still checked.
  // read once for all (read twice per profile, 4,000 profiles took 2 minutes: session 26), and again where it changed
  // since (a profile signed in again meanwhile was judged by its old landlord, its new access token dropped: round 58 T1)
  let seen = stamp(io.env);
  let config = opts.all ? await readConfig(io.env) : undefined;
  const names = config ? Object.keys(config.profiles ?? {}).sort() : [resolveProfileName(opts, io.env)];
  // As `export --all-profiles`: none signed in is a failure (exit 3), which --json prints as its error object, not `[]`.
  if (names.length === 0) throw new NotSignedInError(t.noProfiles, { hint: t.noProfilesHint });
  const reports: StatusReport[] = [];
  // each profile reads config.json anew, without waiting on anything for a damaged one: a turn of the event loop between
  // two lets Ctrl-C be heard (round 40a, 41 M1: 60,000 entries, deaf for minutes)
  for (const name of names) {
    await setImmediate();
    io.signal.throwIfAborted();
    if (config && stamp(io.env) !== seen) [seen, config] = [stamp(io.env), await readConfig(io.env)];
    reports.push(await check(name, ctx, config));
  }
  if (opts.json) io.stdout.write(`${terminalSafeJson(opts.all ? reports : reports[0], 2)}\n`);
  else io.stdout.write(reports.map(render).join('\n'));
  return reports.every((r) => r.working) ? ExitCode.OK : ExitCode.NOT_SIGNED_IN;
}

/** config.json's identity: every write replaces the file (a new inode), and a hand edit changes its time or size. */
function stamp(env: NodeJS.ProcessEnv): string {
  try {
    const st = statSync(configFile(env), { bigint: true, throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}` : 'none';
  } catch {
    return `unknown ${Math.random()}`; // read again: its own read says what is wrong
  }
}

/** `config`: config.json as read for `--all`. */
async function check(name: string, ctx: CommandContext, config: ConfigFile | undefined): Promise<StatusReport> {
  const { io } = ctx;
  const report: StatusReport = { profile: name, signed_in: false, working: false };
  let stored: Profile | undefined;
  try {
    stored = await loadProfile(io.env, name, config);
  } catch (e) {
    if (!(config && e instanceof MeterdataError && e.code === 'CONFIG_PROFILE_INVALID')) throw e;
    return { ...report, problem: problemOf(e) };
  }
  if (stored) Object.assign(report, facts(stored), { storage: (await ctx.store(stored.credential_store)).describe(name) });
  if (io.env.METERDATA_ACCESS_TOKEN) report.storage = t.staticToken;
  try {
    const conn = await ctx.connect({ profile: name, config, warn: (l) => io.stderr.write(l) });
    report.signed_in = true;
    const fresh = await conn.reconcile({ refreshOn401: true }).finally(() => conn.close());
    Object.assign(report, facts(fresh));
    // A copied or restored record still reads /whoami with its access token, but its refresh token was sent before: not working.
    const unsendable = await conn.session?.unrefreshable();
    if (unsendable) throw unsendable;
    report.working = true;
  } catch (e) {
    // Interrupted is no finding about the profile: the command stops (130).
    // the stop, not the profile's failure it caused, is what is told (round 41 L5: "not signed in" after the interruption)
    io.signal.throwIfAborted();
    if (!(e instanceof MeterdataError)) throw e;
    report.problem = problemOf(e);
    // No tokens stored (an entry copied in config.json, say): what config.json says of a connection, its
    // tenant and token expiry, is a copy's, and showing it would pass a profile never signed in as one.
    if (e.code === 'AUTH_NOT_SIGNED_IN' && !report.signed_in) for (const k of CONNECTION_FACTS) delete report[k];
    // Tokens that cannot be read: config.json's token expiry and last refresh are of tokens nobody can show exist.
    if (e.code === 'AUTH_STORE_DAMAGED' && !report.signed_in) for (const k of TOKEN_FACTS) delete report[k];
  }
  return report;
}

const TOKEN_FACTS = ['access_expires_at', 'last_refresh_at'] as const;
const CONNECTION_FACTS = ['tenant_id', 'tenant_name', 'granted_scopes', 'property_scope', 'property_names', ...TOKEN_FACTS] as const;

const problemOf = (e: MeterdataError): NonNullable<StatusReport['problem']> => ({ code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) });

function facts(p: Profile): Partial<StatusReport> {
  const {
    auth_url,
    base_url,
    client_id,
    client_auth,
    dpop,
    tenant_id,
    tenant_name,
    granted_scopes,
    property_scope,
    property_names,
    access_expires_at,
    last_refresh_at,
  } = p;
  return {
    auth_url,
    base_url,
    client_id,
    client_auth,
    dpop,
    tenant_id,
    tenant_name,
    granted_scopes,
    property_scope,
    property_names,
    access_expires_at,
    last_refresh_at,
  };
}

function render(r: StatusReport): string {
  // Tenant and Property names, problem texts: the server's words, shown with control characters escaped.
  const { row, indent } = aligned(
    [t.authServer, t.api, t.client, t.tenant, t.scopes, t.propertyScope, t.accessToken, t.lastRefresh, t.storedIn, t.problem],
    17,
  );
  const line = (k: string, v: string | undefined) => (v === undefined ? '' : `${row(k, terminalSafe(v))}\n`);
  const state = r.working ? t.working : r.signed_in ? t.notWorking : t.notSignedIn;
  let out = `${t.profile({ profile: r.profile, state })}\n`;
  out += line(t.authServer, r.auth_url);
  out += line(t.api, r.base_url);
  out += line(t.client, r.client_id && `${r.client_id} (${r.client_auth}${r.dpop ? ', DPoP' : ''})`);
  out += line(t.tenant, r.tenant_name && `${r.tenant_name} (${r.tenant_id})`);
  out += line(t.scopes, r.granted_scopes?.join(' '));
  out += line(t.propertyScope, r.property_scope && describePropertyScope(r));
  out += line(t.accessToken, r.access_expires_at && t.expires({ at: r.access_expires_at }));
  out += line(t.lastRefresh, r.last_refresh_at);
  out += line(t.storedIn, r.storage);
  if (r.problem) out += `${line(t.problem, r.problem.message)}${r.problem.hint ? `${indent}${terminalSafe(r.problem.hint)}\n` : ''}`;
  return out;
}
