// The sandbox's /v1 REST API: token check, rate limit, scope, routes, faults and the request log,
// as one node:http handler that server.ts mounts under /v1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock, NodeHandler, TokenInfo, TokenValidator } from '../contracts.js';
import type { Dataset } from '../data/index.js';
import { mulberry32 } from '../data/prng.js';
import { FaultInjector, type FaultPlan } from './faults.js';
import { futurise } from './future.js';
import { ApiProblem, problem, type Answer } from './problem.js';
import { RateLimiter } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { matchRoute } from './routes.js';

export { parseFaultSpecs, type FaultPlan, type FaultRule, type FaultKind } from './faults.js';
export { RequestLog } from './request-log.js';
export { DEVELOPER_URL } from './problem.js';

export interface ApiOptions {
  dataset: Dataset;
  tokens: TokenValidator;
  clock: Clock;
  /** Per connection (TokenInfo.sid); default 300; 0 = off. Failed tokens count per caller address. */
  rateLimitPerMinute?: number;
  faults?: FaultPlan;
  futureContract?: boolean;
  log?: RequestLog;
  /** Injected answer latency range in ms (benchmarks). */
  latencyMs?: [number, number];
}

export function createApi(opts: ApiOptions): NodeHandler {
  const limiter = new RateLimiter(opts.rateLimitPerMinute ?? 300);
  const faults = new FaultInjector(opts.faults);
  const log = opts.log ?? new RequestLog();
  const jitter = mulberry32(7);
  let requests = 0;

  async function answer(req: IncomingMessage, path: string, traceId: string): Promise<Answer & { template: string }> {
    const match = matchRoute(path);
    if (!match)
      return {
        ...problem(req, traceId, 404, 'resource-not-found', `There is no endpoint ${path.startsWith('/') ? '/v1' + path : path}.`),
        template: 'unknown',
      };
    const template = match.route.template;
    const fail = (a: Answer, sid?: string) => ({ ...a, template, sid });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return fail(problem(req, traceId, 405, 'method-not-allowed', `The API is read-only; ${req.method} is not allowed, use GET.`, { allow: 'GET' }));
    }
    const publicUrl = `http://${req.headers.host ?? '127.0.0.1'}/v1${path}`;
    const check = await opts.tokens.validate(req, publicUrl);
    if (!check.ok) {
      const retry = limiter.hit(`addr:${req.socket.remoteAddress ?? '?'}`);
      if (retry !== undefined) return fail(tooMany(req, traceId, retry));
      return fail(
        problem(req, traceId, 401, 'invalid-token', check.description, {
          'www-authenticate': `${check.scheme} error="${check.error}", error_description="${check.description.replace(/"/g, "'")}"`,
        }),
      );
    }
    const token: TokenInfo = check.token;
    const scheme = /^dpop /i.test(req.headers.authorization ?? '') ? 'DPoP' : 'Bearer';
    if (!opts.tokens.tenantAccessEnabled(token.tenant_id)) {
      const d = "The landlord's API access has ended; the connection was revoked. Have the landlord enable access and connect again.";
      return fail(
        problem(req, traceId, 401, 'invalid-token', d, { 'www-authenticate': `${scheme} error="invalid_token", error_description="API access ended"` }),
        token.sid,
      );
    }
    const retry = limiter.hit(`sid:${token.sid}`);
    if (retry !== undefined) return fail(tooMany(req, traceId, retry), token.sid);
    const scope = match.route.scope;
    if (scope && !token.scopes.includes(scope)) {
      const d = `The access token lacks the scope ${scope}. Start a new authorization that requests ${scope} and have the landlord approve it on the consent screen.`;
      return fail(
        problem(req, traceId, 403, 'insufficient-scope', d, { 'www-authenticate': `${scheme} error="insufficient_scope", scope="${scope}"` }),
        token.sid,
      );
    }
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const a = match.route.handle({ ds: opts.dataset, token, query: url.searchParams, now: opts.clock.now() }, match.id);
      return { ...(opts.futureContract ? { ...a, body: futurise(a.body) } : a), template, sid: token.sid };
    } catch (e) {
      if (e instanceof ApiProblem) return fail(problem(req, traceId, e.status, e.code, e.detail), token.sid);
      throw e;
    }
  }

  return async (req: IncomingMessage, res: ServerResponse) => {
    const n = ++requests;
    const traceId = randomBytes(8).toString('hex');
    const path = (req.url ?? '/').split('?')[0]!.replace(/^\/v1(?=\/|$)/, '') || '/';
    const fault = faults.pick(n);
    if (fault) log.recordFault(fault.kind);
    if (fault?.kind === 'drop') {
      log.record(matchRoute(path)?.route.template ?? 'unknown', 'dropped');
      req.socket.destroy();
      return;
    }
    let a: Answer & { template: string };
    try {
      if (fault?.kind === 'slow') await sleep(fault.ms ?? 2000);
      const injected = fault && injectedStatus(req, traceId, fault.kind);
      a = injected ? { ...injected, template: matchRoute(path)?.route.template ?? 'unknown' } : await answer(req, path, traceId);
    } catch {
      a = { ...problem(req, traceId, 500, 'internal-error'), template: matchRoute(path)?.route.template ?? 'unknown' };
    }
    if (opts.latencyMs) {
      const [lo, hi] = opts.latencyMs;
      await sleep(lo + Math.round(jitter() * Math.max(0, hi - lo)));
    }
    log.record(a.template, a.status, a.sid);
    send(req, res, a, fault?.kind === 'truncate');
  };
}

function tooMany(req: IncomingMessage, traceId: string, retryAfter: number): Answer {
  return problem(req, traceId, 429, 'too-many-requests', `Rate limit exceeded; retry after ${retryAfter} s.`, { 'retry-after': String(retryAfter) });
}

function injectedStatus(req: IncomingMessage, traceId: string, kind: string): Answer | undefined {
  if (kind === '429') return tooMany(req, traceId, 1);
  if (kind === '500') return problem(req, traceId, 500, 'internal-error');
  if (kind === '503') return problem(req, traceId, 503, 'service-unavailable', undefined, { 'retry-after': '1' });
  return undefined;
}

function send(req: IncomingMessage, res: ServerResponse, a: Answer, truncate: boolean): void {
  const body = Buffer.from(JSON.stringify(a.body));
  res.writeHead(a.status, { ...a.headers, 'cache-control': 'no-store', 'content-length': String(body.length) });
  if (req.method === 'HEAD') {
    res.end();
  } else if (truncate) {
    // Declare the full length, send half, then cut the connection.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
  } else {
    res.end(body);
  }
}
