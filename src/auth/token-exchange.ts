// The three calls to the authorization server after discovery: redeem the code, refresh,
// revoke. Errors become typed meterdata errors whose text carries no token.
import { setTimeout as sleep } from 'node:timers/promises';
import * as oidc from 'openid-client';
import type { Profile } from '../core/config.js';
import { ExitCode, MeterdataError, NotSignedInError, ServiceUnavailableError } from '../core/errors.js';
import { describeError } from './discovery.js';
import { tooLargeIn } from './capped-fetch.js';
import type { DpopKey } from './dpop.js';
import { duration, retryAt, retryHint } from '../api/limits.js';
import { clockKnown, clockSkewError, dpopRefusedHint } from '../core/clock-skew.js';
import { tokenTexts as t } from './texts-tokens.js';
import { issuing, refusedBody, unreadAnswer, unusableAnswer } from './token-answer.js';
export { recordFromTokens } from './token-record.js';
import { causeCodes, lostAfterSending, neverLeft, watched, type Wire } from './token-wire.js';

export type TokenSet = oidc.TokenEndpointResponse;

export function dpopHandle(config: oidc.Configuration, key: DpopKey | undefined): oidc.DPoPHandle | undefined {
  return key ? oidc.getDPoPHandle(config, { privateKey: key.privateKey, publicKey: key.publicKey }) : undefined;
}

export async function redeemCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { verifier: string; state: string },
  resource: string,
  dpop: oidc.DPoPHandle | undefined,
): Promise<TokenSet> {
  // watched for the lifetime as sent only: a code is used once, so nothing here is sent twice either way
  const { tokens, wire } = await watched(config, async (wire) => {
    try {
      return {
        tokens: await oidc.authorizationCodeGrant(
          config,
          callbackUrl,
          { pkceCodeVerifier: checks.verifier, expectedState: checks.state },
          { resource },
          dpop ? { DPoP: dpop } : undefined,
        ),
        wire,
      };
    } catch (e) {
      // the wire for the lifetime as sent, and the token of an answer openid-client refused (an id_token it cannot read: round 42 F1)
      const opened = wire.opened ?? refusedBody(e)?.refresh_token;
      const failure = issuing(tokenError(e, 'redeem', undefined, !!dpop, undefined, wire), opened);
      throw opened === undefined && lostAfterSending(e, wire) ? unreadAnswer(failure) : failure; // cut in its first token, or no answer (round 45 F1)
    }
  });
  const bad = unusableAnswer(tokens, wire);
  const refused =
    bad &&
    new MeterdataError(t.badAnswer({ what: t.redeem, reason: bad }), { code: 'AUTH_BAD_SERVER_ANSWER', exitCode: ExitCode.UNAVAILABLE, hint: t.badAnswerHint });
  if (refused) throw issuing(refused, wire.opened ?? tokens.refresh_token);
  return tokens;
}

/** Around a 429's wait: what says the refresh is on its way is withdrawn for the wait (refresh-outcome.ts between429). */
export interface Between429 {
  refused(): Promise<void>;
  resend(): Promise<void>;
}

/** A 429 is retried this many times, each wait at most RETRY_AFTER_MAX_S. */
export const REFRESH_429_RETRIES = 3;
const RETRY_AFTER_MAX_S = 30;

/**
 * A 429 is the only failure retried: the server turned the request away before using the
 * refresh token. A 5xx or a lost answer may come after a rotation, so it is never resent.
 * `mayWait`: asked before each 429 wait, with its length, the endpoint and how long the refused
 * attempt took (a 429 sent after 25 s is 25 s of this run's waiting too, as the API's are); an
 * error ends the refresh instead (the run's Retry-After pauses have a total, the token endpoint's count too).
 */
