// Headless sign-in to a sandbox started with autoConsent (used by `meterdata demo` and
// the export tests): it runs the ordinary `meterdata login` flow (PKCE, loopback
// callback, file credential store) and, instead of a browser, follows the printed
// authorization URL with a plain fetch. autoConsent approves at once and redirects to
// the loopback callback, so no page needs to be shown.
import { Writable } from 'node:stream';
import { NotSignedInError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { followRedirects } from '../sandbox/follow-redirects.js';

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
  const stdout = new Writable({ write: (_c, _e, done) => done() });
  const io: Io = {
    stdout,
    stderr,
    stdin: (await import('node:stream')).Readable.from([]),
    // BROWSER=true: the flow "opens a browser" with a command that does nothing.
    env: { ...o.env, BROWSER: 'true' },
    cwd: process.cwd(),
    signal: o.signal,
  };
  const { run } = await import('../commands/login.js');
  try {
    await run({ authUrl: o.authUrl, baseUrl: o.baseUrl, clientId: o.clientId ?? 'sandbox-demo-client', credentialStore: 'file', timeout: '60', ...(o.profile ? { profile: o.profile } : {}) }, io, []);
    await followed;
  } catch (e) {
    // Ctrl-C: the caller's interruption ("run the same command again"), not the inner login's "run meterdata login".
    if (o.signal.aborted) throw o.signal.reason;
    if (e instanceof NotSignedInError) throw new NotSignedInError(`Sign-in to the sandbox failed: ${e.message}`, { code: e.code, hint: log.trim().split('\n').slice(-2).join(' ') });
    throw e;
  }
}
