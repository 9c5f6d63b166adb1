// Runs in front of oidc-provider's /oauth routes: rate limits, and the client-authentication
// and DPoP rules the provider is more lenient about. Refresh-token rules: refresh.ts.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decodeJwt } from 'jose';
import type { Clock } from '../contracts.js';
import { readBody } from './body.js';
import { PROBLEM_TYPE_BASE, RateLimiter } from './limits.js';
import { ROUTES } from './provider.js';
import { checkDpopProof, type DpopReplayCache } from './dpop.js';

type Kind = 'token' | 'revoke' | 'authorize';

interface Ctx {
  path: string;
  method: string;
  status: number;
  body: unknown;
  type: string;
  req: IncomingMessage;
  get(h: string): string;
  set(h: string, v: string): void;
  is(t: string): string | false | null;
  oidc?: { client?: { clientId: string } };
}

export interface GuardDeps {
  clock: Clock;
  perMinute: number;
  /** Clients registered as DPoP-bound. */
  dpopBound: Set<string>;
  /** Public URL of the token endpoint (DPoP htu). */
  tokenUrl: string;
  /** Shared with the /v1 validator. */
  replay: DpopReplayCache;
}

function oauthError(ctx: Ctx, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

function tooMany(ctx: Ctx, wait: number, what: string): void {
  ctx.status = 429;
  ctx.type = 'application/problem+json';
  ctx.set('Retry-After', String(wait));
  ctx.body = {
    type: `${PROBLEM_TYPE_BASE}too-many-requests`,
    title: 'Too many requests',
    status: 429,
    detail: `Rate limit of ${what} exceeded; retry after ${wait} seconds.`,
  };
}

/**
 * oidc-provider allows 300 s of iat skew and answers a replayed jti with invalid_grant, which a
 * client reads as "connection ended" (and the code is used up). Checked here first instead:
 * a bad proof is invalid_dpop_proof and the code or refresh token stays usable.
 */
async function dpopProblem(proof: string, tokenUrl: string, replay: DpopReplayCache): Promise<string | undefined> {
  if (!proof) return undefined;
  const checked = await checkDpopProof(proof, 'POST', tokenUrl, replay);
  if (!checked.ok) return checked.problem;
  replay.remember(checked.payload.jti!, checked.payload.iat!);
  return undefined;
}

/** Lets oidc-provider read the body this guard already consumed, as if it were still unread. */
function replayBody(req: IncomingMessage, raw: string): void {
  Object.defineProperty(req, 'readable', { value: true, configurable: true });
  Object.defineProperty(req, 'iterator', {
    configurable: true,
    value: async function* () {
      yield Buffer.from(raw, 'utf8');
    },
  });
}

function kindOf(path: string): Kind | undefined {
  if (path === ROUTES.token) return 'token';
  if (path === ROUTES.revocation) return 'revoke';
  // The resume step (/oauth/authorize/{uid}) continues the same request and is not counted again.
  if (path === ROUTES.authorization) return 'authorize';
  return undefined;
}

/** Hashes a Basic secret so oidc-provider compares it with the stored hash; returns the claimed client id. */
function hashBasic(ctx: Ctx): string | undefined {
  const [scheme, value] = ctx.get('authorization').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !value) return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  const dec = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, '%20'));
    } catch {
      return undefined;
    }
  };
  const id = dec(decoded.slice(0, i));
  const secret = dec(decoded.slice(i + 1));
  if (id === undefined || !secret) return id;
  const hashed = createHash('sha256').update(secret, 'utf8').digest('hex');
  ctx.req.headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${hashed}`).toString('base64')}`;
  return id;
}

function claimedClient(ctx: Ctx, form: URLSearchParams): string | undefined {
  if (ctx.get('authorization')) return hashBasic(ctx);
  const assertion = form.get('client_assertion');
  if (assertion) {
    try {
      const iss = decodeJwt(assertion).iss;
      return typeof iss === 'string' ? iss : undefined;
    } catch {
      return undefined;
    }
  }
  return form.get('client_id') ?? undefined;
}

export function createGuard(d: GuardDeps) {
  const limiter = () => new RateLimiter(d.clock, d.perMinute);
  const byAddress: Record<Kind, RateLimiter> = { token: limiter(), revoke: limiter(), authorize: limiter() };
  const byClient: Record<Kind, RateLimiter> = { token: limiter(), revoke: limiter(), authorize: limiter() };

  return async function guard(ctx: Ctx, next: () => Promise<void>): Promise<void> {
    const kind = kindOf(ctx.path);
    if (!kind) return next();
    const wait = byAddress[kind].take(ctx.req.socket.remoteAddress ?? 'unknown');
    if (wait !== undefined) return tooMany(ctx, wait, `${d.perMinute} requests per minute per caller address`);
    if (kind === 'authorize' || ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();

    let raw: string;
    try {
      raw = await readBody(ctx.req, 56 * 1024);
    } catch {
      return oauthError(ctx, 400, 'invalid_request', 'the request body is too large');
    }
    replayBody(ctx.req, raw);
    const form = new URLSearchParams(raw);
    const methods = [ctx.get('authorization'), form.get('client_assertion'), form.get('client_secret')].filter(Boolean).length;
    if (methods > 1) return oauthError(ctx, 400, 'invalid_request', 'use exactly one client authentication method');
    if (form.has('client_secret'))
      return oauthError(
        ctx,
        401,
        'invalid_client',
        'client_secret_post is not supported; send the secret with HTTP Basic authentication (client_secret_basic)',
      );
    const claimed = claimedClient(ctx, form);
    const clientWait = claimed ? byClient[kind].blocked(claimed) : undefined;
    if (clientWait !== undefined) return tooMany(ctx, clientWait, `${d.perMinute} requests per minute per client`);

    const proofProblem = kind === 'token' ? await dpopProblem(ctx.get('dpop'), d.tokenUrl, d.replay) : undefined;
    if (proofProblem) return oauthError(ctx, 400, 'invalid_dpop_proof', proofProblem);
    if (kind === 'token' && claimed && d.dpopBound.has(claimed) && !ctx.get('dpop'))
      return oauthError(ctx, 400, 'invalid_dpop_proof', 'this client is DPoP-bound: send a DPoP proof with every token request');

    await next();
    // ctx.oidc.client is set as soon as the client is found; a 401 means it did not authenticate.
    const client = ctx.oidc?.client?.clientId;
    if (client && ctx.status !== 401) byClient[kind].hit(client);
  };
}