export async function refreshGrant(
  config: oidc.Configuration,
  refreshToken: string,
  dpop: oidc.DPoPHandle | undefined,
  profile: Profile,
  signal?: AbortSignal,
  mayWait?: (ms: number, endpoint: string, failedMs: number) => Error | null,
  between?: Between429,
): Promise<TokenSet> {
  return watched(config, async (wire) => {
    for (let attempt = 0; ; attempt++) {
      const sentAt = performance.now();
      try {
        const tokens = await oidc.refreshTokenGrant(config, refreshToken, undefined, dpop ? { DPoP: dpop } : undefined);
        // Every refresh rotates (contract): an answer without the new token lost it, and keeping the old one would present a rotated token.
        if (!tokens.refresh_token) throw answerLost(undefined, 'refresh', profile, t.noNewRefreshToken({ status: wire.status ?? 200 }));
        // The token just sent, given back: retired by this refresh under the contract whatever the server answered; kept, the next run would send it.
        if (tokens.refresh_token === refreshToken) throw answerUnusable(undefined, profile, wire.status ?? 200, t.notRotated);
        const bad = unusableAnswer(tokens, wire);
        if (bad) throw answerUnusable(undefined, profile, wire.status ?? 200, bad);
        return tokens;
      } catch (e) {
        if (e instanceof RefreshAnswerLostError) throw e;
        const wait = httpStatusOf(e) === 429 ? retryAfterSeconds(e) : undefined;
        if (wait !== undefined && wait > RETRY_AFTER_MAX_S) throw tokenWaitTooLong(wait);
        if (wait === undefined || attempt >= REFRESH_429_RETRIES) throw tokenError(e, 'refresh', profile, undefined, wire);
        const endpoint = `POST ${config.serverMetadata().token_endpoint ?? profile.auth_url}`;
        const refused = mayWait?.(wait * 1000, endpoint, performance.now() - sentAt);
        if (refused) throw refused;
        await between?.refused();
        // Ctrl-C ends the wait (no request is on its way then); never a request in flight.
        await sleep(wait * 1000, undefined, { signal }).catch((err: unknown) => Promise.reject(signal?.reason ?? err));
        await between?.resend();
      }
    }
  });
}

/** A token-endpoint 429 asking for more than RETRY_AFTER_MAX_S: the refresh token was not used; say when to come back. */
function tokenWaitTooLong(seconds: number): ServiceUnavailableError {
  const ms = seconds * 1000;
  return new ServiceUnavailableError(t.waitTooLong({ wait: duration(ms), max: RETRY_AFTER_MAX_S }), {
    code: 'AUTH_RATE_LIMITED',
    hint: retryHint(retryAt(Date.now(), ms)),
  });
}

function responseOf(e: unknown): Response | undefined {
  const x = e as { response?: unknown; cause?: unknown };
  if (x?.response instanceof Response) return x.response;
  if (x?.cause instanceof Response) return x.cause;
  return undefined;
}

const httpStatusOf = (e: unknown): number | undefined => oauthErrorOf(e)?.status ?? responseOf(e)?.status;

