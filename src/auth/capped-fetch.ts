// Every answer of the authorization server (metadata, code exchange, refresh, revocation) is read
// through a size cap: a token answer is a few KiB, and one read whole until the 30 s timeout
// took 8.3 GB of memory (an endless 200 body), enough for the kernel to kill a small VM's cron run.
import type * as oidc from 'openid-client';
import { tokenTexts as t } from './texts-tokens.js';

/** The largest authorization-server answer read: real ones are a few KiB (a token, at most 64 KiB each, see token-answer.ts). */
export const MAX_AUTH_ANSWER_BYTES = 1024 * 1024;

/** An answer over MAX_AUTH_ANSWER_BYTES; after a 2xx refresh it counts as lost (the server may have rotated). */
export class AuthAnswerTooLargeError extends Error {
  override name = 'AuthAnswerTooLarge';
  constructor(readonly status: number) {
    super(t.answerTooLarge({ status, size: `${MAX_AUTH_ANSWER_BYTES / (1024 * 1024)} MiB` }));
  }
}

/** The too-large answer somewhere in `e`'s causes (openid-client wraps what its fetch throws). */
export function tooLargeIn(e: unknown): AuthAnswerTooLargeError | undefined {
  let cur = e as { cause?: unknown } | undefined;
  for (let i = 0; cur && i < 6; i++, cur = cur.cause as typeof cur) if (cur instanceof AuthAnswerTooLargeError) return cur;
  return undefined;
}

/**
 * fetch, with the answer's body counted as it is read: past the cap the read fails with AuthAnswerTooLargeError
 * and the connection is dropped. The status arrives as before, so token-wire still sees which answer came, and a
 * body cut off fails where it did.
 */
export const cappedFetch: oidc.CustomFetch = async (url, options) => {
  const res = await fetch(url, options as RequestInit);
  if (!res.body) return res;
  let bytes = 0;
  const cap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > MAX_AUTH_ANSWER_BYTES) controller.error(new AuthAnswerTooLargeError(res.status));
      else controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(cap), { status: res.status, statusText: res.statusText, headers: res.headers });
};
