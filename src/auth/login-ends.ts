// How login ends where it fails after the code was redeemed: what the server opened is ended, and what was stored
// is said (login-flow.ts).
import { OWN_FILE_MAX } from '../core/bounded-read.js';
import { diskRefusal, refusalHint, refusalWords } from '../core/disk.js';
import { ExitCode, InterruptedError, MeterdataError, UsageError } from '../core/errors.js';
import { unlessAborted } from '../core/abort.js';
import { revokeToken } from './token-exchange.js';
import { issuedRefresh, perhapsOpened } from './token-answer.js';
import { describeError } from './discovery.js';
import type { Io } from '../core/io.js';
import { signInTexts as t } from './texts.js';

/**
 * A code's answer refused for its form (a lifetime of 0, a token type not known) still opened a connection at the
 * server: it is ended again, not left alive with nobody holding it, one more at each try (round 40b F1). Where that
 * fails, or no whole token came to end it with, it is said (round 45 F1). `stopped(sent)`: the stop, told as what it
 * left.
 */
export function endOpened(
  config: Parameters<typeof revokeToken>[0],
  io: Pick<Io, 'signal' | 'stderr'>,
  stopped = (sent: boolean) =>
    new InterruptedError(sent ? t.interruptedOpened : t.interruptedOpenedUnsent, { code: 'AUTH_LOGIN_INTERRUPTED', hint: t.interruptedOpenedHint }),
): (e: unknown) => Promise<never> {
  return async (e) => {
    const opened = issuedRefresh(e);
    if (opened === undefined) {
      if (perhapsOpened(e)) io.stderr.write(`${t.perhapsOpened}\n`);
      // stopped meanwhile (an answer cut within the grace after a stop): the stop is told, not the answer too (round 46 L1)
      throw io.signal.aborted ? io.signal.reason : e;
    }
    let sent = false;
    // nothing is sent after a stop (unlessAborted): a stop before this is told as the stop it was
    const failure = await unlessAborted(() => ((sent = true), revokeToken(config, opened)), io.signal).then(
      () => undefined,
      (f: unknown) => f ?? new Error('revocation failed'),
    );
    // stopped during that revocation: the stop is told, with the connection perhaps left (round 42 L1: two error blocks)
    if (io.signal.aborted) throw stopped(sent);
    if (failure !== undefined) io.stderr.write(`${t.openedNotEnded({ reason: describeError(failure) })}\n`);
    throw e;
  };
}

/**
 * config.json refusing what /whoami said of the new connection (its tenant and Properties, beyond the room login kept
 * for them): the new sign-in is stored and its profile named, so "the settings were not changed" is not true (round
 * 40a F3); without its tenant on record the profile is a sign-in never completed, which `status` shows.
 */
export function factsRefused(failure: unknown, relogin: string, status: string, anyRefusal = false): unknown {
  // a disk refusing the write comes as the system's error (round 43 F4: told as a file not written, the sign-in unsaid)
  if (anyRefusal && diskRefusal(failure))
    return new MeterdataError(t.storedNotNoted({ problem: refusalWords(failure), status }), {
      code: 'DISK_WRITE_FAILED',
      exitCode: ExitCode.UNEXPECTED,
      hint: refusalHint(failure), // "permission denied" is not fixed by freeing space (round 44 N3)
    });
  if (!(failure instanceof MeterdataError)) return failure;
  if (failure.code === 'CONFIG_FULL')
    return new UsageError(t.factsNotNoted({ mib: OWN_FILE_MAX >> 20, status }), t.factsNotNotedHint({ relogin }), 'CONFIG_FULL');
  // the first write refused otherwise (a lock, a disk) for a profile the file names: its new sign-in is stored too (round 42 L2)
  if (!anyRefusal) return failure;
  return new MeterdataError(t.storedNotNoted({ problem: failure.message, status }), { code: failure.code, exitCode: failure.exitCode, hint: failure.hint });
}
