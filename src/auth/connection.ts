// The one entry point for commands that talk to the API (export, browse, status).
import { DEFAULT_SCOPES, loadProfile, resolveProfileName, type Profile } from '../core/config.js';
import { staticCredentials, type Credentials } from '../core/credentials.js';
import { UsageError } from '../core/errors.js';
import { tokenSafeUrl } from '../core/secure-url.js';
import { notSignedIn, Session } from './session.js';

export interface Connection {
  profile: Profile;
  /** API base including /v1, without a trailing slash. */
  baseUrl: string;
  credentials: Credentials;
  /** The signed-in session behind the credentials; undefined for METERDATA_ACCESS_TOKEN. */
  session?: Session;
}

/**
 * Opens the profile's connection. METERDATA_ACCESS_TOKEN (with METERDATA_BASE_URL or the
 * profile's base_url) overrides the store and is never refreshed.
 * Throws NotSignedInError (exit 3) when the profile has no sign-in.
 */
export async function openConnection(opts: {
  profile?: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Receives warnings that do not stop the command (one line each, for stderr). */
  warn?: (line: string) => void;
}): Promise<Connection> {
  const { env } = opts;
  const name = resolveProfileName({ profile: opts.profile }, env);
  const profile = await loadProfile(env, name);
  const staticToken = env.METERDATA_ACCESS_TOKEN;
  if (staticToken) {
    const base = env.METERDATA_BASE_URL || profile?.base_url;
    if (!base) {
      throw new UsageError('METERDATA_ACCESS_TOKEN is set but the API base URL is unknown.', `Set METERDATA_BASE_URL (including /v1) or sign in the profile "${name}" once.`, 'USAGE_NO_BASE_URL');
    }
    const baseUrl = base.replace(/\/$/, '');
    // Checked here, before anything parses it: a typo in a cron script is a usage error, not a crash.
    tokenSafeUrl(baseUrl, 'The API base URL', 'Set METERDATA_BASE_URL to the https address of the service, including /v1.');
    const p: Profile = profile ?? {
      name,
      auth_url: new URL(baseUrl).origin,
      base_url: baseUrl,
      resource: new URL(baseUrl).origin,
      client_id: '',
      client_auth: 'none',
      dpop: false,
      scopes: DEFAULT_SCOPES,
      credential_store: 'keychain',
    };
    return { profile: p, baseUrl, credentials: staticCredentials(staticToken) };
  }
  if (!profile) throw notSignedIn(name);
  const session = await Session.open(profile, env, opts.warn, opts.signal);
  return { profile, baseUrl: profile.base_url.replace(/\/$/, ''), credentials: session.credentials(), session };
}
