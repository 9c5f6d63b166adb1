// Login's wait for the sign-in's answer: the loopback callback, a pasted redirect address, the timeout or a stop,
// whichever comes first (login-flow.ts).
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { InterruptedError, NotSignedInError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { count } from '../i18n/index.js';
import type { CallbackPage } from './loopback-callback.js';
import type { LoginOptions } from './login-flow.js';
import { signInTexts as t } from './texts.js';

/** The sign-in wait as a person reads it: "1 minute", "5 minutes", "30 seconds". */
export function describeWait(ms: number): string {
  return ms >= 60_000 ? count(Math.round(ms / 60_000), t.minute, t.minutes) : count(Math.round(ms / 1000), t.second, t.seconds);
}

/** Answers that do not belong to this sign-in: ignored, the wait goes on. */
export const NOT_OURS = new Set(['AUTH_ISSUER_MISMATCH', 'AUTH_STATE_MISMATCH', 'AUTH_NO_CODE']);

export function waitForAnswer(
  received: Promise<URLSearchParams>,
  opts: LoginOptions,
  io: Io,
  relogin: string,
  judge: (p: URLSearchParams) => CallbackPage,
): Promise<URLSearchParams> {
  const cleanups: (() => void)[] = [];
  const racers: Promise<URLSearchParams>[] = [received];
  racers.push(
    new Promise((_, reject) => {
      const timer = setTimeout(() => {
        reject(new NotSignedInError(t.timeout({ wait: describeWait(opts.timeoutMs) }), { code: 'AUTH_LOGIN_TIMEOUT', hint: t.timeoutHint({ relogin }) }));
      }, opts.timeoutMs);
      cleanups.push(() => clearTimeout(timer));
    }),
  );
  racers.push(
    new Promise((_, reject) => {
      const onAbort = () => reject(new InterruptedError(t.interrupted, { code: 'AUTH_LOGIN_INTERRUPTED', hint: `${relogin}.` }));
      if (io.signal.aborted) onAbort();
      io.signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => io.signal.removeEventListener('abort', onAbort));
    }),
  );
  if (opts.acceptPasted) racers.push(pastedAnswer(io.stdin, cleanups, judge));
  return Promise.race(racers).finally(() => cleanups.forEach((c) => c()));
}

/** The longest pasted line looked at: far beyond any redirect address; a longer one (`< /dev/zero`) is dropped unread. */
const PASTE_MAX = 64 << 10;

/** Resolves with the query of the first pasted redirect URL that belongs to this sign-in; never resolves otherwise. */
function pastedAnswer(stdin: Readable, cleanups: (() => void)[], judge: (p: URLSearchParams) => CallbackPage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    // lines split here, not by readline, which joins a line without end until the string is too long (round 43 F3)
    const decoder = new StringDecoder('utf8');
    let line = '';
    const onData = (chunk: Buffer | string) => {
      const parts = (line + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
      line = parts.pop()!;
      if (line.length > PASTE_MAX) line = '';
      for (const part of parts) {
        const text = part.length > PASTE_MAX ? '' : part.trim();
        if (!text) continue;
        try {
          const u = new URL(text);
          if ((u.searchParams.has('code') || u.searchParams.has('error')) && judge(u.searchParams).final) resolve(u.searchParams);
        } catch {
          // not a URL: ignore and keep waiting
        }
      }
    };
    stdin.on('data', onData);
    cleanups.push(() => {
      stdin.off('data', onData);
      stdin.pause();
    });
  });
}