/** Retry-After in whole seconds (delta form; an HTTP date is converted); 1 when absent. */
function retryAfterSeconds(e: unknown): number {
  const raw = responseOf(e)?.headers.get('retry-after');
  if (!raw) return 1;
  const n = Number(raw);
  if (Number.isFinite(n)) return Math.max(0, Math.ceil(n));
  const at = Date.parse(raw);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export async function revokeToken(config: oidc.Configuration, token: string): Promise<void> {
  await watched(config, async (wire) => {
    try {
      await oidc.tokenRevocation(config, token);
    } catch (e) {
      // sent, and no answer (a timeout after writing, a cut answer) or a 5xx after it: the server may have acted (round 32 F6)
      if (typeof e === 'object' && e !== null && lostAfterSending(e, wire)) unsureRevocations.set(e, wire.status ? `HTTP ${wire.status}` : describeError(e));
      throw e;
    }
  });
}

/** Why each such failure leaves the revocation unsure: the answer's status where one came (a 5xx), else the failure's words. */
const unsureRevocations = new WeakMap<object, string>();

/** A revocation that failed after its request left: the connection may be revoked or not. */
export const revocationUnsure = (e: unknown): { reason: string } | null =>
  typeof e === 'object' && e !== null && unsureRevocations.has(e) ? { reason: unsureRevocations.get(e)! } : null;

/**
 * A refresh request that left, whose answer was lost (no answer in time, a dropped connection,
 * a body cut off or unreadable after a 2xx): the server may have rotated the refresh token,
 * so it is never sent again and the person signs in again (exit 3).
 */
export class RefreshAnswerLostError extends NotSignedInError {}

/** The OAuth error of a token-endpoint answer, whether in the body or a WWW-Authenticate challenge. */
export function oauthErrorOf(e: unknown): { error: string; status: number } | undefined {
  if (e instanceof oidc.ResponseBodyError) return { error: e.error, status: e.status };
  if (e instanceof oidc.WWWAuthenticateChallengeError) {
    const error = e.cause.map((c) => c.parameters.error).find((x) => typeof x === 'string');
    return { error: error ?? (e.status === 401 ? 'invalid_client' : 'unknown'), status: e.status };
  }
  return undefined;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** Why the answer is lost, in words (describeError of a timeout says "OAUTH_TIMEOUT: 23"). */
function lostReason(e: unknown, wire: Wire | undefined): string {
  const codes = causeCodes(e);
  if (codes.includes('OAUTH_TIMEOUT') || codes.includes('TimeoutError')) return t.noAnswerInTime;
  if (wire?.status !== undefined && wire.status >= 500) return t.failedAfterSending({ status: wire.status });
  if (wire?.status !== undefined && !isSuccess(wire.status)) return t.noTokenAnswer({ status: wire.status });
  if (tooLargeIn(e)) return describeError(e);
  if (wire?.status !== undefined) return t.cutOff({ status: wire.status, reason: describeError(e) });
  return describeError(e);
}

/** `wire` (refreshes only): what the request did, so a timeout or a cut-off 2xx counts as an answer lost after sending. */
/** `asSent`: a code exchange's answer as sent (its lifetime's characters), where no `wire` makes it a lost refresh. */
export function tokenError(
  e: unknown,
  action: TokenAction,
  profile: Profile | undefined,
  dpopUsed = profile?.dpop ?? false,
  wire?: Wire,
  asSent = wire,
): MeterdataError {
  const relogin = t.connectAgain({ login: loginCommand(profile) });
  const what = t[action];
  const oauthError = oauthErrorOf(e);
  // A refresh that reached the server and failed there, or was answered by a redirect, may have rotated the token:
  // never "try again". So may a 2xx other than 200 whose challenge reads as a refusal (openid-client parses
  // challenges on any status but 200).
  if (wire && wire.status !== undefined && (!isSuccess(wire.status) || oauthError) && lostAfterSending(e, wire)) return answerLost(e, action, profile, wire);
  if (oauthError?.error === 'invalid_dpop_proof') {
    // A proof refused while this clock is off the server's: the sign-in is fine once the clock is right.
    const date = responseOf(e)?.headers.get('date') ?? null;
    const skew = clockSkewError(date);
    if (skew) return skew;
    // No Date to compare with: the clock may still be the cause, so signing in again is not the first advice.
    if (!clockKnown(date)) return refusedAnswer(e, action, dpopRefusedHint(date, loginCommand(profile)));
  }
  if (oauthError && /dpop/i.test(describeError(e)) && !dpopUsed) {
    return new MeterdataError(t.dpopRequired({ reason: describeError(e) }), {
      code: 'AUTH_DPOP_REQUIRED',
      exitCode: ExitCode.USAGE,
      hint: t.dpopRequiredHint,
    });
  }
  if (oauthError) {
    if (oauthError.error === 'invalid_grant') {
      return new NotSignedInError(profile ? t.connectionEnded : t.codeRefused({ reason: describeError(e) }), {
        code: profile ? 'AUTH_CONNECTION_ENDED' : 'AUTH_CODE_REFUSED',
        // Some servers answer a DPoP-bound client's proofless request with a bare invalid_grant.
        hint: profile || dpopUsed ? relogin : t.addDpop({ relogin }),
      });
    }
    if (oauthError.error === 'invalid_client') {
      return new MeterdataError(t.clientRefused({ what }), {
        code: 'AUTH_CLIENT_REFUSED',
        exitCode: ExitCode.NOT_SIGNED_IN,
        hint: t.clientRefusedHint,
      });
    }
    if (oauthError.status === 429 || oauthError.status >= 500) {
      return new ServiceUnavailableError(t.serverUnavailable({ what, reason: describeError(e) }), { code: 'AUTH_SERVER_UNAVAILABLE' });
    }
    return refusedAnswer(e, action, relogin);
  }
  if (httpStatusOf(e) === 429) {
    return new ServiceUnavailableError(t.rateLimited({ what }), {
      code: 'AUTH_RATE_LIMITED',
      hint: t.rateLimitedHint,
    });
  }
  const bad = unusableAnswer(e, asSent); // a lifetime as sent (1e400, not "null": round 26, also at login)
  // Its body was read, so the answer arrived: after a refresh the token is spent.
  if (bad && wire) return answerUnusable(e, profile, wire.status ?? 200, bad);
  if (bad)
    return new MeterdataError(t.badAnswer({ what, reason: bad }), { code: 'AUTH_BAD_SERVER_ANSWER', exitCode: ExitCode.UNAVAILABLE, hint: t.badAnswerHint });
  if (wire && lostAfterSending(e, wire)) return answerLost(e, action, profile, wire);
  if (neverLeft(e, wire)) {
    return new ServiceUnavailableError(t.unreachable({ what, reason: describeError(e) }), { code: 'AUTH_SERVER_UNREACHABLE' });
  }
  if (e instanceof oidc.ClientError || (e as { name?: string }).name === 'OperationProcessingError') {
    return new MeterdataError(t.badAnswer({ what, reason: describeError(e) }), {
      code: 'AUTH_BAD_SERVER_ANSWER',
      exitCode: ExitCode.UNAVAILABLE,
      hint: t.badAnswerHint,
    });
  }
  return answerLost(e, action, profile, wire);
}

/** What a token request was for; the messages say it in the run's language. */
export type TokenAction = 'redeem' | 'refresh';

const loginCommand = (profile: Profile | undefined) => `meterdata login${profile && profile.name !== 'default' ? ` --profile ${profile.name}` : ''}`;

function refusedAnswer(e: unknown, action: TokenAction, hint: string): MeterdataError {
  return new MeterdataError(t.refused({ what: t[action], reason: describeError(e) }), { code: 'AUTH_TOKEN_REFUSED', exitCode: ExitCode.NOT_SIGNED_IN, hint });
}

function answerLost(e: unknown, action: TokenAction, profile: Profile | undefined, wire: Wire | string | undefined): RefreshAnswerLostError {
  return new RefreshAnswerLostError(t.answerLost({ what: t[action], reason: typeof wire === 'string' ? wire : lostReason(e, wire) }), {
    code: 'AUTH_ANSWER_LOST',
    hint: profile ? t.answerLostHint({ login: loginCommand(profile) }) : t.loginAgain,
    cause: e,
  });
}

/** A 2xx refresh answer that cannot be used: the server rotated, so it counts as lost (exit 3, never re-sent). */
export function answerUnusable(e: unknown, profile: Profile | undefined, status: number, reason: string): RefreshAnswerLostError {
  return new RefreshAnswerLostError(t.answerUnusable({ status, reason }), {
    code: 'AUTH_ANSWER_LOST',
    hint: t.answerLostHint({ login: loginCommand(profile) }),
    cause: e,
  });
}

/** Anything that failed after a 2xx refresh answer (building the record, the store, the lock): the token we sent is spent. Errors that already say "sign in again" stay. */
export function keptAnswerLost(e: unknown, profile: Profile): MeterdataError {
  if (e instanceof MeterdataError && e.exitCode === ExitCode.NOT_SIGNED_IN) return e;
  // our own errors in words (a removed lock folder), not as a bare code (round 47 L-c), as a clause of the sentence
  const reason = e instanceof MeterdataError ? e.message.charAt(0).toLowerCase() + e.message.slice(1).replace(/\.$/, '') : describeError(e);
  return answerUnusable(e, profile, 200, t.notKept({ reason }));
}
