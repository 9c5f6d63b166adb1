// Headless sign-in to a sandbox started with autoConsent (used by `meterdata demo` and
// the tests): the ordinary browser sign-in (src/auth/login-flow.ts: PKCE, loopback
// callback, file credential store) where, instead of a browser, the printed
// authorization URL is followed with a plain fetch. autoConsent approves at once and
// redirects to the loopback callback, so no page needs to be shown.
import { Readable, Writable } from 'node:stream';
import { login } from '../auth/login-flow.js';
import { DEFAULT_SCOPES, SANDBOX_CLIENT_ID, resolveProfileName, type Profile } from '../core/config.js';
import { NotSignedInError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { followRedirects } from './follow-redirects.js';
import { t } from './texts-sign-in.js';

export interface HeadlessLoginOptions {
  authUrl: string;
  baseUrl: string;
  /** Environment with METERDATA_HOME set to where the profile and tokens should go. */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  profile?: string;
  /** Default sandbox-demo-client; a public client of the clients file with `auto_consent_tenant` signs in to that landlord. */
  clientId?: string;
}

/** The profile `meterdata login --auth-url … --base-url … --credential-store file` settles on for a fresh sandbox. */
function sandboxProfile(o: HeadlessLoginOptions): Profile {
  const base = new URL(o.baseUrl);
  return {
    name: resolveProfileName({ profile: o.profile }, o.env),
    auth_url: new URL(o.authUrl).href.replace(/\/$/, ''),
    base_url: base.href.replace(/\/$/, ''),
    resource: base.origin,
    client_id: o.clientId ?? SANDBOX_CLIENT_ID,
    client_auth: 'none',
    dpop: false,
    scopes: DEFAULT_SCOPES,
    credential_store: 'file',
  };
}

export async function headlessLogin(o: HeadlessLoginOptions): Promise<void> {
  let followed: Promise<unknown> | null = null;
  let log = '';
  const stderr = new Writable({
    write(chunk: Buffer, _enc, done) {
      log += chunk.toString('utf8');
      const m = /^(https?:\/\/\S+)$/m.exec(log);
      if (m && !followed) {
        // Every redirect is followed, the last one to the loopback callback too: that request is the sign-in's answer.
        followed = followRedirects(m[1]!, { maxHops: 12, signal: o.signal }).then(({ res }) => res.body?.cancel());
        // Awaited after the login; a Ctrl-C rejects it while the login still waits, and unhandled that would end the process.
        followed.catch(() => undefined);
      }
      done();
    },
  });
  const io: Io = {
    stdout: new Writable({ write: (_c, _e, done) => done() }),
    stderr,
    stdin: Readable.from([]),
    env: o.env,
    cwd: process.cwd(),
    signal: o.signal,
  };
  try {
    await login(sandboxProfile(o), io, { openBrowser: false, acceptPasted: false, timeoutMs: 60_000, storeClientSecret: false });
    await followed;
  } catch (e) {
    // Ctrl-C: the caller's interruption ("run the same command again"), not the inner login's "run meterdata login".
    if (o.signal.aborted) throw o.signal.reason;
    if (e instanceof NotSignedInError)
      throw new NotSignedInError(t.failed({ why: e.message }), { code: e.code, hint: log.trim().split('\n').slice(-2).join(' ') });
    throw e;
  }
}
