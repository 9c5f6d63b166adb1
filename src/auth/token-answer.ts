// A token answer openid-client read (or refused after reading its body) that meterdata cannot
// use, and why in words: a lifetime that is no positive number, a token type other than
// Bearer and DPoP. After a refresh such an answer still spent the refresh token.
import { lifetimeOf } from './lifetime.js';
import { tokenTexts as t } from './texts-tokens.js';

/** The body openid-client refused, from its error's cause chain (`cause.body`). */
function refusedBody(e: unknown): Record<string, unknown> | undefined {
  let cur = e as { cause?: unknown } | undefined;
  for (let i = 0; cur && i < 6; i++) {
    const body = (cur.cause as { body?: unknown } | undefined)?.body;
    if (body && typeof body === 'object') return body as Record<string, unknown>;
    cur = cur.cause as typeof cur;
  }
  return undefined;
}

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 40) ?? String(value);

/** Why `answer` (the tokens, or openid-client's error about their body) cannot be used; undefined if it can, or if that is not the reason. */
export function unusableAnswer(answer: unknown): string | undefined {
  const body = answer instanceof Error ? refusedBody(answer) : (answer as Record<string, unknown> | undefined);
  if (!body) return undefined;
  const type = body.token_type;
  if (typeof type === 'string' && !['bearer', 'dpop'].includes(type.toLowerCase())) return t.unsupportedTokenType({ type: shown(type) });
  // openid-client reads a lifetime given as text ("3600") as a number; so does this check.
  const lifetime = typeof body.expires_in === 'string' ? parseFloat(body.expires_in) : body.expires_in;
  if (typeof lifetimeOf(lifetime) !== 'number') return t.badLifetime({ value: shown(body.expires_in) });
  return undefined;
}
