// A token answer openid-client read (or refused after reading its body) that meterdata cannot
// use, and why in words: a lifetime that is no positive number, a token type other than
// Bearer and DPoP, an access token no header can carry, a token too long to keep. After a refresh such an answer still spent the refresh token.
import type { Wire } from './token-wire.js';
import { lifetimeOf } from './lifetime.js';
import { tokenTexts as t } from './texts-tokens.js';

/** The body openid-client refused, from its error's cause chain (`cause.body`). */
export function refusedBody(e: unknown): Record<string, unknown> | undefined {
  let cur = e as { cause?: unknown } | undefined;
  for (let i = 0; cur && i < 6; i++) {
    const body = (cur.cause as { body?: unknown } | undefined)?.body;
    if (body && typeof body === 'object') return body as Record<string, unknown>;
    cur = cur.cause as typeof cur;
  }
  return undefined;
}

/**
 * The longest token (and scope) kept, in characters. The file store reads a record back only up to
 * 1 MiB (core/bounded-read.ts): a 2 MB token was saved, sent (the API answered 431), and the next run
 * found the record "damaged". Real access tokens are a few KiB; most servers refuse headers over 16 KiB.
 */
export const MAX_TOKEN_CHARS = 64 * 1024;

const TOO_LONG = [
  ['access_token', 'accessToken'],
  ['refresh_token', 'refreshToken'],
  ['scope', 'scope'],
] as const;

/**
 * An access token an Authorization header can carry: visible ASCII, a lenient superset of RFC 6750's b64token
 * (section 2.1). A newline or NUL in it made every API request fail before leaving (UND_ERR_INVALID_ARG), retried
 * as a network failure and reported as "the service did not answer" for the token's whole lifetime.
 */
const SENDABLE = /^[\x21-\x7e]+$/;

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 40) ?? String(value);

/** Why `answer` (the tokens, or openid-client's error about their body) cannot be used; undefined if it can, or if that is not the reason. */
export function unusableAnswer(answer: unknown, wire?: Pick<Wire, 'lifetime' | 'lifetimeText' | 'tokenType'>): string | undefined {
  const read = answer instanceof Error ? refusedBody(answer) : (answer as Record<string, unknown> | undefined);
  // openid-client has already turned a lifetime given as text into a number ("0x10" into 0), and the token type into
  // lower case (round 40b F3: "Bearer " quoted as "bearer "): the values as sent are said
  const body = read && {
    ...read,
    ...(wire?.lifetime !== undefined ? { expires_in: wire.lifetime } : {}),
    ...(typeof wire?.tokenType === 'string' ? { token_type: wire.tokenType } : {}),
  };
  // what the body shows is said in meterdata's words; else the field openid-client refused
  return (body && bodyProblem(body, wire?.lifetimeText)) ?? (answer instanceof Error ? invalidField(answer) : undefined);
}

/** A lifetime given as text counts where it is a plain decimal number ("3600"), as openid-client reads it; "0x10", "16s" do not. */
const DECIMAL = /^\s*\d+(\.\d+)?\s*$/;

/** `lifetimeText`: a numeric lifetime's characters as sent (1e400 reads as Infinity, which JSON shows as null). */
function bodyProblem(body: Record<string, unknown>, lifetimeText?: string): string | undefined {
  const type = body.token_type;
  if (typeof type === 'string' && !['bearer', 'dpop'].includes(type.toLowerCase())) return t.unsupportedTokenType({ type: shown(type) });
  const given = body.expires_in;
  const lifetime = typeof given === 'string' ? (DECIMAL.test(given) ? parseFloat(given) : Number.NaN) : given;
  if (typeof lifetimeOf(lifetime) !== 'number')
    return t.badLifetime({ value: typeof given === 'number' && lifetimeText !== undefined ? lifetimeText : shown(given) });
  if (body.access_token === '') return t.fieldEmpty({ what: t.accessToken }); // said to hold a space before (round 26)
  if (typeof body.access_token === 'string' && !SENDABLE.test(body.access_token)) return t.notSendable;
  for (const [field, what] of TOO_LONG) {
    const value = body[field];
    if (typeof value === 'string' && value.length > MAX_TOKEN_CHARS)
      return t.tooLong({ what: t[what], kib: Math.ceil(value.length / 1024), max: MAX_TOKEN_CHARS / 1024 });
  }
  return undefined;
}

const FIELDS: Record<string, 'accessToken' | 'refreshToken' | 'scope' | 'tokenType'> = {
  access_token: 'accessToken',
  refresh_token: 'refreshToken',
  scope: 'scope',
  token_type: 'tokenType',
};

/**
 * A field openid-client refused in a body it read (OAUTH_INVALID_RESPONSE, its cause saying
 * '"response" body "refresh_token" property must not be empty'), in words. Its code alone said
 * "OAUTH_INVALID_RESPONSE: OAUTH_INVALID_RESPONSE", and "cut off or unreadable", untrue of a body read whole.
 */
function invalidField(e: Error): string | undefined {
  const err = e as { code?: unknown; cause?: { message?: unknown } };
  if (err.code !== 'OAUTH_INVALID_RESPONSE' || typeof err.cause?.message !== 'string') return undefined;
  const m = /"response" body "([^"]{1,40})" property must (not be empty|be a string)/.exec(err.cause.message);
  if (!m) return t.invalidAnswer({ reason: err.cause.message.slice(0, 200) });
  const key = FIELDS[m[1]!];
  const what = key ? t[key] : t.field({ name: m[1]! });
  return m[2] === 'not be empty' ? t.fieldEmpty({ what }) : t.fieldNotText({ what });
}

const issued = new WeakMap<object, string>();

/** The refresh token of a code's answer that was refused for its form (it still opened a connection at the server). */
export const issuedRefresh = (e: unknown): string | undefined => (typeof e === 'object' && e !== null ? issued.get(e) : undefined);

export function issuing<E extends object>(e: E, refresh: unknown): E {
  if (typeof refresh === 'string' && refresh !== '') issued.set(e, refresh);
  return e;
}

const unread = new WeakSet<object>();

/** A code's answer that came (or may have) without a whole token meterdata could read: a connection may be open that nothing can end. */
export const perhapsOpened = (e: unknown): boolean => typeof e === 'object' && e !== null && unread.has(e);

export function unreadAnswer<E extends object>(e: E): E {
  unread.add(e);
  return e;
}
